// `GET /shops/{handle}/products`: the shop's products, newest first, paginated.
import { endpoint, route } from "~/api/endpoint.server";
import { shopProducts } from "~/domains/shops/shop-products.server";
import { handleParams, productPage, productsQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A shop's products, newest first; `category` filters by product type; `limit` and `cursor` page",
      description: "Facts in the asked `market`, else the market-less entry.",
      params: handleParams,
      query: productsQuery,
      response: productPage,
      errors: { shop_not_found: 404 },
    },
    ({ params, query }) => shopProducts(params.handle, query),
  ),
});
export const action = loader;
