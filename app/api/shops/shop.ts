// `GET /shops/{handle}`: a published shop's page data (SPEC 4.8 Shops).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopPage } from "~/domains/shops/shop-pages.server";
import { handleParams, shopPageSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A published shop's page: name, description, page URL and follower count",
      params: handleParams,
      response: z.object({ shop: shopPageSchema }),
      errors: { shop_not_found: 404 },
    },
    ({ params }) => shopPage(params.handle),
  ),
});
export const action = loader;
