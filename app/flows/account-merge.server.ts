// An anonymous user signs in with a provider: the new account takes over the
// anonymous one's lists, items, follows and friendships (SPEC 4.2,
// `POST /hosted/migrate-anonymous-to-provider`), merged as docs/identity.md
// ("Joins and merges") says: one default list, one item per product and list.
// Everything moves in one transaction, and every step only moves what is still
// on the old account, so a retry after success (or a concurrent duplicate)
// moves nothing.
import { db, type Prisma } from "~/db.server";
import { ApiError, badRequest, notFound, unauthorized } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { noteRevokedSessionsOf, verifyUserToken } from "~/domains/identity/identity.server";
import { isSessionLive } from "~/domains/identity/session-revocations.server";
import { moveConsumerData } from "~/domains/consumer/account.server";
import { freeListName, mergeListItems } from "~/domains/lists/merge.server";
import { queueCustomerMirrors } from "~/domains/customer-accounts/mirror-queue.server";

export interface Moved {
  lists: number;
  memberships: number;
  friendships: number;
  items: number;
  /** Items of a product the account's list held already, folded into its item (the default lists' merge). */
  duplicates: number;
  /** Moved lists renamed because the account had a list of that name ("Birthday (2)"). */
  renamed: number;
}

export const NOTHING_MOVED: Readonly<Moved> = { lists: 0, memberships: 0, friendships: 0, items: 0, duplicates: 0, renamed: 0 };

const rank: Record<string, number> = { viewer: 1, editor: 2 };

