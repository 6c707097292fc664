// `GET /shops/by-domain/{domain}`: the published shop of a myshopify domain or primary domain.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopPageByDomain } from "~/domains/shops/shop-pages.server";
import { shopPageSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The published shop of a domain (its myshopify domain or primary domain)",
      description: "The domain matches in any case.",
      params: z.object({ domain: z.string().describe("Host, e.g. acme.myshopify.com or shop.acme.com") }),
      response: z.object({ shop: shopPageSchema }),
      errors: { shop_not_found: 404 },
    },
    ({ params }) => shopPageByDomain(params.domain),
  ),
});
export const action = loader;
