// POST and DELETE /hosted/public/lists/{token}/link (SPEC 4.3): follow and
// unfollow a public list; following also befriends the owner.
import { endpoint, route } from "~/api/endpoint.server";
import { followList, unfollowList } from "~/domains/lists/follow.server";

export const loader = endpoint({
  POST: route("user", async ({ params, user }) => ({ ok: true, role: await followList(params.token, user.userId) })),
  DELETE: route("user", async ({ params, user }) => {
    await unfollowList(params.token, user.userId);
    return { ok: true };
  }),
});
export const action = loader;
