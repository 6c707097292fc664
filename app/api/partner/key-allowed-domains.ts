// `PUT /partner/keys/{id}/allowed-domains`: replaces the allow-list (hosts without scheme, `*.` wildcards).
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, setAllowList } from "~/domains/keys/keys.server";
import { bodyObject, domainList, parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  PUT: route("partner", async ({ partner, params, body }) => {
    const partnerId = partnerIdOf(partner);
    const id = parseId(params.id);
    return { key: apiKeyJson(await setAllowList(partnerId, id, domainList(bodyObject(body).allowed_domains))) };
  }, LIVE_SESSION),
});
export const action = loader;
