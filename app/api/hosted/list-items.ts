import { endpoint, route } from "~/api/endpoint.server";
import { listItems } from "~/domains/lists/items.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  GET: route("user", ({ user, params, url }) => listItems(params.token, user.userId, parseLocale(url))),
});
export const action = loader;
