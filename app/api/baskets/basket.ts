import { endpoint, route } from "~/api/endpoint.server";
import { getPublicBasket } from "~/domains/baskets/baskets.server";

// Read by storefronts without credentials (SPEC 4.5).
export const loader = endpoint({
  GET: route("none", ({ params }) => getPublicBasket(params.id)),
});
export const action = loader;
