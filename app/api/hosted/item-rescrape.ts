import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { rescrapeItem } from "~/domains/lists/rescrape.server";
import { hostedProductSchema, itemAccessErrors, itemParams, localeQuery } from "~/domains/lists/schemas";
import { scrapeResultSchema } from "~/domains/products/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Read the item's product page again and refresh its facts (owner or editor)",
      params: itemParams,
      query: localeQuery,
      response: z.object({
        ok: z.boolean().describe("Whether the page could be read"),
        result: scrapeResultSchema,
        item: hostedProductSchema,
      }),
      errors: { ...itemAccessErrors, manual_product: 400, no_canonical_url: 400, internal_error: 500 },
    },
    ({ user, params, url }) => rescrapeItem(params.token, params.itemId, user.userId, parseLocale(url)),
  ),
});
export const action = loader;
