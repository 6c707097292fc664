import { endpoint, route } from "~/api/endpoint.server";
import { listsOfUser } from "~/domains/lists/lists.server";

export const loader = endpoint({ POST: route("widget+user", ({ user }) => listsOfUser(user.userId)) });
export const action = loader;
