// POST /friends/invites/{code}/accept: become friends with the code's owner.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { acceptFriendInvite } from "~/domains/consumer/friends.server";
import { person } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Accept a friend invite code (idempotent)",
      description: "Both become friends; a pending request between them counts as accepted.",
      params: z.object({ code: z.string() }),
      response: z.object({ ok: z.literal(true), status: z.literal("friends"), alreadyFriends: z.boolean(), friend: person }),
      errors: { invalid_code: 404, cannot_invite_self: 400, insert_failed: 500 },
    },
    ({ user, params }) => acceptFriendInvite(user.userId, params.code),
  ),
});
export const action = loader;
