// The consumer's own account (SPEC 7.6): profile, preferences, deletion.
import { alertTopic } from "~/domains/alerts/consent.server";
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { noteRevokedSessionsOf } from "~/domains/identity/identity.server";
import { revokeAccessTokensCreatedBy } from "~/domains/partners/access-tokens.server";
import { ApiError, notFound } from "~/lib/api/errors";
import { safeImageUrl } from "~/lib/api/schemas";
import { errorFields, log } from "~/lib/log.server";
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
 * Deletes the account: the user's lists with their items, their memberships
 * of others' lists, friendships, friend requests, invite, notifications and
 * preferences go; so do portal memberships, and the personal access tokens
 * the user created are revoked; sign-in sessions are revoked and refresh
 * tokens removed.
 * Others' lists stay as they are: items the user added there stay, without
 * the adder. Feedback stays, without the user. The user row stays as an
 * empty tombstone (no e-mail, password, names or avatar): its revoked
 * sessions must stay visible to every instance's revocation view until the
 * access tokens issued for them have expired.
 */
export async function deleteAccount(userId: string) {
  const at = new Date();
  const removed = await dbStep("delete_failed", "delete the account", () =>
    db.$transaction(
      async (tx) => {
        const lists = await tx.wishlist.findMany({ where: { ownerId: userId }, select: { id: true } });
        const listIds = lists.map((l) => l.id);
        const onLists = listIds.length
          ? await tx.listItem.findMany({ where: { wishlistId: { in: listIds } }, select: { productId: true } })
          : [];
        const deletedLists = await tx.wishlist.deleteMany({ where: { ownerId: userId } });
        const memberships = await tx.wishlistMember.deleteMany({ where: { userId } });
        await tx.listItem.updateMany({ where: { addedByUserId: userId }, data: { addedByUserId: null } });
        // Manual products live only while an item uses them (app/domains/lists/items.server.ts).
        const productIds = [...new Set(onLists.map((i) => i.productId))];
        await tx.product.deleteMany({
          where: { isManual: true, items: { none: {} }, OR: [{ id: { in: productIds } }, { createdByUserId: userId }] },
        });
        await tx.product.updateMany({ where: { createdByUserId: userId }, data: { createdByUserId: null } });
        const friendships = await tx.friendship.deleteMany({ where: { OR: [{ userId }, { friendId: userId }] } });
        await tx.friendRequest.deleteMany({ where: { OR: [{ senderId: userId }, { recipientId: userId }] } });
        await tx.friendInvite.deleteMany({ where: { userId } });
        await tx.notification.deleteMany({ where: { OR: [{ userId }, { actorId: userId }] } });
        await tx.accountSettings.deleteMany({ where: { userId } });
        // Alert consent, address, recorded alerts and their e-mails (docs/alerts.md).
        await tx.reminderSent.deleteMany({ where: { userId } });
        await tx.alertConsent.deleteMany({ where: { userId } });
        await tx.alertSent.deleteMany({ where: { userId } });
        await tx.outboxMessage.deleteMany({ where: { topic: alertTopic(userId) } });
        await tx.feedback.updateMany({ where: { userId }, data: { userId: null } });
        await tx.partnerUser.deleteMany({ where: { userId } });
        // Shops' customers linked to the account: a later visit links them to a fresh account.
        await tx.shopCustomer.deleteMany({ where: { userId } });
        // Shops that recognised the shopper, and one-time e-mail links of the account.
        await tx.shopperConsent.deleteMany({ where: { userId } });
        await tx.accountToken.deleteMany({ where: { userId } });
        await revokeAccessTokensCreatedBy(tx, userId, { at });
        await tx.refreshToken.deleteMany({ where: { session: { userId } } });
        await tx.authSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: at } });
        await tx.user.update({
          where: { id: userId },
          data: {
            email: null,
            passwordHash: null,
            displayName: null,
            username: null,
            avatarUrl: null,
            isPremium: false,
            legacyId: null,
            deletedAt: at,
          },
          select: { id: true },
        });
        return { lists: deletedLists.count, memberships: memberships.count, friends: Math.ceil(friendships.count / 2) };
      },
      { maxWait: 10_000, timeout: 30_000 },
    ),
  );
  // This instance stops the tokens at once; the others within a poll interval.
  await noteRevokedSessionsOf(userId, at).catch((err) => log.warn("noting revoked sessions failed", errorFields(err)));
  return { ok: true as const, deleted: removed };
}

/**
 * An anonymous account moves to a provider account
 * (app/domains/identity/account-migration.server.ts): its notifications,
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
