import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { occasions } from "~/domains/lists/lists.server";
import { localeQuery, occasionSchema } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The occasions a list can have, with localized titles",
      query: localeQuery,
      response: z.object({ occasions: z.array(occasionSchema) }),
      example: { query: { lang: "de" } },
    },
    async ({ url }) => json(await occasions(parseLocale(url)), { headers: { "Cache-Control": "public, max-age=3600" } }),
  ),
});
export const action = loader;
