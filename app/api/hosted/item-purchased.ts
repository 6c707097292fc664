import { endpoint, route } from "~/api/endpoint.server";
import { setPurchasedAsMember } from "~/domains/lists/items.server";

export const loader = endpoint({
  PUT: route("user", ({ user, params, body }) => setPurchasedAsMember(params.token, params.itemId, user.userId, body)),
});
export const action = loader;
