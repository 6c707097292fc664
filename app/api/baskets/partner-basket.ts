import { endpoint, route } from "~/lib/api/endpoint.server";
import { partnerIdOf, updateBasketConfig } from "~/domains/baskets/baskets.server";

export const loader = endpoint({
  PUT: route("partner", ({ partner, params, body }) => updateBasketConfig(partnerIdOf(partner), params.id, body)),
});
export const action = loader;
