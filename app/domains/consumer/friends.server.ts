// Friends (SPEC 7.6): requests (send, accept, decline, cancel), invite codes,
// unfriend, the list of friends. A friendship is the same two Friendship rows
// (one per direction) that following a shared list writes
// (app/domains/lists/follow.server.ts), so friends made either way are one set.
import { randomBytes } from "node:crypto";
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { badRequest, forbidden, notFound } from "~/lib/api/errors";
import { addNotification } from "./notifications.server";
import { dbStep, pathId, personJson, personSelect } from "./people";

type Tx = Prisma.TransactionClient;

/** Both users' ids, sorted: one pending request per pair, whoever sent it. */
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

async function befriend(tx: Tx, a: string, b: string): Promise<void> {
  for (const [userId, friendId] of [
    [a, b],
    [b, a],
  ]) {
    await tx.friendship.upsert({
      where: { userId_friendId: { userId, friendId } },
      create: { userId, friendId },
      update: {},
      select: { userId: true },
    });
  }
}

const areFriends = async (tx: Tx | typeof db, a: string, b: string) =>
  (await tx.friendship.findUnique({ where: { userId_friendId: { userId: a, friendId: b } }, select: { userId: true } })) !== null;

/** Concurrent writers of the same pair trip over the unique keys; the second attempt sees their rows. */
async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return await fn();
  }
}

// ---------------------------------------------------------------- reading

export async function listFriends(userId: string) {
  return dbStep("db_error", "read the friends", async () => {
    const rows = await db.friendship.findMany({
      where: { userId },
      select: { createdAt: true, friend: { select: personSelect } },
      orderBy: [{ createdAt: "desc" }, { friendId: "asc" }],
    });
    return { friends: rows.map((r) => ({ ...personJson(r.friend), since: r.createdAt.toISOString() })) };
  });
}

const requestSelect = {
  id: true,
  status: true,
  createdAt: true,
  respondedAt: true,
  sender: { select: personSelect },
  recipient: { select: personSelect },
} as const;

type RequestRow = Prisma.FriendRequestGetPayload<{ select: typeof requestSelect }>;

export function friendRequestJson(row: RequestRow) {
  return {
    id: row.id,
    status: row.status as "pending" | "accepted" | "declined" | "cancelled",
    from: personJson(row.sender),
    to: personJson(row.recipient),
    createdAt: row.createdAt.toISOString(),
    respondedAt: row.respondedAt?.toISOString() ?? null,
  };
}

/** Pending requests to and from the user, newest first. */
export async function listFriendRequests(userId: string) {
  return dbStep("db_error", "read the friend requests", async () => {
    const [incoming, outgoing] = await Promise.all(
      (["recipientId", "senderId"] as const).map((side) =>
        db.friendRequest.findMany({ where: { [side]: userId, status: "pending" }, select: requestSelect, orderBy: { id: "desc" } }),
      ),
    );
    return { incoming: incoming!.map(friendRequestJson), outgoing: outgoing!.map(friendRequestJson) };
  });
}

// ---------------------------------------------------------------- requests

/**
 * Sends a request. Idempotent: already friends answers `friends`, a pending
 * request of the caller answers it again, and a pending request the other
 * user sent the caller is accepted (both asked).
 */
export async function sendFriendRequest(userId: string, friendId: string) {
  if (friendId === userId) throw badRequest("self_request", "You cannot send a friend request to yourself");
  const target = await dbStep("insert_failed", "send the friend request", () =>
    db.user.findUnique({ where: { id: friendId }, select: { deletedAt: true } }),
  );
  if (!target || target.deletedAt) throw notFound("not_found", "User not found");

  return dbStep("insert_failed", "send the friend request", () =>
    retryOnConflict(() =>
      db.$transaction(async (tx) => {
        if (await areFriends(tx, userId, friendId)) return { status: "friends" as const, request: null };
        const pending = await tx.friendRequest.findUnique({ where: { pendingKey: pairKey(userId, friendId) }, select: requestSelect });
        if (pending && pending.sender.id === userId) return { status: "pending" as const, request: friendRequestJson(pending) };
        if (pending) {
          const accepted = await tx.friendRequest.update({
            where: { id: pending.id },
            data: { status: "accepted", respondedAt: new Date(), pendingKey: null },
            select: requestSelect,
          });
          await befriend(tx, userId, friendId);
          await addNotification(friendId, "friend_accepted", userId, { requestId: accepted.id }, tx);
          return { status: "friends" as const, request: friendRequestJson(accepted) };
        }
        const created = await tx.friendRequest.create({
          data: { senderId: userId, recipientId: friendId, pendingKey: pairKey(userId, friendId) },
          select: requestSelect,
        });
        await addNotification(friendId, "friend_request", userId, { requestId: created.id }, tx);
        return { status: "pending" as const, request: friendRequestJson(created) };
      }),
    ),
  );
}

const notPending = () => notFound("not_found_or_not_pending", "Friend request not found or already handled");

