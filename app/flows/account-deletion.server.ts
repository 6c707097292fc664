// Deleting a shopper's account, across the domains that hold their data
// (lists, products, consumer, alerts, partners, shop customers, identity) in
// one transaction. Called by the consumer API, the account settings page and
// the shops' customer redaction (compliance.server.ts).
import { db } from "~/db.server";
import { alertTopic } from "~/domains/alerts/consent.server";
import { dbStep } from "~/domains/consumer/people";
import { noteRevokedSessionsOf } from "~/domains/identity/identity.server";
import { revokeAccessTokensCreatedBy } from "~/domains/partners/access-tokens.server";
import { errorFields, log } from "~/lib/log.server";

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
        const onLists = listIds.length ? await tx.listItem.findMany({ where: { wishlistId: { in: listIds } }, select: { productId: true } }) : [];
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
