import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { logout } from "~/domains/identity/identity.server";

// GoTrue's scopes; absent or empty means global. Anything else is 400 invalid_input.
const query = z.object({ scope: z.enum(["global", "local", "others", ""]).optional() });

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "End the user's sign-in sessions: all (global), this one (local) or the others",
      description: "`scope` defaults to `global`, as in GoTrue. Answers 204 without a body.",
      query,
      status: 204,
    },
    async ({ user, query }) => {
      await logout(user, query.scope || null);
      return new Response(null, { status: 204 });
    },
  ),
});
export const action = loader;
