// `GET /shops/{handle}/categories`: the product types of the shop's products with counts.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopCategories } from "~/domains/shops/shop-products.server";
import { handleParams } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A shop's categories: its products' types with how many products each has, most first",
      params: handleParams,
      response: z.object({ categories: z.array(z.object({ name: z.string(), product_count: z.number().int() })) }),
      errors: { shop_not_found: 404 },
    },
    ({ params }) => shopCategories(params.handle),
  ),
});
export const action = loader;
