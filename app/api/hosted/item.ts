import { endpoint, route } from "~/api/endpoint.server";
import { deleteItem, updateItem } from "~/domains/lists/items.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  PUT: route("user", ({ user, params, body, url }) => updateItem(params.token, params.itemId, user.userId, body, parseLocale(url))),
  DELETE: route("user", ({ user, params }) => deleteItem(params.token, params.itemId, user.userId)),
});
export const action = loader;
