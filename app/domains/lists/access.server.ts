// Who may do what with a list (SPEC section 5 rule 8): the owner may do
// everything; an editor may read and change items; a viewer (follower) may
// only read. Everyone else gets 403 `forbidden`; unknown lists 404.
import { db } from "~/db.server";
import { badRequest, forbidden, notFound } from "~/lib/api/errors";

export type ListRole = "owner" | "editor" | "viewer";

const rank: Record<ListRole, number> = { viewer: 1, editor: 2, owner: 3 };

export async function roleOn(list: { id: number; ownerId: string }, userId: string): Promise<ListRole | null> {
  if (list.ownerId === userId) return "owner";
  const member = await db.wishlistMember.findUnique({
    where: { wishlistId_userId: { wishlistId: list.id, userId } },
    select: { role: true },
  });
  return (member?.role as ListRole | undefined) ?? null;
}

export function requireToken(token: string | undefined): string {
  if (!token) throw badRequest("missing_token", "Share token missing from the path");
  return token;
}

/** The list behind a share token, if the user has at least `minimum` role on it. */
export async function listWithRole(token: string | undefined, userId: string, minimum: ListRole, deniedCode = "forbidden") {
  const list = await db.wishlist.findUnique({ where: { shareToken: requireToken(token) } });
  if (!list) throw notFound("not_found", "List not found");
  const role = await roleOn(list, userId);
  if (!role || rank[role] < rank[minimum]) {
    throw forbidden(deniedCode, minimum === "owner" ? "Only the list owner may do this" : "You do not have access to this list");
  }
  return { list, role };
}

/** Item ids in paths are the integer `item_id`s. */
export function parseItemId(raw: string | undefined): number {
  if (!raw) throw badRequest("missing_item_id", "Item id missing from the path");
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound("not_found", "Item not found");
  return id;
}
