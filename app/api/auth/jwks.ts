import { endpoint, json, route } from "~/api/endpoint.server";
import { getSigningKey } from "~/domains/identity/jwt.server";

export const loader = endpoint({
  GET: route("none", async () =>
    json({ keys: [(await getSigningKey()).publicJwk] }, { headers: { "Cache-Control": "public, max-age=300" } }),
  ),
});
export const action = loader;
