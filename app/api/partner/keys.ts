// `GET /partner/keys` and `POST /partner/keys` (SPEC section 5 rule 6).
import { endpoint, json, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, createApiKey, listApiKeys } from "~/domains/keys/keys.server";
import { bodyObject, domainList, partnerIdOf } from "./params";

export const loader = endpoint({
  GET: route("partner", async ({ partner }) => ({ keys: (await listApiKeys(partnerIdOf(partner))).map(apiKeyJson) })),
  POST: route("partner", async ({ partner, body }) => {
    const partnerId = partnerIdOf(partner);
    const input = bodyObject(body);
    const key = await createApiKey(partnerId, {
      // createApiKey answers 400 invalid_environment for anything but test / live.
      environment: typeof input.environment === "string" ? input.environment : "",
      allowedDomains: input.allowed_domains === undefined ? [] : domainList(input.allowed_domains),
    });
    // Public keys are not secret: the full value is returned, now and in every listing.
    return json({ key: apiKeyJson(key) }, { status: 201 });
  }, LIVE_SESSION),
});
export const action = loader;
