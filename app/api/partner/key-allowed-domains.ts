// `PUT /partner/keys/{id}/allowed-domains`: replaces the allow-list (hosts without scheme, `*.` wildcards).
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, setAllowList } from "~/domains/keys/keys.server";
import { keyIdParams, keyResultSchema } from "~/domains/keys/schemas";
import { bodyObject, domainList, parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  PUT: route(
    "partner",
    {
      summary: "Replace a key's allowed domains (hosts without scheme; `*.` wildcards)",
      description: "Body `{allowed_domains: string[]}`.",
      params: keyIdParams,
      response: keyResultSchema,
      errors: { invalid_id: 400, invalid_domain: 400, no_partner: 404, api_key_not_found: 404 },
    },
    async ({ partner, params, body }) => {
      const partnerId = partnerIdOf(partner);
      const id = parseId(params.id);
      return { key: apiKeyJson(await setAllowList(partnerId, id, domainList(bodyObject(body).allowed_domains))) };
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
