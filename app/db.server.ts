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
import { log } from "~/lib/log.server";
import { postgresPool, postgresTimeouts, shareSqliteConnection } from "~/db/sql.server";

const require = createRequire(import.meta.url);

export type { Prisma } from "../node_modules/.wishlist-db/sqlite/index.js";
// Model row types, e.g. for the prepared statements' rows (app/db/sql.server.ts).
export type { ListItem, Product, ProductLocalization, User, Wishlist } from "../node_modules/.wishlist-db/sqlite/index.js";
export type Db = SqliteClient.PrismaClient;

export function createDb(databaseUrl: string): Db {
  const target = parseDatabaseUrl(databaseUrl);
  // LOG_LEVEL=debug logs every statement ("db query"), e.g. to see what a request costs.
  const queryLog = env.LOG_LEVEL === "debug" ? [{ emit: "event" as const, level: "query" as const }] : [];
  // Only the client of the database in use is loaded (each takes a while to load).
  const client =
    target.kind === "sqlite"
      ? new (require(".wishlist-db/sqlite") as typeof SqliteClient).PrismaClient({
          // The busy timeout: how long a statement waits for another process's write lock.
          adapter: sharingConnection(new PrismaBetterSQLite3({ url: target.file, timeout: env.DATABASE_CONNECT_TIMEOUT_MS })),
          log: queryLog,
        })
      : (new (require(".wishlist-db/postgresql") as typeof SqliteClient).PrismaClient({
          // DATABASE_URL's pool is shared with the hot statements (the connection budget, DATABASE_POOL_SIZE).
          adapter: new PrismaPg(databaseUrl === env.DATABASE_URL ? postgresPool() : { connectionString: target.url, ...postgresTimeouts() }),
          log: queryLog,
        }) as unknown as Db);
  if (queryLog.length) {
    const events = client as unknown as { $on: (event: "query", cb: (e: { query: string }) => void) => void };
    events.$on("query", (e) => log.debug("db query", { query: e.query }));
  }
  return client;
}

/**
 * The adapter's connection, adjusted once it opens:
 * - handed to the hot statements (app/db/sql.server.ts), so both use one;
 * - its transactions `BEGIN IMMEDIATE` (it sends a deferred `BEGIN`). With
 *   several processes on one file (WEB_CONCURRENCY, instances), a deferred
 *   transaction that reads and then writes fails with SQLITE_BUSY at once when
 *   another process wrote meanwhile; an immediate one takes the write lock up
 *   front, so it waits (busy timeout) instead.
 */
function sharingConnection(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client: Parameters<typeof shareSqliteConnection>[0] }).client;
    const prepare = client.prepare.bind(client);
    client.prepare = ((sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql)) as typeof client.prepare;
    shareSqliteConnection(client);
    return adapter;
  };
  return factory;
}

// One client per process, also across dev-server reloads.
const globalForDb = globalThis as unknown as { __wishDb?: Db };
export const db: Db = (globalForDb.__wishDb ??= createDb(env.DATABASE_URL));
