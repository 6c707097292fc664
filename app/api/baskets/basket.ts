import { endpoint, route } from "~/api/endpoint.server";
import { getPublicBasket } from "~/domains/baskets/baskets.server";
import { basketParams, publicBasketSchema } from "~/domains/baskets/schemas";

// Read by storefronts without credentials (SPEC 4.5).
export const loader = endpoint({
  GET: route(
    "none",
    { summary: "A basket configuration as storefronts see it", params: basketParams, response: publicBasketSchema },
    ({ params }) => getPublicBasket(params.id),
  ),
});
export const action = loader;
