// `DELETE /partner/access-tokens/{id}`: revokes the token at once (401 on its next use); idempotent.
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { revokePersonalAccessToken } from "~/domains/partners/access-tokens.server";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  DELETE: route("partner", async ({ partner, params }) => {
    const partnerId = partnerIdOf(partner);
    return { access_token: await revokePersonalAccessToken(partnerId, parseId(params.id)) };
  }, LIVE_SESSION),
});
export const action = loader;
