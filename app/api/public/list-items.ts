import { endpoint, route } from "~/api/endpoint.server";
import { publicListItems } from "~/domains/lists/items.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  GET: route("none", ({ params, url }) => publicListItems(params.token, parseLocale(url))),
});
export const action = loader;
