import { endpoint, json, route } from "~/api/endpoint.server";
import { storeSession } from "~/domains/widget/session-store.server";
import { sessionStoreBody, sessionStoreCodes, sessionStoreSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "Let this partner's widget recognise the shopper on this widget session id (a grant; no tokens are stored)",
      body: sessionStoreBody,
      codes: sessionStoreCodes,
      response: sessionStoreSchema,
      errors: { invalid_access_token: 401, internal_error: 500 },
    },
    async ({ widget, body }) => json(await storeSession(widget, body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
