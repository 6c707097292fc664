import { endpoint, route } from "~/lib/api/endpoint.server";
import { deleteList, getList, updateList } from "~/domains/lists/lists.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  GET: route("user", ({ user, params, url }) => getList(params.token, user.userId, parseLocale(url))),
  PUT: route("user", ({ user, params, body }) => updateList(params.token, user.userId, body)),
  DELETE: route("user", ({ user, params }) => deleteList(params.token, user.userId)),
});
export const action = loader;
