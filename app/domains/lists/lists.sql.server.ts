// The lists' hot reads: a list with the caller's membership (every item
// route and every save starts there) and the public view of a list (every
// share link opened reads it), each in one statement.
import type { Occasion, User, Wishlist } from "~/db.server";
import { exec, fields, one, readExec, statement, type RowOf } from "~/db/sql.server";

// What the public view of a list shows; the member's view adds the default-list marker and the partner it was made through.
const PUBLIC_COLUMNS = ["id", "shareToken", "ownerId", "name", "description", "imagePath", "sharePublic", "occasionSlug", "createdAt", "updatedAt"] as const;
const LIST = fields<Wishlist>()(...PUBLIC_COLUMNS, "defaultKey", "createdThroughPartnerId");

export type ListWithMember = RowOf<typeof LIST> & { memberRole: string | null };

/** The list found by `column` = $1, with the membership of user $2. */
const listWithMember = (name: string, column: "shareToken" | "id") =>
  statement<ListWithMember>(
    name,
    `SELECT ${LIST.sql("w")}, m."role" AS "memberRole"
     FROM "Wishlist" w LEFT JOIN "WishlistMember" m ON m."wishlistId" = w."id" AND m."userId" = $2
     WHERE w."${column}" = $1`,
    { sharePublic: "bool", createdAt: "date", updatedAt: "date" },
  );

const LIST_BY_TOKEN = listWithMember("list_by_token_with_member", "shareToken");
const LIST_BY_ID = listWithMember("list_by_id_with_member", "id");

export const listWithMemberById = (wishlistId: number, userId: string) => exec(one(LIST_BY_ID, wishlistId, userId));
export const listWithMemberByToken = (token: string, userId: string) => exec(one(LIST_BY_TOKEN, token, userId));

const PUBLIC_LIST_COLUMNS = fields<Wishlist>()(...PUBLIC_COLUMNS);
const OWNER = fields<User>()("displayName", "username", "avatarUrl", "isPremium");

type PublicListRow = RowOf<typeof PUBLIC_LIST_COLUMNS> &
  RowOf<typeof OWNER> & {
    itemCount: number;
    occasionTitleDe: Occasion["titleDe"] | null;
    occasionTitleEn: Occasion["titleEn"] | null;
  };

// The list, its owner, its occasion and its item count (from that list's rows,
// index on wishlistId) in one statement.
const PUBLIC_LIST = statement<PublicListRow>(
  "public_list_by_token",
  `SELECT ${PUBLIC_LIST_COLUMNS.sql("w")},
          ${OWNER.sql("u")},
          o."titleDe" AS "occasionTitleDe", o."titleEn" AS "occasionTitleEn",
          (SELECT COUNT(*) FROM "ListItem" c WHERE c."wishlistId" = w."id") AS "itemCount"
   FROM "Wishlist" w
   JOIN "User" u ON u."id" = w."ownerId"
   LEFT JOIN "Occasion" o ON o."slug" = w."occasionSlug"
   WHERE w."shareToken" = $1`,
  { sharePublic: "bool", isPremium: "bool", createdAt: "date", updatedAt: "date" },
);

/** The list with this share token, its owner's public facts, its occasion's titles and its item count. */
// The public share routes' read (app/db/replica.server.ts: the replica within a publicReads).
export const publicListByToken = (token: string) => readExec(() => one(PUBLIC_LIST, token));
