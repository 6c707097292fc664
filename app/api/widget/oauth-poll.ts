import { endpoint, json, route } from "~/api/endpoint.server";
import { pollState } from "~/domains/widget/signin-bridge.server";
import { oauthPollBody, oauthPollCodes, oauthPollSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Sign-in bridge: pending, or the stored session (read once)",
      body: oauthPollBody,
      codes: oauthPollCodes,
      response: oauthPollSchema,
      errors: { invalid_or_expired_state: 400, internal_error: 500 },
    },
    async ({ body }) => json(await pollState(body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
