// `GET /shops/{handle}/search?q=`: the shop's products matching words, paginated.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { searchShopProducts } from "~/domains/shops/shop-products.server";
import { handleParams, productPage, searchQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Searches a shop's products (title, brand, type; any case), newest first, paginated; `q` required",
      params: handleParams,
      query: searchQuery,
      codes: { missing: { q: "missing_params" } },
      response: productPage.extend({ q: z.string() }),
      errors: { shop_not_found: 404 },
    },
    ({ params, query }) => searchShopProducts(params.handle, query),
  ),
});
export const action = loader;
