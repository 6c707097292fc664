// `DELETE /partner/access-tokens/{id}`: revokes the token at once (401 on its next use); idempotent.
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { revokePersonalAccessToken } from "~/domains/partners/access-tokens.server";
import { accessTokenSchema } from "~/domains/partners/schemas";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  DELETE: route(
    "partner",
    {
      summary: "Revoke one of the partner's personal access tokens (idempotent)",
      params: z.object({ id: z.string().describe("The token's numeric id") }),
      response: z.object({ access_token: accessTokenSchema }),
      errors: { invalid_id: 400, no_partner: 404, token_not_found: 404 },
    },
    async ({ partner, params }) => {
      const partnerId = partnerIdOf(partner);
      return { access_token: await revokePersonalAccessToken(partnerId, parseId(params.id)) };
    },
    LIVE_SESSION,
  ),
});
export const action = loader;
