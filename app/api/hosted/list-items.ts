import { endpoint, route } from "~/api/endpoint.server";
import { listItems } from "~/domains/lists/items.server";
import { listAccessErrors, localeQuery, productsSchema, tokenParams } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The items of a list (owner or editor)",
      description: "Newest first.",
      params: tokenParams,
      query: localeQuery,
      response: productsSchema,
      errors: listAccessErrors,
    },
    ({ user, params, url }) => listItems(params.token, user.userId, parseLocale(url)),
  ),
});
export const action = loader;
