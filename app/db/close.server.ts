// Closing the database at shutdown (app/server/main.ts, after the last request and background job).
import { db } from "~/db.server";
import { closeSql } from "~/db/sql.server";

/** Prisma, then the PostgreSQL pool it shares with the hot statements (SQLite's one connection is Prisma's). */
export async function closeDatabase(): Promise<void> {
  await db.$disconnect();
  await closeSql();
}
