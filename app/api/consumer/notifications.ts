// GET /notifications: the feed, newest first, with the unread count (SPEC 7.6).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listNotifications } from "~/domains/consumer/notifications.server";
import { notification } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The user's notifications, newest first (paginated; unread=true for unread only)",
      description: "`limit` 1–100 (default 20); `before` is the previous page's `nextCursor`.",
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(20),
        before: z.coerce.number().int().positive().optional().describe("nextCursor of the previous page"),
        unread: z.enum(["true", "false"]).optional(),
      }),
      response: z.object({
        notifications: z.array(notification),
        unreadCount: z.number().int(),
        nextCursor: z.string().nullable().describe("Pass as `before` for the next page; null on the last"),
      }),
      errors: { db_error: 500 },
      example: { query: { limit: "10" } },
    },
    ({ user, query }) => listNotifications(user.userId, { limit: query.limit, before: query.before, unread: query.unread === "true" }),
  ),
});
export const action = loader;
