import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { clientAddress } from "~/lib/api/client-address";
import { recover } from "~/domains/identity/account.server";

export const loader = endpoint({
  POST: route(
    "apikey",
    {
      summary: "Password recovery: mails a one-time link (valid one hour) to the account's address",
      description:
        "Body `{email, lang?}` (`lang`: `de` or `en`, the e-mail's and the page's language; default `en`). Always answers 200 `{}`: " +
        "nothing tells whether the address has an account, nor whether the e-mail went (none goes to unknown addresses or over the " +
        "daily quota per recipient and client address). The link opens `APP_URL/{lang}/account/reset#token=…`; the page trades the " +
        "token at `POST /auth/verify {type: \"recovery\"}` and sets the password with `PUT /auth/user {password}`.",
      body: z.object({ email: z.string().max(1000).describe("The account's e-mail address"), lang: z.enum(["de", "en"]).optional() }),
      response: z.object({}),
      errors: { invalid_email: 400 },
    },
    ({ body, context }) => recover(body, clientAddress(context)),
  ),
});
export const action = loader;
