import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { discoverShops } from "~/domains/discover/discover.server";
import { pageFields, pageQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Merchant shops with the app installed (paginated)",
      query: pageQuery,
      response: z.object({
        shops: z.array(z.object({ name: z.string(), domain: z.string().describe("The shop's public domain"), url: z.string() })),
        ...pageFields,
      }),
      example: { query: { limit: "20" } },
    },
    ({ query }) => discoverShops(query),
  ),
});
export const action = loader;
