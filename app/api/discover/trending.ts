import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { trending } from "~/domains/discover/discover.server";
import { limitParam, marketOf, marketParam, rankedProduct } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Most saved products of a recent window (ranking cached up to DISCOVER_CACHE_SECONDS)",
      description: "Most saves first (ties: newer product first); with `market`, only products the catalogue holds in that market. A save is a list item added in the window, counted once per list.",
      query: z.object({
        days: z.coerce.number().int().min(1).max(30).default(7).describe("Window in days (1–30)"),
        market: marketParam,
        limit: limitParam(100, 20),
      }),
      response: z.object({
        days: z.number().int(),
        market: z.string().nullable(),
        computed_at: z.string().describe("When the ranking was computed"),
        products: z.array(rankedProduct),
      }),
      example: { query: { days: "7", limit: "10" } },
    },
    ({ query }) => trending({ days: query.days, market: marketOf(query), limit: query.limit }),
    REPLICA_READS,
  ),
});
export const action = loader;
