import { endpoint, json, route } from "~/api/endpoint.server";
import { createState } from "~/domains/widget/signin-bridge.server";

export const loader = endpoint({
  POST: route("none", async () => json(await createState(), { headers: { "Cache-Control": "no-store" } })),
});
export const action = loader;
