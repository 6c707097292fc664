// The consumer's own account (SPEC 7.6): profile, preferences, deletion.
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, notFound } from "~/lib/api/errors";
import { safeImageUrl } from "~/lib/api/schemas";
import { dbStep } from "./people";

const accountSelect = {
  id: true,
  email: true,
  displayName: true,
  username: true,
  avatarUrl: true,
  isAnonymous: true,
  isPremium: true,
  createdAt: true,
  deletedAt: true,
  accountSettings: { select: { spoilerProtection: true } },
} as const;

type AccountRow = NonNullable<Awaited<ReturnType<typeof readAccount>>>;

const readAccount = (userId: string) => db.user.findUnique({ where: { id: userId }, select: accountSelect });

function accountJson(user: AccountRow) {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    username: user.username,
    avatarUrl: safeImageUrl(user.avatarUrl),
    isAnonymous: user.isAnonymous,
    isPremium: user.isPremium,
    spoilerProtection: user.accountSettings?.spoilerProtection ?? true,
    createdAt: user.createdAt.toISOString(),
  };
}

export async function getAccount(userId: string) {
  const user = await dbStep("db_error", "read the account", () => readAccount(userId));
  if (!user || user.deletedAt) throw notFound("not_found", "Account not found");
  return { account: accountJson(user) };
}

export interface AccountChanges {
  displayName?: string | null;
  username?: string | null;
  avatarUrl?: string | null;
  spoilerProtection?: boolean;
}

/** Fields left out stay as they are; null clears a profile field. */
export async function updateAccount(userId: string, changes: AccountChanges) {
  const { spoilerProtection, ...profile } = changes;
  const user = await dbStep("update_failed", "update the account", async () => {
    try {
      return await db.$transaction(async (tx) => {
        const current = await tx.user.findUnique({ where: { id: userId }, select: { deletedAt: true } });
        if (!current || current.deletedAt) throw notFound("not_found", "Account not found");
        if (Object.keys(profile).length > 0) await tx.user.update({ where: { id: userId }, data: profile, select: { id: true } });
        if (spoilerProtection !== undefined) {
          await tx.accountSettings.upsert({
            where: { userId },
            create: { userId, spoilerProtection },
            update: { spoilerProtection },
            select: { userId: true },
          });
        }
        return tx.user.findUniqueOrThrow({ where: { id: userId }, select: accountSelect });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError(409, "username_taken", "This username is taken");
      throw err;
    }
  });
  return { ok: true as const, account: accountJson(user) };
}

/**
 * An anonymous account moves to a provider account
 * (app/flows/account-merge.server.ts): its notifications,
 * friend requests, invite code, preferences and feedback go along. Where the
 * new account already has its own (an invite code, preferences, a pending
 * request with the same person) the new account's is kept.
 */
export async function moveConsumerData(tx: Prisma.TransactionClient, oldUserId: string, newUserId: string): Promise<void> {
  await tx.notification.updateMany({ where: { userId: oldUserId }, data: { userId: newUserId } });
  await tx.notification.updateMany({ where: { actorId: oldUserId }, data: { actorId: newUserId } });
  await tx.feedback.updateMany({ where: { userId: oldUserId }, data: { userId: newUserId } });
  if (await tx.friendInvite.findUnique({ where: { userId: newUserId }, select: { code: true } })) {
    await tx.friendInvite.deleteMany({ where: { userId: oldUserId } });
  } else {
    await tx.friendInvite.updateMany({ where: { userId: oldUserId }, data: { userId: newUserId } });
  }
  if (await tx.accountSettings.findUnique({ where: { userId: newUserId }, select: { userId: true } })) {
    await tx.accountSettings.deleteMany({ where: { userId: oldUserId } });
  } else {
    await tx.accountSettings.updateMany({ where: { userId: oldUserId }, data: { userId: newUserId } });
  }
  const requests = await tx.friendRequest.findMany({
    where: { OR: [{ senderId: oldUserId }, { recipientId: oldUserId }] },
    select: { id: true, senderId: true, recipientId: true, status: true },
  });
  for (const r of requests) {
    const senderId = r.senderId === oldUserId ? newUserId : r.senderId;
    const recipientId = r.recipientId === oldUserId ? newUserId : r.recipientId;
    if (senderId === recipientId) {
      await tx.friendRequest.delete({ where: { id: r.id } });
      continue;
    }
    let pendingKey: string | null = null;
    let status = r.status;
    if (r.status === "pending") {
      const key = senderId < recipientId ? `${senderId}|${recipientId}` : `${recipientId}|${senderId}`;
      const taken = await tx.friendRequest.findUnique({ where: { pendingKey: key }, select: { id: true } });
      if (taken) {
        await tx.friendRequest.delete({ where: { id: r.id } });
        continue;
      }
      // Friends already (the friendships moved first): the request is settled.
      const friends = await tx.friendship.findUnique({
        where: { userId_friendId: { userId: senderId, friendId: recipientId } },
        select: { userId: true },
      });
      if (friends) status = "accepted";
      else pendingKey = key;
    }
    const respondedAt = status !== r.status ? new Date() : undefined;
    await tx.friendRequest.update({ where: { id: r.id }, data: { senderId, recipientId, pendingKey, status, respondedAt } });
  }
}
