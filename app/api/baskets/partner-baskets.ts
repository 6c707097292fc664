import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { basketInputSchema, createBasketConfig, listBasketConfigs, partnerIdOf } from "~/domains/baskets/baskets.server";
import { basketWriteResultSchema, partnerBasketSchema } from "~/domains/baskets/schemas";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "The partner's basket configurations",
      response: z.object({ baskets: z.array(partnerBasketSchema) }),
      errors: { no_partner: 404 },
    },
    ({ partner }) => listBasketConfigs(partnerIdOf(partner)),
  ),
  POST: route(
    "partner",
    {
      summary: "Create a basket configuration; with a webhook URL its secret is returned this once",
      description: "Webhooks only on the Growth, Scale and Enterprise plans (403 `webhooks_not_available`).",
      body: basketInputSchema,
      status: 201,
      response: basketWriteResultSchema,
      errors: { no_partner: 404, webhooks_not_available: 403 },
    },
    async ({ partner, body }) => json(await createBasketConfig(partnerIdOf(partner), body), { status: 201 }),
  ),
});
export const action = loader;
