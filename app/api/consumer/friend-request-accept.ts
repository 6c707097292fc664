// POST /friends/requests/{id}/accept: the recipient answers a pending request.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { acceptFriendRequest } from "~/domains/consumer/friends.server";
import { friendRequest, idParam } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Accept a friend request (recipient only)",
      params: idParam,
      response: z.object({ ok: z.literal(true), request: friendRequest }),
      errors: { forbidden: 403, not_found_or_not_pending: 404, update_failed: 500 },
    },
    ({ user, params }) => acceptFriendRequest(user.userId, params.id),
  ),
});
export const action = loader;
