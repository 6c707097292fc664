import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { storeProducts } from "~/domains/discover/stores.server";
import { limitParam, marketOf, marketParam, offsetParam, pageFields, productCard } from "~/api/discover/schemas";
import { categoryParam, domainParams } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A store's products, newest first (paginated); unknown store → 404 not_found",
      params: domainParams,
      query: z.object({ category: categoryParam, market: marketParam, limit: limitParam(100, 20), offset: offsetParam }),
      response: z.object({ domain: z.string(), category: z.string().nullable(), products: z.array(productCard), ...pageFields }),
      errors: { not_found: 404 },
    },
    ({ params, query }) =>
      storeProducts(params.domain, { ...query, category: query.category?.trim() || undefined, market: marketOf(query) }),
  ),
});
export const action = loader;
