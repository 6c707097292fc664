// The consumer's notification feed (SPEC 7.6): friend requests, accepted
// requests, lists shared with them, items bought from their lists. Producers
// call the notify* functions after their own write has committed: a failed
// notification is logged and never fails the action that caused it.
import { db, type Prisma, type Notification } from "~/db.server";
import { notFound } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { dbStep, pathId, personJson, personSelect, type Person } from "./people";

export const NOTIFICATION_TYPES = ["friend_request", "friend_accepted", "list_shared", "item_purchased"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

type Writer = Pick<Prisma.TransactionClient, "notification">;

/** Writes one notification (inside the caller's transaction when given one). */
export async function addNotification(
  userId: string,
  type: NotificationType,
  actorId: string | null,
  data: Record<string, string | number | null>,
  tx: Writer = db,
): Promise<void> {
  await tx.notification.create({ data: { userId, type, actorId, data }, select: { id: true } });
}

/** After the fact: never throws. */
async function notifyQuietly(...args: Parameters<typeof addNotification>): Promise<void> {
  try {
    await addNotification(...args);
  } catch (err) {
    log.warn("notification not written", { type: args[1], ...errorFields(err) });
  }
}

/** A list owner made the user an editor of their list. */
export function notifyListShared(userId: string, ownerId: string, list: { shareToken: string; name: string }) {
  return notifyQuietly(userId, "list_shared", ownerId, { listId: list.shareToken, listName: list.name, role: "editor" });
}

/**
 * An item of the owner's list was marked purchased. Nothing is written while
 * the owner's spoiler protection is on (the default), nor when the owner
 * marked it themselves.
 */
export async function notifyItemPurchased(
  list: { ownerId: string; shareToken: string; name: string },
  itemId: number,
  purchaserId: string | null,
): Promise<void> {
  if (purchaserId === list.ownerId) return;
  try {
    const settings = await db.accountSettings.findUnique({ where: { userId: list.ownerId }, select: { spoilerProtection: true } });
    if (settings?.spoilerProtection ?? true) return;
    const item = await db.listItem.findUnique({
      where: { id: itemId },
      select: { ownTitle: true, product: { select: { localizations: { select: { title: true }, take: 1 } } } },
    });
    const title = item?.ownTitle ?? item?.product.localizations[0]?.title ?? null;
    await addNotification(list.ownerId, "item_purchased", purchaserId, { listId: list.shareToken, listName: list.name, itemId, title });
  } catch (err) {
    log.warn("notification not written", { type: "item_purchased", ...errorFields(err) });
  }
}

// ---------------------------------------------------------------- the feed

type NotificationRow = Pick<Notification, "id" | "type" | "actorId" | "data" | "readAt" | "createdAt">;

function notificationJson(row: NotificationRow, actors: Map<string, Person>) {
  return {
    id: row.id,
    type: row.type as NotificationType,
    actor: (row.actorId && actors.get(row.actorId)) || null,
    data: (row.data ?? {}) as Record<string, unknown>,
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const rowSelect = { id: true, type: true, actorId: true, data: true, readAt: true, createdAt: true } as const;

/** Newest first, `limit` per page; `before` is the previous page's `nextCursor`. */
export async function listNotifications(userId: string, opts: { limit: number; before?: number; unread: boolean }) {
  return dbStep("db_error", "read the notifications", async () => {
    const where: Prisma.NotificationWhereInput = {
      userId,
      ...(opts.unread ? { readAt: null } : {}),
      ...(opts.before ? { id: { lt: opts.before } } : {}),
    };
    const [rows, unreadCount] = await Promise.all([
      db.notification.findMany({ where, orderBy: { id: "desc" }, take: opts.limit + 1, select: rowSelect }),
      db.notification.count({ where: { userId, readAt: null } }),
    ]);
    const page = rows.slice(0, opts.limit);
    const actorIds = [...new Set(page.map((r) => r.actorId).filter((id): id is string => id !== null))];
    const actors = actorIds.length
      ? await db.user.findMany({ where: { id: { in: actorIds }, deletedAt: null }, select: personSelect })
      : [];
    const byId = new Map(actors.map((a) => [a.id, personJson(a)]));
    return {
      notifications: page.map((r) => notificationJson(r, byId)),
      unreadCount,
      nextCursor: rows.length > opts.limit ? String(page[page.length - 1]!.id) : null,
    };
  });
}

function notificationId(raw: string | undefined): number {
  const id = pathId(raw);
  if (id === null) throw notFound("not_found", "Notification not found");
  return id;
}

/** Another user's notification is answered like an unknown one. */
export async function markNotificationRead(userId: string, rawId: string | undefined) {
  const id = notificationId(rawId);
  return dbStep("update_failed", "mark the notification read", async () => {
    const row = await db.notification.findFirst({ where: { id, userId }, select: { readAt: true } });
    if (!row) throw notFound("not_found", "Notification not found");
    const readAt = row.readAt ?? new Date();
    if (!row.readAt) await db.notification.updateMany({ where: { id, userId, readAt: null }, data: { readAt } });
    return { ok: true as const, id, readAt: readAt.toISOString() };
  });
}

export async function markAllNotificationsRead(userId: string) {
  return dbStep("update_failed", "mark the notifications read", async () => {
    const { count } = await db.notification.updateMany({ where: { userId, readAt: null }, data: { readAt: new Date() } });
    return { ok: true as const, updated: count };
  });
}

export async function deleteNotification(userId: string, rawId: string | undefined) {
  const id = notificationId(rawId);
  return dbStep("delete_failed", "delete the notification", async () => {
    const { count } = await db.notification.deleteMany({ where: { id, userId } });
    if (count === 0) throw notFound("not_found", "Notification not found");
    return { ok: true as const, deleted: id };
  });
}
