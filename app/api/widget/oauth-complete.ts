import { endpoint, json, route } from "~/api/endpoint.server";
import { completeState } from "~/domains/widget/signin-bridge.server";
import { okSchema } from "~/domains/lists/schemas";
import { oauthCompleteBody, oauthCompleteCodes } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Sign-in bridge: store the session for a state, once",
      description: "The session's access token must be a valid user token (400 `invalid_session_data` otherwise).",
      body: oauthCompleteBody,
      codes: oauthCompleteCodes,
      response: okSchema,
      errors: { invalid_or_expired_state: 400, invalid_session_data: 400, internal_error: 500 },
    },
    async ({ body }) => json(await completeState(body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
