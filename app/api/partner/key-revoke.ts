// `POST /partner/keys/{id}/revoke`: unusable immediately; idempotent.
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, revokeApiKey } from "~/domains/keys/keys.server";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  POST: route("partner", async ({ partner, params }) => {
    const partnerId = partnerIdOf(partner);
    return { key: apiKeyJson(await revokeApiKey(partnerId, parseId(params.id))) };
  }, LIVE_SESSION),
});
export const action = loader;
