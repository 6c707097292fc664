import { bearerToken, endpoint, json, route } from "~/api/endpoint.server";
import { initUsageHeaders, initWidget } from "~/domains/widget/init.server";

export const loader = endpoint({
  POST: route("apikey", async ({ request, body, meterKey }) => {
    const bearer = bearerToken(request);
    const result = await initWidget({ publicKey: bearer?.startsWith("pk_") ? bearer : null, body });
    meterKey(result.apiKey);
    return json(result.body, { headers: initUsageHeaders(result.usage) });
  }),
});
export const action = loader;
