// `GET /api-usage/{apiKeyId}` (SPEC 4.6): the key's own counters, with the key as bearer.
import { bearerToken, endpoint, route } from "~/api/endpoint.server";
import { apiKeyUsage } from "~/domains/keys/key-usage.server";
import { parseId } from "./params";

export const loader = endpoint({
  GET: route("apikey", ({ request, params }) => {
    const id = parseId(params.apiKeyId, "invalid_api_key_id");
    const bearer = bearerToken(request);
    return apiKeyUsage(id, bearer?.startsWith("pk_") ? bearer : null);
  }),
});
export const action = loader;
