// `GET /partner/keys` and `POST /partner/keys` (SPEC section 5 rule 6).
import { z } from "zod";
import { endpoint, json, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, createApiKey, listApiKeys } from "~/domains/keys/keys.server";
import { apiKeySchema, keyResultSchema } from "~/domains/keys/schemas";
import { bodyObject, domainList, partnerIdOf } from "./params";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "The partner's public keys",
      response: z.object({ keys: z.array(apiKeySchema) }),
      errors: { no_partner: 404, partner_not_found: 404 },
    },
    async ({ partner }) => ({ keys: (await listApiKeys(partnerIdOf(partner))).map(apiKeyJson) }),
  ),
  POST: route(
    "partner",
    {
      summary: "Create a public key (test or live) with its allowed domains",
      description: "Body `{environment: \"test\" | \"live\", allowed_domains?: string[]}`; `prod` is read as `live`. Live keys are `pk_live_…`.",
      status: 201,
      response: keyResultSchema,
      errors: { invalid_environment: 400, invalid_domain: 400, no_partner: 404, partner_not_found: 404 },
    },
    async ({ partner, body }) => {
      const partnerId = partnerIdOf(partner);
      const input = bodyObject(body);
      const key = await createApiKey(partnerId, {
        // createApiKey answers 400 invalid_environment for anything but test / live.
        environment: typeof input.environment === "string" ? input.environment : "",
        allowedDomains: input.allowed_domains === undefined ? [] : domainList(input.allowed_domains),
      });
      // Public keys are not secret: the full value is returned, now and in every listing.
      return json({ key: apiKeyJson(key) }, { status: 201 });
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
