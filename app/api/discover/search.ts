import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { searchProducts } from "~/domains/discover/public-products.server";
import { marketOf, searchQuery, searchResponse } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Search the catalogue's product titles (paginated)",
      description: "Title (in any market, or in `market`) contains `q`, any case; newest first. No `q` is 400 `missing_params`.",
      query: searchQuery,
      codes: { missing: { q: "missing_params" } },
      response: searchResponse,
      example: { query: { q: "mug" } },
    },
    ({ query }) => searchProducts({ ...query, market: marketOf(query) }),
    REPLICA_READS,
  ),
});
export const action = loader;
