import { endpoint, route } from "~/api/endpoint.server";
import { initUser } from "~/domains/lists/lists.server";
import { parseLocale } from "~/domains/lists/serialize";

export const loader = endpoint({ POST: route("user", ({ user, url }) => initUser(user, parseLocale(url))) });
export const action = loader;
