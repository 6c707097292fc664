import { endpoint, route } from "~/api/endpoint.server";
import { setPurchasedPublic } from "~/domains/lists/items.server";

export const loader = endpoint({
  PUT: route("none", ({ params, body }) => setPurchasedPublic(params.token, params.itemId, body)),
});
export const action = loader;
