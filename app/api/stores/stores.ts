import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listStores } from "~/domains/discover/stores.server";
import { limitParam, offsetParam, pageFields } from "~/api/discover/schemas";
import { categoryParam } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Retailer stores known to the catalogue (products grouped by domain), most products first (paginated)",
      query: z.object({ category: categoryParam, limit: limitParam(100, 20), offset: offsetParam }),
      response: z.object({
        stores: z.array(z.object({ domain: z.string(), name: z.string(), product_count: z.number().int() })),
        category: z.string().nullable(),
        ...pageFields,
      }),
      example: { query: { limit: "20" } },
    },
    ({ query }) => listStores({ ...query, category: query.category?.trim() || undefined }),
  ),
});
export const action = loader;
