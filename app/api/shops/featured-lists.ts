// `GET /shops/{handle}/featured-lists`: featured curated lists with their first products.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { FEATURED_PREVIEW, shopFeaturedLists } from "~/domains/shops/shop-lists.server";
import { handleParams, localeQuery, product, shopList } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: `A shop's featured curated lists, each with its first ${FEATURED_PREVIEW} products`,
      params: handleParams,
      query: localeQuery,
      response: z.object({ lists: z.array(shopList.extend({ products: z.array(product) })) }),
      errors: { shop_not_found: 404 },
    },
    ({ params, query }) => shopFeaturedLists(params.handle, query),
  ),
});
export const action = loader;
