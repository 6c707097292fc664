// `GET /api-usage/{apiKeyId}` (SPEC 4.6): the key's own counters, with the key as bearer.
import { z } from "zod";
import { bearerToken, endpoint, route } from "~/api/endpoint.server";
import { apiKeyUsage } from "~/domains/keys/key-usage.server";
import { apiKeyUsageSchema } from "~/domains/keys/schemas";
import { parseId } from "./params";

export const loader = endpoint({
  GET: route(
    "apikey",
    {
      publicKey: true,
      summary: "A public key's request counters and the plan limits behind its rate-limit headers",
      description: "Authorization: `Bearer pk_…` with the key's own value.",
      params: z.object({ apiKeyId: z.string().describe("The key's numeric id") }),
      response: apiKeyUsageSchema,
      errors: { invalid_api_key_id: 400, api_key_not_found: 404, plan_limits_not_found: 500 },
    },
    ({ request, params }) => {
      const id = parseId(params.apiKeyId, "invalid_api_key_id");
      const bearer = bearerToken(request);
      return apiKeyUsage(id, bearer?.startsWith("pk_") ? bearer : null);
    },
  ),
});
export const action = loader;
