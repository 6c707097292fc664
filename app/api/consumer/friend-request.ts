// DELETE /friends/requests/{id}: the sender cancels a pending request.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { cancelFriendRequest } from "~/domains/consumer/friends.server";
import { friendRequest, idParam } from "./schemas";

export const loader = endpoint({
  DELETE: route(
    "user",
    {
      summary: "Cancel a friend request (sender only)",
      params: idParam,
      response: z.object({ ok: z.literal(true), request: friendRequest }),
      errors: { forbidden: 403, not_found_or_not_pending: 404, update_failed: 500 },
    },
    ({ user, params }) => cancelFriendRequest(user.userId, params.id),
  ),
});
export const action = loader;
