import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { storeSession, withdrawConsent } from "~/domains/widget/session-store.server";
import { sessionStoreBody, sessionStoreCodes, sessionStoreSchema } from "~/domains/widget/schemas";

const noStore = { headers: { "Cache-Control": "no-store" } };

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "Let this partner's widget recognise the shopper on this widget session id (a grant; no tokens are stored)",
      description:
        "Body `{access_token, refresh_token?, sid}` with the `sid` of the widget token (else 403 `forbidden`). Called by the save dialog after the shopper saved there or chose to stay signed in there: records their consent for this shop (`new_shop` is true the first time). Allowed after a save through this partner or a sign-in within the last 15 minutes (else 403 `forbidden`); a `refresh_token`, if sent, must be of the same sign-in session (else 400 `invalid_session`).",
      body: sessionStoreBody,
      codes: sessionStoreCodes,
      response: sessionStoreSchema,
      errors: { invalid_access_token: 401, internal_error: 500 },
    },
    async ({ widget, body }) => json(await storeSession(widget, body), noStore),
  ),
  DELETE: route(
    "widget+user",
    {
      summary: "\"Not on this shop\": this partner no longer recognises the signed-in shopper",
      description: "With the shopper's account access token (not a shopper credential): ends the consent for this partner, the page's grant and every shopper credential of the pair.",
      response: z.object({ ok: z.literal(true) }),
      errors: { internal_error: 500 },
    },
    async ({ widget, user }) => json(await withdrawConsent(widget, user.userId), noStore),
  ),
});
export const action = loader;
