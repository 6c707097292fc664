// POST /notifications/{id}/read: marks one notification read (idempotent).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { markNotificationRead } from "~/domains/consumer/notifications.server";
import { idParam } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Mark a notification read",
      description: "Idempotent.",
      params: idParam,
      response: z.object({ ok: z.literal(true), id: z.number().int(), readAt: z.string() }),
      errors: { update_failed: 500 },
    },
    ({ user, params }) => markNotificationRead(user.userId, params.id),
  ),
});
export const action = loader;
