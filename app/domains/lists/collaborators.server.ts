// Collaborators of a list (SPEC 4.2): editors the owner invites from their
// friends. Followers (viewers) live in the same table but are not collaborators.
import { db, type Prisma, type WishlistMember } from "~/db.server";
import { ApiError, badRequest, forbidden, notFound } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { notifyListShared } from "~/domains/consumer/notifications.server";
import { listWithRole } from "./access.server";
import { ownerName, type OwnerRow } from "./serialize";

const userFields = { id: true, displayName: true, username: true, avatarUrl: true, isPremium: true } as const;

type CollaboratorRow = Pick<WishlistMember, "createdAt"> & { user: OwnerRow };

export function collaboratorJson(member: CollaboratorRow) {
  return {
    user_id: member.user.id,
    name: ownerName(member.user),
    avatar: member.user.avatarUrl,
    role: "editor" as const,
    added_at: member.createdAt.toISOString(),
  };
}

/** The editors of the list, oldest first; owner only. */
export async function listCollaborators(token: string, ownerId: string) {
  const { list } = await listWithRole(token, ownerId, "owner");
  const members = await db.wishlistMember.findMany({
    where: { wishlistId: list.id, role: "editor" },
    select: { createdAt: true, user: { select: userFields } },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
  });
  return members.map(collaboratorJson);
}

/** Makes a friend of the owner an editor; a follower (viewer) is upgraded. */
export async function inviteCollaborator(token: string, ownerId: string, inviteeId: string | undefined) {
  const { list } = await listWithRole(token, ownerId, "owner");
  if (!inviteeId) throw badRequest("missing_user", "userId is required");
  if (inviteeId === ownerId) throw badRequest("self_invite", "You cannot invite yourself");
  const friendship = await db.friendship.findUnique({
    where: { userId_friendId: { userId: ownerId, friendId: inviteeId } },
    select: { userId: true },
  });
  if (!friendship) throw forbidden("not_a_friend", "Only friends can be invited as collaborators");

  let added: { member: CollaboratorRow; isNew: boolean };
  try {
    added = await db.$transaction(async (tx) => {
      const existing = await tx.wishlistMember.findUnique({
        where: { wishlistId_userId: { wishlistId: list.id, userId: inviteeId } },
        select: { role: true, createdAt: true, user: { select: userFields } },
      });
      if (existing?.role === "editor") return { member: existing, isNew: false };
      const saved = await tx.wishlistMember.upsert({
        where: { wishlistId_userId: { wishlistId: list.id, userId: inviteeId } },
        create: { wishlistId: list.id, userId: inviteeId, role: "editor" },
        update: { role: "editor" },
        select: { createdAt: true, user: { select: userFields } },
      });
      await touchList(tx, list.id);
      return { member: saved, isNew: true };
    });
  } catch (err) {
    log.error("collaborator upsert failed", { wishlistId: list.id, ...errorFields(err) });
    throw new ApiError(500, "upsert_failed", "Could not save the collaborator");
  }
  // After the commit; a failed notification does not fail the invite.
  if (added.isNew) await notifyListShared(inviteeId, ownerId, list);
  return collaboratorJson(added.member);
}

/** Removes an editor; followers are not collaborators and stay. */
export async function removeCollaborator(token: string, ownerId: string, userId: string) {
  const { list } = await listWithRole(token, ownerId, "owner");
  let removed: number;
  try {
    removed = await db.$transaction(async (tx) => {
      const { count } = await tx.wishlistMember.deleteMany({ where: { wishlistId: list.id, userId, role: "editor" } });
      if (count > 0) await touchList(tx, list.id);
      return count;
    });
  } catch (err) {
    log.error("collaborator delete failed", { wishlistId: list.id, ...errorFields(err) });
    throw new ApiError(500, "upsert_failed", "Could not remove the collaborator");
  }
  if (removed === 0) throw notFound("not_found", "This user is not a collaborator of the list");
}

// Lists are sorted by updated_at, and who may edit a list is a change to it.
async function touchList(tx: Prisma.TransactionClient, wishlistId: number) {
  await tx.wishlist.update({ where: { id: wishlistId }, data: { updatedAt: new Date() } });
}
