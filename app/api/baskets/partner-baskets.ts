import { endpoint, json, route } from "~/api/endpoint.server";
import { basketInputSchema, createBasketConfig, listBasketConfigs, partnerIdOf } from "~/domains/baskets/baskets.server";

export const loader = endpoint({
  GET: route("partner", ({ partner }) => listBasketConfigs(partnerIdOf(partner))),
  POST: route("partner", { body: basketInputSchema }, async ({ partner, body }) =>
    json(await createBasketConfig(partnerIdOf(partner), body), { status: 201 }),
  ),
});
export const action = loader;
