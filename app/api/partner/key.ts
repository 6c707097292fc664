// `GET /partner/keys/{id}` and `DELETE /partner/keys/{id}` (only revoked or never used keys).
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, deleteApiKey, getPartnerApiKey } from "~/domains/keys/keys.server";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  GET: route("partner", async ({ partner, params }) => {
    const partnerId = partnerIdOf(partner);
    return { key: apiKeyJson(await getPartnerApiKey(partnerId, parseId(params.id))) };
  }),
  DELETE: route("partner", ({ partner, params }) => {
    const partnerId = partnerIdOf(partner);
    return deleteApiKey(partnerId, parseId(params.id));
  }, LIVE_SESSION),
});
export const action = loader;
