import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { productDetail } from "~/domains/discover/public-products.server";
import { marketOf, productDetailResponse, productIdParams, productQuery } from "./schemas";

export const productRoute = route(
  "none",
  {
    summary: "A catalogue product with its facts per market and its save count",
    params: productIdParams,
    query: productQuery,
    response: productDetailResponse,
    errors: { invalid_product_id: 400, product_not_found: 404 },
  },
  ({ params, query }) => productDetail(params.productId, marketOf(query)),
  REPLICA_READS,
);

export const loader = endpoint({ GET: productRoute });
export const action = loader;
