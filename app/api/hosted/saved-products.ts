import { endpoint, route } from "~/api/endpoint.server";
import { savedProductsOfUser } from "~/domains/lists/saved-products.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({
  POST: route("user", ({ user, url }) => savedProductsOfUser(user.userId, parseLocale(url))),
});
export const action = loader;
