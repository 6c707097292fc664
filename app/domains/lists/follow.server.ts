// Following a public list (SPEC 4.3 link routes): the follower becomes a
// viewer of the list and a friend of its owner, so the owner can later invite
// them as a collaborator.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, notFound } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { requireToken, type ListRole } from "./access.server";

/** The public list behind a token; private or unknown lists are 404 like on the other public routes. */
async function publicList(token: string | undefined) {
  const shareToken = requireToken(token);
  let list;
  try {
    list = await db.wishlist.findUnique({ where: { shareToken }, select: { id: true, ownerId: true, sharePublic: true } });
  } catch (err) {
    log.error("public list lookup failed", errorFields(err));
    throw new ApiError(500, "internal_select_failed", "Could not read the list");
  }
  if (!list || !list.sharePublic) throw notFound("not_found", "List not found");
  return list;
}

/** Idempotent; never downgrades an owner or editor. Answers the caller's role afterwards. */
export async function followList(token: string | undefined, userId: string): Promise<ListRole> {
  const list = await publicList(token);
  const follow = () =>
    db.$transaction(async (tx): Promise<ListRole> => {
      if (list.ownerId === userId) return "owner";
      const member = await tx.wishlistMember.upsert({
        where: { wishlistId_userId: { wishlistId: list.id, userId } },
        create: { wishlistId: list.id, userId, role: "viewer" },
        update: {},
        select: { role: true },
      });
      // Friendships are stored in both directions.
      for (const [a, b] of [
        [userId, list.ownerId],
        [list.ownerId, userId],
      ]) {
        await tx.friendship.upsert({
          where: { userId_friendId: { userId: a, friendId: b } },
          create: { userId: a, friendId: b },
          update: {},
          select: { userId: true },
        });
      }
      return member.role as ListRole;
    });
  try {
    try {
      return await follow();
    } catch (err) {
      // A concurrent follow inserted the same rows first; the second try finds them.
      if (!isUniqueViolation(err)) throw err;
      return await follow();
    }
  } catch (err) {
    log.error("follow failed", { wishlistId: list.id, ...errorFields(err) });
    throw new ApiError(500, "link_failed", "Could not follow the list");
  }
}

/** Idempotent; removes only a viewer membership (an editor stays editor). Friendships stay. */
export async function unfollowList(token: string | undefined, userId: string): Promise<void> {
  const list = await publicList(token);
  try {
    await db.wishlistMember.deleteMany({ where: { wishlistId: list.id, userId, role: "viewer" } });
  } catch (err) {
    log.error("unfollow failed", { wishlistId: list.id, ...errorFields(err) });
    throw new ApiError(500, "unlink_failed", "Could not unfollow the list");
  }
}
