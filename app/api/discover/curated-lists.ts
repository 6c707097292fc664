import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { curatedLists } from "~/domains/discover/discover.server";
import { limitParam, publicListCard } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Public lists with the most saves in a recent window (ranking cached up to DISCOVER_CACHE_SECONDS)",
      query: z.object({
        days: z.coerce.number().int().min(1).max(365).default(30).describe("Window in days (1–365)"),
        occasion: z.string().max(100).optional().describe("Only lists of this occasion slug"),
        lang: z.enum(["de", "en"]).optional(),
        limit: limitParam(100, 20),
      }),
      response: z.object({
        days: z.number().int(),
        occasion: z.string().nullable(),
        computed_at: z.string(),
        lists: z.array(publicListCard.extend({ recent_saves: z.number().int() })),
      }),
      example: { query: { days: "30" } },
    },
    ({ query }) => curatedLists({ ...query, occasion: query.occasion?.trim() || undefined }),
    REPLICA_READS,
  ),
});
export const action = loader;
