import { endpoint, route } from "~/api/endpoint.server";
import { createList } from "~/domains/lists/lists.server";

export const loader = endpoint({ POST: route("user", ({ user, body }) => createList(user.userId, body)) });
export const action = loader;
