// `GET /partner/keys/{id}` and `DELETE /partner/keys/{id}` (only revoked or never used keys).
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, deleteApiKey, getPartnerApiKey } from "~/domains/keys/keys.server";
import { keyIdParams, keyResultSchema } from "~/domains/keys/schemas";
import { parseId, partnerIdOf } from "./params";

const keyErrors = { invalid_id: 400, no_partner: 404, api_key_not_found: 404 } as const;

export const loader = endpoint({
  GET: route(
    "partner",
    { summary: "One of the partner's keys", params: keyIdParams, response: keyResultSchema, errors: keyErrors },
    async ({ partner, params }) => {
      const partnerId = partnerIdOf(partner);
      return { key: apiKeyJson(await getPartnerApiKey(partnerId, parseId(params.id))) };
    },
  ),
  DELETE: route(
    "partner",
    {
      summary: "Delete a key that is revoked or was never used (409 key_in_use otherwise)",
      params: keyIdParams,
      response: z.object({ ok: z.literal(true), deleted: z.number().int() }),
      errors: { ...keyErrors, key_in_use: 409 },
    },
    ({ partner, params }) => {
      const partnerId = partnerIdOf(partner);
      return deleteApiKey(partnerId, parseId(params.id));
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
