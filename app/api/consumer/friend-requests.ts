// GET and POST /friends/requests: pending requests, and sending one (SPEC 7.6).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listFriendRequests, sendFriendRequest } from "~/domains/consumer/friends.server";
import { friendRequest } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "Pending friend requests to (incoming) and from (outgoing) the user",
      response: z.object({ incoming: z.array(friendRequest), outgoing: z.array(friendRequest) }),
      errors: { db_error: 500 },
      example: {},
    },
    ({ user }) => listFriendRequests(user.userId),
  ),
  POST: route(
    "user",
    {
      summary: "Send a friend request (idempotent; accepts the other's pending request to you)",
      body: z.object({ friendId: z.string().trim().min(1) }),
      codes: { missing: { friendId: "missing_friend_id" } },
      response: z.object({
        status: z.enum(["pending", "friends"]),
        request: friendRequest.nullable().describe("null when you were friends already"),
      }),
      errors: { self_request: 400, insert_failed: 500 },
    },
    ({ user, body }) => sendFriendRequest(user.userId, body.friendId),
  ),
});
export const action = loader;
