import { endpoint, json, route } from "~/api/endpoint.server";
import { getSigningKey } from "~/domains/identity/jwt.server";
import { jwksSchema } from "~/domains/identity/schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The public keys that verify the service's user tokens (JWKS)",
      response: jwksSchema,
      example: {},
    },
    async () => json({ keys: [(await getSigningKey()).publicJwk] }, { headers: { "Cache-Control": "public, max-age=300" } }),
  ),
});
export const action = loader;
