import { bearerToken, endpoint, json, route } from "~/api/endpoint.server";
import { initUsageHeaders, initWidget } from "~/domains/widget/init.server";
import { widgetInitSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "apikey",
    {
      summary: "Start the widget on a page: checks the public key and the origin, and mints a widget token",
      description:
        "Body `{origin, public_key?, sid?}`; the public key as `Authorization: Bearer pk_…` or `public_key`. Answers the month's usage in X-Usage-Total, X-Usage-Limit, X-Usage-Remaining.",
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
      return json(result.body, { headers: initUsageHeaders(result.usage) });
    },
  ),
});
export const action = loader;
