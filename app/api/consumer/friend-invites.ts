// POST /friends/invites: the user's invite code (created once, then the same).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { friendInvite } from "~/domains/consumer/friends.server";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "The user's friend invite code (whoever accepts it becomes a friend)",
      description: "128 random bits, one per user: the same code on every call.",
      response: z.object({ code: z.string(), createdAt: z.string() }),
      errors: { insert_failed: 500 },
      example: {},
    },
    ({ user }) => friendInvite(user.userId),
  ),
});
export const action = loader;
