// POST /notifications/read-all: marks every unread notification read.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { markAllNotificationsRead } from "~/domains/consumer/notifications.server";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Mark all notifications read",
      response: z.object({ ok: z.literal(true), updated: z.number().int() }),
      errors: { update_failed: 500 },
      example: {},
    },
    ({ user }) => markAllNotificationsRead(user.userId),
  ),
});
export const action = loader;
