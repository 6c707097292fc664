// DELETE /friends/{userId}: unfriend (both directions).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { unfriend } from "~/domains/consumer/friends.server";

export const loader = endpoint({
  DELETE: route(
    "user",
    {
      summary: "Unfriend a user",
      description: "Removes the friendship in both directions. Collaborator roles on lists stay until the owner removes them.",
      params: z.object({ userId: z.string() }),
      response: z.object({ ok: z.literal(true), removed: z.string() }),
      errors: { cannot_unfriend_self: 400, delete_failed: 500 },
    },
    ({ user, params }) => unfriend(user.userId, params.userId),
  ),
});
export const action = loader;
