import { endpoint, route } from "~/lib/api/endpoint.server";
import { createManualItem } from "~/domains/lists/items.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  POST: route("user", ({ user, params, body, url }) => createManualItem(params.token, user.userId, body, parseLocale(url))),
});
export const action = loader;
