import { endpoint, json, route } from "~/api/endpoint.server";
import { restoreSession } from "~/domains/widget/session-store.server";

export const loader = endpoint({
  POST: route("widget", async ({ widget, body }) =>
    json(await restoreSession(widget, body), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
