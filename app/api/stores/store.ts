import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { storeDetail } from "~/domains/discover/stores.server";
import { domainParams } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A store: its name, product count and categories; unknown → 404 not_found",
      params: domainParams,
      response: z.object({
        store: z.object({
          domain: z.string(),
          name: z.string(),
          product_count: z.number().int(),
          categories: z.array(z.object({ category: z.string(), product_count: z.number().int() })),
          partner_shop: z.boolean().describe("An active merchant shop with the app installed"),
        }),
      }),
      errors: { not_found: 404 },
    },
    ({ params }) => storeDetail(params.domain),
  ),
});
export const action = loader;
