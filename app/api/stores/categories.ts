import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { storeCategories } from "~/domains/discover/stores.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Categories (product types) across stores, with product and store counts",
      response: z.object({
        categories: z.array(z.object({ category: z.string(), product_count: z.number().int(), store_count: z.number().int() })),
      }),
      example: {},
    },
    () => storeCategories(),
  ),
});
export const action = loader;
