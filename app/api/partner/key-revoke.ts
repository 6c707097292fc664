// `POST /partner/keys/{id}/revoke`: unusable immediately; idempotent.
import { endpoint, route } from "~/lib/api/endpoint.server";
import { apiKeyJson, revokeApiKey } from "~/domains/keys/keys.server";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  POST: route("partner", async ({ partner, params }) => {
    const partnerId = partnerIdOf(partner);
    return { key: apiKeyJson(await revokeApiKey(partnerId, parseId(params.id))) };
  }),
});
export const action = loader;
