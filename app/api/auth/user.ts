import { endpoint, route } from "~/api/endpoint.server";
import { unauthorized } from "~/lib/api/errors";
import { currentUser } from "~/domains/identity/identity.server";
import { authUserSchema } from "~/domains/identity/schemas";

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
});
export const action = loader;
