import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { partnerIdOf, testBasketWebhook } from "~/domains/baskets/baskets.server";
import { basketParams } from "~/domains/baskets/schemas";

export const loader = endpoint({
  POST: route(
    "partner",
    {
      summary: "Send one signed test call to the basket's webhook now",
      description: "502 `webhook_failed` carries the receiver's `status` (when it answered) and a `reason`.",
      params: basketParams,
      response: z.object({ ok: z.literal(true), status: z.number().int().describe("The receiver's HTTP status") }),
      errors: { no_partner: 404, webhooks_not_available: 403, no_webhook: 400, webhook_failed: 502 },
    },
    ({ partner, params }) => testBasketWebhook(partnerIdOf(partner), params.id),
  ),
});
export const action = loader;
