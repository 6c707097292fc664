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
      description: "Body `{friendId}` (400 `missing_friend_id`). A pending request of the caller is answered again; already friends answers `{status: \"friends\", request: null}`; when the other user had already asked the caller, that request is accepted. An unknown (or deleted) user is 404 `not_found`.",
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
