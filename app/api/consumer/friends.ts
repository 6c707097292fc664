// GET /friends: the user's friends, newest first (SPEC 7.6).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listFriends } from "~/domains/consumer/friends.server";
import { friend } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The user's friends",
      description: "Newest first: friends made by requests, invite codes or by following a shared list alike.",
      response: z.object({ friends: z.array(friend) }),
      errors: { db_error: 500 },
      example: {},
    },
    ({ user }) => listFriends(user.userId),
  ),
});
export const action = loader;
