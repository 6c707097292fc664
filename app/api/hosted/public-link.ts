// POST and DELETE /hosted/public/lists/{token}/link (SPEC 4.3): follow and
// unfollow a public list; following also befriends the owner.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { followList, unfollowList } from "~/domains/lists/follow.server";
import { okSchema, tokenParams } from "~/domains/lists/schemas";

// followList/unfollowList read the list as the public routes do: unknown and private lists are 404.
const publicListErrors = { missing_token: 400, not_found: 404, internal_select_failed: 500 } as const;

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Follow a public list (viewer role) and befriend its owner",
      description: "The caller becomes a viewer and a friend of the owner. Never downgrades an editor.",
      params: tokenParams,
      response: z.object({ ok: z.literal(true), role: z.enum(["owner", "editor", "viewer"]).describe("The caller's role on the list now") }),
      errors: { ...publicListErrors, link_failed: 500 },
    },
    async ({ params, user }) => ({ ok: true, role: await followList(params.token, user.userId) }),
  ),
  DELETE: route(
    "user",
    {
      summary: "Stop following a public list",
      params: tokenParams,
      response: okSchema,
      errors: { ...publicListErrors, unlink_failed: 500 },
    },
    async ({ params, user }) => {
      await unfollowList(params.token, user.userId);
      return { ok: true };
    },
  ),
});
export const action = loader;
