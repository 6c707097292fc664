import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { verify } from "~/domains/identity/account.server";
import { sessionSchema } from "~/domains/identity/schemas";

export const loader = endpoint({
  POST: route(
    "apikey",
    {
      summary: "Use a one-time e-mail link: password recovery or a new address; returns a session",
      description:
        "Body `{type, token}` with the token of the link's fragment. Each link works once and for one hour (403 `otp_expired` " +
        "otherwise). `recovery`: the session's access token may set a new password with `PUT /auth/user {password}` without the " +
        "current one. `email_change`: the account's address becomes the new one (409 `email_exists` when another account took it meanwhile).",
      body: z.object({
        type: z.enum(["recovery", "email_change"]).describe("What the link is for"),
        token: z.string().min(1).max(200).describe("The token from the link's `#token=` fragment"),
      }),
      response: sessionSchema,
      errors: { otp_expired: 403, email_exists: 409 },
    },
    ({ body }) => verify(body),
  ),
});
export const action = loader;
