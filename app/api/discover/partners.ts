import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { discoverPartners } from "~/domains/discover/discover.server";
import { pageFields, pageQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Partners with at least one active shop: name and shop count (paginated)",
      description: "Name only: no e-mail, no plan.",
      query: pageQuery,
      response: z.object({
        partners: z.array(z.object({ id: z.number().int(), name: z.string(), shop_count: z.number().int() })),
        ...pageFields,
      }),
      example: { query: { limit: "20" } },
    },
    ({ query }) => discoverPartners(query),
    REPLICA_READS,
  ),
});
export const action = loader;
