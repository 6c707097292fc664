// `POST /analytics/track` (SPEC 7.4): events from the service's own pages only; no rate-limit headers (SPEC 8.3).
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { trackEvent } from "~/domains/analytics/analytics.server";
import { saverAddress } from "~/domains/metering/actions.server";
import { clientAddress } from "~/lib/api/client-address";

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
        "Accepted only from `Origin` APP_URL's origin or one listed in ANALYTICS_ALLOWED_ORIGINS, with the partner's credential the page holds: " +
        "`X-Analytics-Token`, the token a page of that partner's context carries (`<meta name=\"wish-analytics-token\">`), or the partner's `X-Widget-Token` (else 403 `forbidden`). " +
        "A credential of another partner, or a widget token of another key than `apiKeyId`, is 403 `forbidden_key_mismatch`; `apiKeyId` must belong to `partnerId` (`forbidden_key_not_owned`). " +
        "Each client address records at most ANALYTICS_EVENTS_PER_MINUTE events a minute and ANALYTICS_EVENTS_PER_DAY a day; beyond them the event is answered `{ok: true, id: 0, dropped: true}` and not recorded. No rate-limit headers.",
      body: trackBody,
      codes: {
        missing: { partnerId: "partner_required" },
        invalid: { partnerId: "invalid_partner_id", "": "invalid_payload", apiKeyId: "invalid_payload", event: "invalid_payload", properties: "invalid_payload" },
      },
      response: z.object({
        ok: z.literal(true),
        id: z.number().int().describe("The event's id; 0 when it was dropped"),
        dropped: z.literal(true).optional().describe("Present when the client's per-minute or per-day bound was reached: the event was not recorded"),
      }),
      status: 201,
      errors: { forbidden: 403, not_found: 404, api_key_not_found: 404, forbidden_key_not_owned: 403, forbidden_key_mismatch: 403 },
    },
    async ({ request, body, context }) => {
      const result = await trackEvent(
        { partnerId: body.partnerId, apiKeyId: body.apiKeyId ?? undefined, event: body.event, properties: body.properties },
        {
          origin: request.headers.get("origin"),
          pageToken: request.headers.get("x-analytics-token"),
          widgetToken: request.headers.get("x-widget-token"),
          address: saverAddress(clientAddress(context)),
        },
      );
      return json(result, { status: 201 });
    },
  ),
});
export const action = loader;
