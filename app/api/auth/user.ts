import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { unauthorized } from "~/lib/api/errors";
import { clientAddress } from "~/lib/api/client-address";
import { currentUser } from "~/domains/identity/identity.server";
import { updateUser } from "~/domains/identity/account.server";
import { authUserSchema } from "~/domains/identity/schemas";
import { DISPLAY_NAME_MAX } from "~/domains/identity/display-name";
import { THROTTLE_DESCRIPTION } from "~/domains/identity/sign-in-throttle.server";

export const loader = endpoint({
  GET: route(
    "user",
    { summary: "The user behind the token, while its session lasts", response: authUserSchema },
    async ({ user }) => {
      const found = await currentUser(user);
      if (!found) throw unauthorized("Session has ended");
      return found;
    },
  ),
  PUT: route(
    "user",
    {
      summary: "Change the password, the e-mail address or the display name",
      description:
        "Any of: `password` (every other sign-in session of the account ends, with its cookies and refresh tokens), `email` (a " +
        "confirmation link goes to the new address, valid one hour; the address changes when it is opened at " +
        "`POST /auth/verify {type: \"email_change\"}`; the answer names it " +
        `in \`new_email\`), \`data.display_name\` (trimmed, at most ${DISPLAY_NAME_MAX} characters, no control characters; empty or null ` +
        "removes it). A new password or address needs `current_password` unless the token's session came from a recovery link. " +
        "`lang` (`de`/`en`) is the confirmation e-mail's language. Guests (anonymous users) may set a display name only. " +
        "A wrong `current_password` counts as a failed sign-in: " +
        THROTTLE_DESCRIPTION,
      body: z.object({
        password: z.string().optional().describe("The new password"),
        current_password: z.string().optional().describe("Required with `password` or `email` unless the session came from a recovery link"),
        email: z.string().max(1000).optional().describe("The new address"),
        data: z.object({ display_name: z.string().max(1000).nullable().optional() }).optional(),
        lang: z.enum(["de", "en"]).optional(),
      }),
      response: authUserSchema,
      errors: {
        invalid_email: 400,
        invalid_display_name: 400,
        current_password_required: 400,
        invalid_credentials: 400,
        account_required: 403,
        weak_password: 422,
        email_exists: 422,
        too_many_requests: 429,
        over_request_rate_limit: 429,
      },
    },
    ({ user, body, context }) => updateUser(user, body, clientAddress(context)),
  ),
});
export const action = loader;
