// POST /friends/requests/{id}/decline: the recipient answers a pending request.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { declineFriendRequest } from "~/domains/consumer/friends.server";
import { friendRequest, idParam } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Decline a friend request (recipient only)",
      params: idParam,
      response: z.object({ ok: z.literal(true), request: friendRequest }),
      errors: { forbidden: 403, not_found_or_not_pending: 404, update_failed: 500 },
    },
    ({ user, params }) => declineFriendRequest(user.userId, params.id),
  ),
});
export const action = loader;
