import { endpoint, json, route } from "~/api/endpoint.server";
import { storeSession } from "~/domains/widget/session-store.server";
import { sessionStoreSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "widget",
    {
      summary: "Keep the user's session for the widget session id (encrypted, per partner)",
      description: "Body `{sid, access_token, refresh_token}`.",
      response: sessionStoreSchema,
      errors: { missing_sid: 400, invalid_session: 400, invalid_access_token: 401, internal_error: 500 },
    },
    async ({ widget, body }) => json(await storeSession(widget, body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
