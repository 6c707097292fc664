import { endpoint, route } from "~/api/endpoint.server";
import { basketInputSchema, partnerIdOf, updateBasketConfig } from "~/domains/baskets/baskets.server";

export const loader = endpoint({
  PUT: route("partner", { body: basketInputSchema }, ({ partner, params, body }) =>
    updateBasketConfig(partnerIdOf(partner), params.id, body),
  ),
});
export const action = loader;
