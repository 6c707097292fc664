import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { seasonal } from "~/domains/discover/discover.server";
import { occasionQuery } from "./occasion-query";
import { limitParam, marketOf, publicListCard, rankedProduct } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Upcoming dated occasions, soonest first, with their most saved products and public lists",
      query: occasionQuery.extend({
        days: z.coerce.number().int().min(1).max(366).default(60).describe("Horizon in days"),
        limit: limitParam(24, 6).describe("Products and lists per occasion"),
      }),
      response: z.object({
        date: z.string(),
        days: z.number().int(),
        occasions: z.array(
          z.object({
            slug: z.string(),
            title: z.string(),
            date: z.string(),
            days_until: z.number().int(),
            products: z.array(rankedProduct.describe("saves: saves in public lists of the occasion")),
            lists: z.array(publicListCard),
          }),
        ),
      }),
      example: { query: { days: "60" } },
    },
    ({ query }) => seasonal({ ...query, market: marketOf(query) }),
    REPLICA_READS,
  ),
});
export const action = loader;
