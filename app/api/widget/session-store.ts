import { endpoint, json, route } from "~/api/endpoint.server";
import { storeSession } from "~/domains/widget/session-store.server";
import { sessionStoreBody, sessionStoreCodes, sessionStoreSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "Let this partner's widget recognise the shopper on this widget session id (a grant; no tokens are stored)",
      description: "Body `{access_token, refresh_token?, sid}` with the `sid` init returned. Allowed after a save through this partner or a sign-in within the last 15 minutes (else 403 `forbidden`); a `refresh_token`, if sent, must be of the same sign-in session (else 400 `invalid_session`).",
      body: sessionStoreBody,
      codes: sessionStoreCodes,
      response: sessionStoreSchema,
      errors: { invalid_access_token: 401, internal_error: 500 },
    },
    async ({ widget, body }) => json(await storeSession(widget, body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
