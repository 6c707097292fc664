// DELETE /notifications/{id}: removes one of the user's notifications.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { deleteNotification } from "~/domains/consumer/notifications.server";
import { idParam } from "./schemas";

export const loader = endpoint({
  DELETE: route(
    "user",
    {
      summary: "Delete a notification",
      params: idParam,
      response: z.object({ ok: z.literal(true), deleted: z.number().int() }),
      errors: { delete_failed: 500 },
    },
    ({ user, params }) => deleteNotification(user.userId, params.id),
  ),
});
export const action = loader;
