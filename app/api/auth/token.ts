import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { clientAddress } from "~/lib/api/client-address";
import { passwordGrant, refreshGrant } from "~/domains/identity/identity.server";
import { sessionSchema } from "~/domains/identity/schemas";
import { THROTTLE_DESCRIPTION } from "~/domains/identity/sign-in-throttle.server";

export const loader = endpoint({
  POST: route(
    "apikey",
    {
      summary: "Sign in: `grant_type=password` with e-mail and password, or `grant_type=refresh_token` (each refresh token works once)",
      description:
        "Body `{email, password}` or `{refresh_token}`. Presenting an exchanged refresh token again revokes its whole session (400 `refresh_token_already_used`). " +
        THROTTLE_DESCRIPTION,
      query: z.object({ grant_type: z.string().optional().describe("password or refresh_token") }),
      response: sessionSchema,
      errors: { unsupported_grant_type: 400, invalid_credentials: 400, refresh_token_not_found: 400, refresh_token_already_used: 400, over_request_rate_limit: 429 },
    },
    ({ query, body, context }) => {
      const grant = query.grant_type;
      if (grant === "password") return passwordGrant(body, clientAddress(context));
      if (grant === "refresh_token") return refreshGrant(body);
      throw badRequest("unsupported_grant_type", "grant_type must be password or refresh_token");
    },
  ),
});
export const action = loader;
