// The Prisma client for whichever database DATABASE_URL names. Both clients
// are generated from the same schema, so the SQLite client's type stands for
// both.
import { PrismaClient } from "@wishlist-db/sqlite";
import { PrismaClient as PostgresClient } from "@wishlist-db/postgresql";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "~/env.server";
import { parseDatabaseUrl } from "~/db/url";

export type { Prisma } from "@wishlist-db/sqlite";
export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === "sqlite") {
    return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: target.file, timeout: 10_000 }) });
  }
  return new PostgresClient({ adapter: new PrismaPg({ connectionString: target.url }) }) as unknown as Db;
}

export const isPostgres = parseDatabaseUrl(env.DATABASE_URL).kind === "postgresql";

// One client per process, also across dev-server reloads.
const globalForDb = globalThis as unknown as { __wishDb?: Db };
export const db: Db = (globalForDb.__wishDb ??= createDb(env.DATABASE_URL));
