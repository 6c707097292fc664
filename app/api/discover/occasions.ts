import { z } from "zod";
import { endpoint, json, REPLICA_READS, route } from "~/api/endpoint.server";
import { occasionCatalogue } from "~/domains/discover/discover.server";
import { occasionQuery } from "./occasion-query";
import { marketOf } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The occasion catalogue with each dated occasion's next date and the count of its public lists",
      query: occasionQuery,
      response: z.object({
        date: z.string(),
        occasions: z.array(
          z.object({
            slug: z.string(),
            title: z.string(),
            titles: z.object({ de: z.string(), en: z.string() }),
            next_date: z.string().nullable().describe("null for personal occasions (birthday, wedding, …)"),
            days_until: z.number().int().nullable(),
            public_list_count: z.number().int(),
          }),
        ),
      }),
      example: { query: { lang: "en" } },
    },
    async ({ query }) =>
      json(await occasionCatalogue({ ...query, market: marketOf(query) }), { headers: { "Cache-Control": "public, max-age=300" } }),
    REPLICA_READS,
  ),
});
export const action = loader;
