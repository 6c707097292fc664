// `GET /shops/{handle}/trending`: the shop's products saved most in the last 7 days.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopTrending, TRENDING_DAYS } from "~/domains/shops/shop-products.server";
import { handleParams, product, trendingQuery } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: `A shop's products saved to wishlists most in the last ${TRENDING_DAYS} days, with their save counts`,
      params: handleParams,
      query: trendingQuery,
      response: z.object({ window_days: z.number().int(), products: z.array(product.extend({ saves: z.number().int() })) }),
      errors: { shop_not_found: 404 },
    },
    ({ params, query }) => shopTrending(params.handle, query),
  ),
});
export const action = loader;
