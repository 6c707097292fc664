import { endpoint, json, route } from "~/api/endpoint.server";
import { completeState } from "~/domains/widget/signin-bridge.server";

export const loader = endpoint({
  POST: route("none", async ({ body }) => json(await completeState(body), { headers: { "Cache-Control": "no-store" } })),
});
export const action = loader;
