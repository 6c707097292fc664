import { endpoint, json, route } from "~/api/endpoint.server";
import { restoreSession } from "~/domains/widget/session-store.server";
import { sessionRestoreBody, sessionRestoreCodes, sessionRestoreSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "A fresh partner-scoped shopper credential for the widget session id (null when none)",
      description: "Body `{sid}` (400 `missing_sid` without it). Mints the credential from the grant `POST /widget/session-store` recorded, without a refresh token and without rotating anything.",
      body: sessionRestoreBody,
      codes: sessionRestoreCodes,
      response: sessionRestoreSchema,
      errors: { internal_error: 500 },
    },
    async ({ widget, body }) => json(await restoreSession(widget, body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
