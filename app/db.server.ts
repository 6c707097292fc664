// The Prisma client for whichever database DATABASE_URL names. Both clients
// are generated from the same schema (npm run db:generate), so the SQLite
// client's type stands for both. They live in node_modules/.wishlist-db/, a
// dot-folder npm never prunes, and are loaded with require() because ESM
// cannot name a dot-folder package.
import { createRequire } from "node:module";
import type * as SqliteClient from "../node_modules/.wishlist-db/sqlite/index.js";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "~/env.server";
import { parseDatabaseUrl } from "~/db/url";

const require = createRequire(import.meta.url);
const { PrismaClient } = require(".wishlist-db/sqlite") as typeof SqliteClient;
const { PrismaClient: PostgresClient } = require(".wishlist-db/postgresql") as typeof SqliteClient;

export type { Prisma } from "../node_modules/.wishlist-db/sqlite/index.js";
export type Db = SqliteClient.PrismaClient;

export function createDb(databaseUrl: string): Db {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === "sqlite") {
    return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: target.file, timeout: 10_000 }) });
  }
  return new PostgresClient({ adapter: new PrismaPg({ connectionString: target.url }) }) as unknown as Db;
}

// One client per process, also across dev-server reloads.
const globalForDb = globalThis as unknown as { __wishDb?: Db };
export const db: Db = (globalForDb.__wishDb ??= createDb(env.DATABASE_URL));
