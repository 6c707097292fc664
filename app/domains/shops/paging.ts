// Paging of the shop pages' collections: `limit` and an opaque `cursor`;
// answers carry `next_cursor` (null on the last page). Products are ordered
// newest first by id (an index range, no offset); curated lists and follows
// page by position.
import { badRequest } from "~/lib/api/errors";

export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** Ids are 32-bit integers on PostgreSQL: "before the largest" is the first page. */
export const MAX_ID = 2_147_483_647;

/** An id cursor: the last id of the previous page. */
export function idCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const id = /^\d{1,10}$/.test(cursor) ? Number(cursor) : NaN;
  if (!(id <= MAX_ID)) throw badRequest("invalid_input", "cursor: not a cursor this route gave");
  return id;
}

/** An offset cursor (curated lists, follows). */
export function offsetCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^o(\d{1,9})$/.exec(cursor);
  if (!match) throw badRequest("invalid_input", "cursor: not a cursor this route gave");
  return Number(match[1]);
}
