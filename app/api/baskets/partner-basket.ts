import { endpoint, route } from "~/api/endpoint.server";
import { basketInputSchema, partnerIdOf, updateBasketConfig } from "~/domains/baskets/baskets.server";
import { basketParams, basketWriteResultSchema } from "~/domains/baskets/schemas";

export const loader = endpoint({
  PUT: route(
    "partner",
    {
      summary: "Change a basket configuration; setting a first webhook URL returns its secret once",
      description: "Webhooks only on the Growth, Scale and Enterprise plans (403 `webhooks_not_available`).",
      params: basketParams,
      body: basketInputSchema,
      response: basketWriteResultSchema,
      errors: { no_partner: 404, webhooks_not_available: 403 },
    },
    ({ partner, params, body }) => updateBasketConfig(partnerIdOf(partner), params.id, body),
  ),
});
export const action = loader;
