import { endpoint, route } from "~/api/endpoint.server";
import { partnerIdOf, testBasketWebhook } from "~/domains/baskets/baskets.server";

export const loader = endpoint({
  POST: route("partner", ({ partner, params }) => testBasketWebhook(partnerIdOf(partner), params.id)),
});
export const action = loader;
