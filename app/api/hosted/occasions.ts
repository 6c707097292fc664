import { endpoint, json, route } from "~/api/endpoint.server";
import { occasions } from "~/domains/lists/lists.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  GET: route("none", async ({ url }) =>
    json(await occasions(parseLocale(url)), { headers: { "Cache-Control": "public, max-age=3600" } }),
  ),
});
export const action = loader;
