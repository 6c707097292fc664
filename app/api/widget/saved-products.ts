import { endpoint, route } from "~/api/endpoint.server";
import { parseLocale } from "~/domains/lists/serialize";
import { savedProductsForWidget } from "~/domains/widget/saved-products.server";

// POST exists for clients that cannot send custom headers on GET.
const list = route("widget+user", ({ user, widget, url }) => savedProductsForWidget(user.userId, widget, parseLocale(url)));

export const loader = endpoint({ GET: list, POST: list });
export const action = loader;
