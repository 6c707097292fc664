import { bearerToken, endpoint, json, route } from "~/api/endpoint.server";
import { initWidget } from "~/domains/widget/init.server";
import { pageState } from "~/flows/widget-page-state.server";
import { widgetInitSchema } from "~/domains/widget/schemas";
import { objectBody, lenientString } from "~/lib/api/schemas";
import { z } from "zod";

// An origin that is absent, blank or no string is 400 invalid_input; a public_key or sid that is no string is ignored.
const initBody = objectBody(
  z.object({
    origin: z.string().trim().min(1).describe("The embedding page's origin, e.g. https://shop.example.com"),
    public_key: lenientString().describe("The public key, when not sent as Authorization: Bearer pk_…"),
    sid: lenientString().describe("The widget session id to keep (16 to 64 of [A-Za-z0-9_-])"),
    saved: z
      .preprocess((v) => v === true || undefined, z.literal(true).optional())
      .describe("true: the answer also carries `session` and `saved`, the page's saved state (a shop page's hearts in one request)"),
  }),
);

export const loader = endpoint({
  POST: route(
    "apikey",
    {
      publicKey: true,
      summary: "Start the widget on a page: checks the public key and the origin, and mints a widget token",
      description:
        "The public key as `Authorization: Bearer pk_…` or `public_key`. Answers the month's usage in X-Usage-Total, X-Usage-Limit, X-Usage-Remaining (`unlimited` on Enterprise). " +
        "The answer carries `sid`, the widget session id: pass your own stable one to keep stored sessions. " +
        "Checks in this order: 400 `invalid_input`; 403 `unknown_key` (missing, revoked, or rotated past its grace); `allowlist_required` (with `hint`); `origin_not_allowed`; `subscription_required` (with `trial_expired: true`).",
      body: initBody,
      response: widgetInitSchema,
      errors: {
        unknown_key: 403,
        origin_not_allowed: 403,
        allowlist_required: 403,
        subscription_required: 403,
        plan_limits_not_found: 500,
      },
    },
    async ({ request, body, meterKey }) => {
      const bearer = bearerToken(request);
      const result = await initWidget({ publicKey: bearer?.startsWith("pk_") ? bearer : null, body });
      meterKey(result.apiKey);
      // Only a sid the page already had can have a grant: a new one answers nothing saved without a read.
      if (body.saved) {
        const state = body.sid === result.body.sid ? await pageState(result.body.partner_id, new URL(body.origin).origin, body.sid) : { session: null, saved: [] };
        return json({ ...result.body, ...state }, { headers: { ...initUsageHeaders(result.usage), "Cache-Control": "no-store" } });
      }
      return json(result.body, { headers: initUsageHeaders(result.usage) });
    },
  ),
});
export const action = loader;

/** `X-Usage-*` headers of the init response (SPEC 8.2 rule 5); "unlimited" where the plan has no limit. */
function initUsageHeaders(usage: { total: number; limit: number | null }): Record<string, string> {
  return {
    "X-Usage-Total": String(usage.total),
    "X-Usage-Limit": usage.limit === null ? "unlimited" : String(usage.limit),
    "X-Usage-Remaining": usage.limit === null ? "unlimited" : String(Math.max(0, usage.limit - usage.total)),
  };
}
