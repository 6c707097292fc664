// `GET /shops/{handle}/lists/{slug}/products`: a curated list and its products in the merchant's order.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopListProducts } from "~/domains/shops/shop-lists.server";
import { listProductsQuery, product, shopList } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A shop's curated list and its products in the merchant's order, paginated",
      params: z.object({ handle: z.string(), slug: z.string() }),
      query: listProductsQuery,
      response: z.object({ list: shopList, products: z.array(product), next_cursor: z.string().nullable() }),
      errors: { shop_not_found: 404, not_found: 404 },
    },
    ({ params, query }) => shopListProducts(params.handle, params.slug, query),
  ),
});
export const action = loader;
