// `POST /partner/keys/{id}/rotate`: a new value; the old one works 15 more minutes.
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, rotateApiKey } from "~/domains/keys/keys.server";
import { apiKeySchema, keyIdParams } from "~/domains/keys/schemas";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  POST: route(
    "partner",
    {
      summary: "Rotate an active key: a new value; the old one works 15 more minutes",
      description: "The allowed domains are copied to the new key.",
      params: keyIdParams,
      response: z.object({ key: apiKeySchema.describe("The new key"), rotated: apiKeySchema.describe("The old key, now rotated") }),
      errors: { invalid_id: 400, no_partner: 404, api_key_not_found: 404, key_not_active: 409 },
    },
    async ({ partner, params }) => {
      const partnerId = partnerIdOf(partner);
      const { key, rotated } = await rotateApiKey(partnerId, parseId(params.id));
      return { key: apiKeyJson(key), rotated: apiKeyJson(rotated) };
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
