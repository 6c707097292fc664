import { endpoint, REPLICA_READS, route } from "~/api/endpoint.server";
import { publicListItems } from "~/domains/lists/items.server";
import { localeQuery, productsSchema, tokenParams } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The items of a public list, with their purchased flags",
      description: "Only while the list is public (else 404 `not_found`).",
      params: tokenParams,
      query: localeQuery,
      response: productsSchema,
      errors: { missing_token: 400 },
    },
    ({ params, url }) => publicListItems(params.token, parseLocale(url)),
    REPLICA_READS,
  ),
});
export const action = loader;