/** Moves everything of the anonymous user behind `anonymousAccessToken` to `newUserId`. */
export async function migrateAnonymousToProvider(newUserId: string, anonymousAccessToken: string): Promise<Moved> {
  const identity = await verifyUserToken(anonymousAccessToken);
  if (!identity) throw unauthorized("Invalid anonymous access token");
  const oldUserId = identity.userId;
  const nothing: Moved = { ...NOTHING_MOVED };
  if (oldUserId === newUserId) return nothing;

  try {
    // The session is read, not taken from the in-memory revocation view: this moves ownership.
    const live = !identity.sessionId || (await isSessionLive(identity.sessionId));
    const oldUser = await db.user.findUnique({ where: { id: oldUserId }, select: { isAnonymous: true, migratedAt: true } });
    if (!oldUser) throw notFound("old_user_not_found", "The anonymous user does not exist");
    if (!oldUser.isAnonymous) throw badRequest("old_user_not_anonymous", "The source account is not anonymous");
    if (!live) {
      // Ended by an earlier migration: a retry, which has nothing left to move. Ended by a logout: no credential.
      if (oldUser.migratedAt) return nothing;
      throw unauthorized("The anonymous session has ended");
    }
    // Two attempts: a concurrent duplicate request can make the first one trip over rows it just moved.
    for (let attempt = 1; ; attempt++) {
      try {
        const startedAt = new Date();
        const moved = await db.$transaction((tx) => moveAccount(tx, oldUserId, newUserId), { maxWait: 10_000, timeout: 30_000 });
        // The poll would tell this instance within a second; this makes it immediate here.
        await noteRevokedSessionsOf(oldUserId, startedAt).catch((err) => log.warn("noting revoked sessions failed", errorFields(err)));
        // The account's store customers (if any) see the moved items in their Shopify customer metafields.
        if (moved.lists + moved.items + moved.duplicates > 0) await queueCustomerMirrors(newUserId);
        return moved;
      } catch (err) {
        if (attempt >= 2) throw err;
        log.warn("account migration retried", { oldUserId, newUserId, ...errorFields(err) });
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    log.error("account migration failed", { oldUserId, newUserId, ...errorFields(err) });
    throw new ApiError(500, "migration_failed", "Could not move the anonymous account");
  }
}

/** The moves of a migration, inside the caller's transaction (also used to join a store customer's account). */
export async function moveAccount(tx: Prisma.TransactionClient, oldUserId: string, newUserId: string): Promise<Moved> {
  // Lock the old user's row first: concurrent migrations of one account then run one after the
  // other, and the later one reads what the earlier one left (nothing) instead of moving it twice.
  await tx.user.update({ where: { id: oldUserId }, data: { updatedAt: new Date() }, select: { id: true } });

  // Lists. The two default lists become one: the new user's stays, the old one's items join it and
  // the old default list goes. Named lists move whole, renamed only where a name is taken.
  const newDefault = await tx.wishlist.findFirst({ where: { ownerId: newUserId, defaultKey: "default" }, select: { id: true } });
  const lists = await tx.wishlist.findMany({
    where: { ownerId: oldUserId },
    select: { id: true, name: true, defaultKey: true, updatedAt: true },
    orderBy: { id: "asc" },
  });
  const names = (await tx.wishlist.findMany({ where: { ownerId: newUserId }, select: { name: true } })).map((l) => l.name);
  let duplicates = 0;
  let renamed = 0;
  const movedListIds: number[] = [];
  for (const list of lists) {
    if (list.defaultKey === "default" && newDefault) {
      const merge = await mergeListItems(tx, list.id, newDefault.id);
      duplicates += merge.duplicates;
      // Its followers and collaborators were given this list, not the account's default: they go with it.
      await tx.wishlist.delete({ where: { id: list.id }, select: { id: true } });
      if (merge.moved + merge.duplicates > 0) await tx.wishlist.update({ where: { id: newDefault.id }, data: { updatedAt: new Date() }, select: { id: true } });
      continue;
    }
    const name = freeListName(list.name, names);
    names.push(name);
    if (name !== list.name) renamed++;
    await tx.wishlist.update({
      where: { id: list.id },
      // updatedAt is kept: the lists did not change, only their owner's account did.
      data: { ownerId: newUserId, name, updatedAt: list.updatedAt },
      select: { id: true },
    });
    movedListIds.push(list.id);
  }
  // The new user may have followed or edited a list they now own.
  if (movedListIds.length > 0) {
    await tx.wishlistMember.deleteMany({ where: { wishlistId: { in: movedListIds }, userId: newUserId } });
  }

  // Memberships: re-point, or merge into the new user's own membership keeping the stronger role.
  // Counted: memberships the new user gained or strengthened.
  let memberships = 0;
  const oldMemberships = await tx.wishlistMember.findMany({
    where: { userId: oldUserId },
    select: { wishlistId: true, role: true, wishlist: { select: { ownerId: true } } },
  });
  for (const m of oldMemberships) {
    const oldKey = { wishlistId_userId: { wishlistId: m.wishlistId, userId: oldUserId } };
    if (m.wishlist.ownerId === newUserId) {
      await tx.wishlistMember.delete({ where: oldKey });
      continue;
    }
    const existing = await tx.wishlistMember.findUnique({
      where: { wishlistId_userId: { wishlistId: m.wishlistId, userId: newUserId } },
      select: { role: true },
    });
    if (existing) {
      if ((rank[m.role] ?? 0) > (rank[existing.role] ?? 0)) {
        await tx.wishlistMember.update({
          where: { wishlistId_userId: { wishlistId: m.wishlistId, userId: newUserId } },
          data: { role: m.role },
        });
        memberships++;
      }
      await tx.wishlistMember.delete({ where: oldKey });
    } else {
      await tx.wishlistMember.update({ where: oldKey, data: { userId: newUserId } });
      memberships++;
    }
  }

  // Friendships, stored in both directions: re-point both, never duplicate, never befriend oneself.
  const friends = new Set<string>();
  const oldFriendships = await tx.friendship.findMany({
    where: { OR: [{ userId: oldUserId }, { friendId: oldUserId }] },
    select: { userId: true, friendId: true, createdAt: true },
  });
  for (const f of oldFriendships) {
    await tx.friendship.delete({ where: { userId_friendId: { userId: f.userId, friendId: f.friendId } } });
    const userId = f.userId === oldUserId ? newUserId : f.userId;
    const friendId = f.friendId === oldUserId ? newUserId : f.friendId;
    if (userId === friendId) continue;
    const key = { userId_friendId: { userId, friendId } };
    if (await tx.friendship.findUnique({ where: key, select: { userId: true } })) continue;
    await tx.friendship.create({ data: { userId, friendId, createdAt: f.createdAt } });
    friends.add(userId === newUserId ? friendId : userId);
  }

  // Who added an item or created a manual product (after the merge: a folded duplicate is not counted).
  const items = await tx.listItem.updateMany({ where: { addedByUserId: oldUserId }, data: { addedByUserId: newUserId } });
  await tx.product.updateMany({ where: { createdByUserId: oldUserId }, data: { createdByUserId: newUserId } });

  // Notifications, friend requests, invite code, preferences, feedback.
  await moveConsumerData(tx, oldUserId, newUserId);

  // The anonymous account is done: its sessions end, and the first migration time is kept.
  await tx.authSession.updateMany({ where: { userId: oldUserId, revokedAt: null }, data: { revokedAt: new Date() } });
  await tx.user.updateMany({ where: { id: oldUserId, migratedAt: null }, data: { migratedAt: new Date() } });

  return { lists: movedListIds.length, memberships, friendships: friends.size, items: items.count, duplicates, renamed };
}
