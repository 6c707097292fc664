// `POST /partner/keys/{id}/rotate`: a new value; the old one works 15 more minutes.
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { apiKeyJson, rotateApiKey } from "~/domains/keys/keys.server";
import { parseId, partnerIdOf } from "./params";

export const loader = endpoint({
  POST: route("partner", async ({ partner, params }) => {
    const partnerId = partnerIdOf(partner);
    const { key, rotated } = await rotateApiKey(partnerId, parseId(params.id));
    return { key: apiKeyJson(key), rotated: apiKeyJson(rotated) };
  }, LIVE_SESSION),
});
export const action = loader;
