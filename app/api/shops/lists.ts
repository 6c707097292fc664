// `GET /shops/{handle}/lists`: the shop's curated lists in the merchant's order.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopLists } from "~/domains/shops/shop-lists.server";
import { handleParams, shopList } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A shop's curated lists (slug, title, featured flag, product count), in the merchant's order",
      params: handleParams,
      response: z.object({ lists: z.array(shopList) }),
      errors: { shop_not_found: 404 },
    },
    ({ params }) => shopLists(params.handle),
  ),
});
export const action = loader;
