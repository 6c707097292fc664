// Identity's hot read: `GET /auth/user` and the site session's token run on
// every page load of a signed-in client.
import type { User } from "~/db.server";
import { exec, fields, one, statement, type RowOf } from "~/db/sql.server";

const USER = fields<User>()("id", "email", "isAnonymous", "displayName", "createdAt", "updatedAt", "lastSignInAt");
/** What a session and the user's JSON are made from. */
export type UserRow = RowOf<typeof USER>;

const USER_BY_ID = statement<UserRow>("user_by_id", `SELECT ${USER.sql()} FROM "User" WHERE "id" = $1`, {
  isAnonymous: "bool",
  createdAt: "date",
  updatedAt: "date",
  lastSignInAt: "date",
});

export const userById = (id: string): Promise<UserRow | undefined> => exec(one(USER_BY_ID, id));
