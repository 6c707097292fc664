import { endpoint, route } from "~/api/endpoint.server";
import { deleteItem, updateItem } from "~/domains/lists/items.server";
import { deletedIdSchema, itemAccessErrors, itemParams, itemResultSchema, localeQuery } from "~/domains/lists/schemas";
import { parseLocale } from "~/api/locale.server";

export const loader = endpoint({
  PUT: route(
    "user",
    {
      summary: "Update an item: price override, purchased flag, priority (owner or editor)",
      description: "Body: any of `price_override_minor` (null removes the override), `currency_override`, `purchased`, `priority` (1–4); none of them is 400 `nothing_to_update`.",
      params: itemParams,
      query: localeQuery,
      response: itemResultSchema,
      errors: { ...itemAccessErrors, invalid_priority: 400, nothing_to_update: 400, override_delete_failed: 400, update_failed: 500 },
    },
    ({ user, params, body, url }) => updateItem(params.token, params.itemId, user.userId, body, parseLocale(url)),
  ),
  DELETE: route(
    "user",
    {
      summary: "Remove an item; a manual product goes with its last item (owner or editor)",
      params: itemParams,
      response: deletedIdSchema,
      errors: { ...itemAccessErrors, item_delete_failed: 400, item_not_deleted: 500 },
    },
    ({ user, params }) => deleteItem(params.token, params.itemId, user.userId),
  ),
});
export const action = loader;
