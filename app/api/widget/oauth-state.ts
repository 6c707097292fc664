import { endpoint, json, route } from "~/api/endpoint.server";
import { createState } from "~/domains/widget/signin-bridge.server";
import { oauthStateSchema } from "~/domains/widget/schemas";

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Sign-in bridge: create a one-time state (valid 10 minutes)",
      response: oauthStateSchema,
      errors: { internal_error: 500 },
    },
    async () => json(await createState(), { headers: { "Cache-Control": "no-store" } }),
  ),
});
export const action = loader;
