import { endpoint, route } from "~/api/endpoint.server";
import { rescrapeItem } from "~/domains/products/rescrape.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  POST: route("user", ({ user, params, url }) => rescrapeItem(params.token, params.itemId, user.userId, parseLocale(url))),
});
export const action = loader;
