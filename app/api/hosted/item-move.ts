import { endpoint, route } from "~/api/endpoint.server";
import { moveItem } from "~/domains/lists/items.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  POST: route("user", ({ user, params, body, url }) => moveItem(params.token, params.itemId, user.userId, body, parseLocale(url))),
});
export const action = loader;
