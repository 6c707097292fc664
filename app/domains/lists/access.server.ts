// Who may do what with a list (SPEC section 5 rule 8): the owner may do
// everything; an editor may read and change items; a viewer (follower) may
// only read. Everyone else gets 403 `forbidden`; unknown lists 404.
// The list and the caller's membership are read in one prepared statement
// (lists.sql.server.ts): every item route and every save starts here.
import type { Wishlist } from "~/db.server";
import { badRequest, forbidden, notFound } from "~/lib/api/errors";
import { listWithMemberById, listWithMemberByToken, type ListWithMember } from "./lists.sql.server";

export type ListRole = "owner" | "editor" | "viewer";

const rank: Record<ListRole, number> = { viewer: 1, editor: 2, owner: 3 };

function split(row: ListWithMember | undefined, userId: string): { list: Wishlist; role: ListRole | null } | null {
  if (!row) return null;
  const { memberRole, ...list } = row;
  return { list, role: list.ownerId === userId ? "owner" : ((memberRole as ListRole | null) ?? null) };
}

/** The list with this numeric id and the user's role on it (null: no role); null for an unknown list. */
export async function listAndRoleById(wishlistId: number, userId: string) {
  return split(await listWithMemberById(wishlistId, userId), userId);
}

export function requireToken(token: string | undefined): string {
  if (!token) throw badRequest("missing_token", "Share token missing from the path");
  return token;
}

/** The list behind a share token, if the user has at least `minimum` role on it. */
export async function listWithRole(token: string | undefined, userId: string, minimum: ListRole, deniedCode = "forbidden") {
  const found = split(await listWithMemberByToken(requireToken(token), userId), userId);
  if (!found) throw notFound("not_found", "List not found");
  const { list, role } = found;
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
