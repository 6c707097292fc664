// `POST /analytics/track` (SPEC 7.4): events from the service's own pages only; no rate-limit headers (SPEC 8.3).
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { requireOwnPage, trackEvent } from "~/domains/analytics/analytics.server";

const numericId = z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/).transform(Number)]);

export const trackBody = z.object({
  partnerId: numericId,
  apiKeyId: numericId.nullish(),
  event: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits and _ . : - only"),
  properties: z
    .record(z.string(), z.unknown())
    .refine((p) => JSON.stringify(p).length <= 4096, "at most 4 KB of JSON")
    .optional(),
});

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Record an analytics event for a partner (from the service's own pages only)",
      description:
        "Accepted only with `X-Analytics-Token`, the token the service writes into its own pages (`<meta name=\"wish-analytics-token\">`), " +
        "and when `Origin` is APP_URL's origin or listed in ANALYTICS_ALLOWED_ORIGINS (else 403 `forbidden`). " +
        "`apiKeyId` must belong to `partnerId` (`forbidden_key_not_owned`); an `X-Widget-Token` sent along must be of that partner and key (`forbidden_key_mismatch`). No rate-limit headers.",
      body: trackBody,
      codes: {
        missing: { partnerId: "partner_required" },
        invalid: { partnerId: "invalid_partner_id", "": "invalid_payload", apiKeyId: "invalid_payload", event: "invalid_payload", properties: "invalid_payload" },
      },
      response: z.object({ ok: z.literal(true), id: z.number().int() }),
      status: 201,
      errors: { forbidden: 403, not_found: 404, api_key_not_found: 404, forbidden_key_not_owned: 403, forbidden_key_mismatch: 403 },
    },
    async ({ request, body }) => {
      await requireOwnPage(request.headers.get("origin"), request.headers.get("x-analytics-token"));
      const result = await trackEvent(
        { partnerId: body.partnerId, apiKeyId: body.apiKeyId ?? undefined, event: body.event, properties: body.properties },
        request.headers.get("x-widget-token"),
      );
      return json(result, { status: 201 });
    },
  ),
});
export const action = loader;
