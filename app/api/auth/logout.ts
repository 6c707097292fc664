import { endpoint, route } from "~/api/endpoint.server";
import { logout } from "~/domains/identity/identity.server";

export const loader = endpoint({
  POST: route("user", async ({ user, url }) => {
    await logout(user, url.searchParams.get("scope"));
    return new Response(null, { status: 204 });
  }),
});
export const action = loader;
