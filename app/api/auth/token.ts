import { endpoint, route } from "~/api/endpoint.server";
import { badRequest } from "~/lib/api/errors";
import { passwordGrant, refreshGrant } from "~/domains/identity/identity.server";

export const loader = endpoint({
  POST: route("apikey", ({ url, body }) => {
    const grant = url.searchParams.get("grant_type");
    if (grant === "password") return passwordGrant(body);
    if (grant === "refresh_token") return refreshGrant(body);
    throw badRequest("unsupported_grant_type", "grant_type must be password or refresh_token");
  }),
});
export const action = loader;
