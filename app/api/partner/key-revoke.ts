// `POST /partner/keys/{id}/revoke`: unusable immediately; idempotent.
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, revokeApiKey } from "~/domains/keys/keys.server";
import { keyIdParams, keyResultSchema } from "~/domains/keys/schemas";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  POST: route(
    "partner",
    {
      summary: "Revoke a key: unusable at once, its widget tokens too (idempotent)",
      params: keyIdParams,
      response: keyResultSchema,
      errors: { invalid_id: 400, no_partner: 404, api_key_not_found: 404 },
    },
    async ({ partner, params }) => {
      const partnerId = partnerIdOf(partner);
      return { key: apiKeyJson(await revokeApiKey(partnerId, parseId(params.id))) };
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
