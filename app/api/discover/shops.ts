import { z } from "zod";
import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { discoverShops } from "~/domains/discover/discover.server";
import { pageFields, pageQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Published shop pages of installed shops (paginated)",
      description: "`domain`/`url` is the shop's own site (primary domain, else the shop domain), `page_url` its page on this service.",
      query: pageQuery,
      response: z.object({
        shops: z.array(
          z.object({
            handle: z.string(),
            name: z.string(),
            domain: z.string().describe("The shop's public domain"),
            url: z.string().describe("The shop's own site"),
            page_url: z.string().describe("The shop's page on this service (/shops/{handle})"),
          }),
        ),
        ...pageFields,
      }),
      example: { query: { limit: "20" } },
    },
    ({ query }) => discoverShops(query),
    REPLICA_READS,
  ),
});
export const action = loader;