/** The request, if `userId` is on the `side` that may act on it: 403 `forbidden` for anyone else. */
async function requestFor(rawId: string | undefined, userId: string, side: "recipient" | "sender") {
  const id = pathId(rawId);
  if (id === null) throw notPending();
  const row = await db.friendRequest.findUnique({ where: { id }, select: { id: true, senderId: true, recipientId: true, status: true } });
  if (!row) throw notPending();
  if ((side === "recipient" ? row.recipientId : row.senderId) !== userId) {
    throw forbidden("forbidden", side === "recipient" ? "Only the recipient may answer this request" : "Only the sender may cancel this request");
  }
  if (row.status !== "pending") throw notPending();
  return row;
}

/** Moves a pending request on; 404 when another call handled it first. */
async function settle(tx: Tx, id: number, status: "accepted" | "declined" | "cancelled") {
  const { count } = await tx.friendRequest.updateMany({
    where: { id, status: "pending" },
    data: { status, respondedAt: new Date(), pendingKey: null },
  });
  if (count === 0) throw notPending();
  return tx.friendRequest.findUniqueOrThrow({ where: { id }, select: requestSelect });
}

export async function acceptFriendRequest(userId: string, rawId: string | undefined) {
  return dbStep("update_failed", "accept the friend request", async () => {
    const request = await requestFor(rawId, userId, "recipient");
    const row = await db.$transaction(async (tx) => {
      const accepted = await settle(tx, request.id, "accepted");
      await befriend(tx, request.senderId, request.recipientId);
      await addNotification(request.senderId, "friend_accepted", userId, { requestId: request.id }, tx);
      return accepted;
    });
    return { ok: true as const, request: friendRequestJson(row) };
  });
}

export async function declineFriendRequest(userId: string, rawId: string | undefined) {
  return dbStep("update_failed", "decline the friend request", async () => {
    const request = await requestFor(rawId, userId, "recipient");
    const row = await db.$transaction((tx) => settle(tx, request.id, "declined"));
    return { ok: true as const, request: friendRequestJson(row) };
  });
}

export async function cancelFriendRequest(userId: string, rawId: string | undefined) {
  return dbStep("update_failed", "cancel the friend request", async () => {
    const request = await requestFor(rawId, userId, "sender");
    const row = await db.$transaction((tx) => settle(tx, request.id, "cancelled"));
    return { ok: true as const, request: friendRequestJson(row) };
  });
}

// ---------------------------------------------------------------- invites and unfriending

/** The user's invite code, created on first use (one per user). */
export async function friendInvite(userId: string) {
  return dbStep("insert_failed", "create the invite code", async () => {
    const read = () => db.friendInvite.findUnique({ where: { userId }, select: { code: true, createdAt: true } });
    let invite = await read();
    if (!invite) {
      try {
        // 128 random bits: a code cannot be guessed.
        invite = await db.friendInvite.create({
          data: { userId, code: randomBytes(16).toString("base64url") },
          select: { code: true, createdAt: true },
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        invite = await read();
        if (!invite) throw err;
      }
    }
    return { code: invite.code, createdAt: invite.createdAt.toISOString() };
  });
}

/** Accepting someone's code makes both friends (idempotent); a pending request between them is settled as accepted. */
export async function acceptFriendInvite(userId: string, code: string | undefined) {
  const invite = code
    ? await dbStep("insert_failed", "accept the invite", () =>
        db.friendInvite.findUnique({ where: { code }, select: { userId: true, user: { select: personSelect } } }),
      )
    : null;
  if (!invite) throw notFound("invalid_code", "Invite code not found");
  if (invite.userId === userId) throw badRequest("cannot_invite_self", "This is your own invite code");
  const inviterId = invite.userId;
  const alreadyFriends = await dbStep("insert_failed", "accept the invite", () =>
    retryOnConflict(() =>
      db.$transaction(async (tx) => {
        if (await areFriends(tx, userId, inviterId)) return true;
        await tx.friendRequest.updateMany({
          where: { pendingKey: pairKey(userId, inviterId) },
          data: { status: "accepted", respondedAt: new Date(), pendingKey: null },
        });
        await befriend(tx, userId, inviterId);
        await addNotification(inviterId, "friend_accepted", userId, { via: "invite" }, tx);
        return false;
      }),
    ),
  );
  return { ok: true as const, status: "friends" as const, alreadyFriends, friend: personJson(invite.user) };
}

export async function unfriend(userId: string, friendId: string | undefined) {
  if (!friendId) throw notFound("not_found", "Not a friend");
  if (friendId === userId) throw badRequest("cannot_unfriend_self", "You cannot unfriend yourself");
  const { count } = await dbStep("delete_failed", "remove the friend", () =>
    db.friendship.deleteMany({
      where: {
        OR: [
          { userId, friendId },
          { userId: friendId, friendId: userId },
        ],
      },
    }),
  );
  if (count === 0) throw notFound("not_found", "Not a friend");
  return { ok: true as const, removed: friendId };
}

