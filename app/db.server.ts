// The database connections of this process, owned here and nowhere else: the
// Prisma client for whichever database DATABASE_URL names, and what the
// prepared statements (app/db/sql.server.ts) run on — Prisma's own SQLite
// connection, or the one PostgreSQL pool both share. Both clients are
// generated from the same schema (npm run db:generate), so the SQLite
// client's type stands for both. They live in node_modules/.wishlist-db/, a
// dot-folder npm never prunes, and are loaded with require() because ESM
// cannot name a dot-folder package.
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import type * as SqliteClient from "../node_modules/.wishlist-db/sqlite/index.js";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { env, poolSizePerWorker } from "~/env.server";
import { publishDatabaseQueue } from "~/lib/http/capacity";
import { configureAvailability, databaseDown, LOCK_WAIT_WHILE_DOWN_MS } from "~/db/availability.server";
import { parseDatabaseUrl } from "~/db/url";
import { log } from "~/lib/log.server";

const require = createRequire(import.meta.url);

export type { Prisma } from "../node_modules/.wishlist-db/sqlite/index.js";
// Model row types, from which the prepared statements' rows derive (app/db/sql.server.ts).
export type {
  AlertDay,
  AlertSent,
  AttributedLine,
  AttributedOrder,
  BasketConfig,
  ListImport,
  ListItem,
  Media,
  MediaUpload,
  Notification,
  Occasion,
  OutboxMessage,
  Partner,
  PartnerUser,
  PlatformShop,
  PricePoint,
  ProcessedWebhook,
  Product,
  ProductLocalization,
  ReminderSent,
  SendPace,
  ShopList,
  SignInThrottle,
  UsageCounter,
  UsageDedup,
  User,
  Wishlist,
  WishlistMember,
} from "../node_modules/.wishlist-db/sqlite/index.js";
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
          adapter: new PrismaPg(databaseUrl === env.DATABASE_URL ? postgresPool() : survivingPool({ connectionString: target.url, ...postgresTimeouts() })),
          log: queryLog,
        }) as unknown as Db);
  return logQueries(client, queryLog.length > 0);
}

/** A PostgreSQL Prisma client on `pool` (the read replica's, app/db/replica.server.ts). */
export function postgresClientOn(pool: pg.Pool): Db {
  const debug = env.LOG_LEVEL === "debug";
  const client = new (require(".wishlist-db/postgresql") as typeof SqliteClient).PrismaClient({
    adapter: new PrismaPg(pool),
    log: debug ? [{ emit: "event" as const, level: "query" as const }] : [],
  }) as unknown as Db;
  return logQueries(client, debug);
}

function logQueries(client: Db, on: boolean): Db {
  if (on) {
    const events = client as unknown as { $on: (event: "query", cb: (e: { query: string }) => void) => void };
    events.$on("query", (e) => log.debug("db query", { query: e.query }));
  }
  return client;
}

// ---------------------------------------------------------------- SQLite: Prisma's one connection

let sharedSqlite: BetterSqlite3.Database | null = null;
/** Prisma's interactive transactions, open or waiting for the adapter's lock: each settles when it ends. */
const prismaTransactions = new Set<Promise<void>>();

/**
 * The adapter's connection, adjusted once it opens:
 * - shared with the hot statements, so both use one (they never wait on each
 *   other's write lock);
 * - its transactions `BEGIN IMMEDIATE` (it sends a deferred `BEGIN`). With
 *   several processes on one file (WEB_CONCURRENCY, instances), a deferred
 *   transaction that reads and then writes fails with SQLITE_BUSY at once when
 *   another process wrote meanwhile; an immediate one takes the write lock up
 *   front, so it waits (busy timeout) instead;
 * - each interactive transaction announces its end, for the statements that
 *   wait for it (sqliteConnection).
 */
function sharingConnection(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client: BetterSqlite3.Database }).client;
    const prepare = client.prepare.bind(client);
    client.prepare = ((sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql)) as typeof client.prepare;
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      // Announced before it waits for the adapter's lock and sends BEGIN, so no statement can slip in.
      let ended!: () => void;
      const end = new Promise<void>((resolve) => (ended = resolve));
      const finish = () => {
        prismaTransactions.delete(end);
        ended();
      };
      prismaTransactions.add(end);
      try {
        const transaction = await startTransaction(isolationLevel);
        const { commit, rollback } = transaction;
        transaction.commit = () => commit.call(transaction).finally(finish);
        transaction.rollback = () => rollback.call(transaction).finally(finish);
        return transaction;
      } catch (err) {
        finish();
        throw err;
      }
    };
    sharedSqlite = client;
    client.pragma(`busy_timeout = ${databaseDown() ? LOCK_WAIT_WHILE_DOWN_MS : env.DATABASE_CONNECT_TIMEOUT_MS}`);
    return adapter;
  };
  return factory;
}

/** Prisma's SQLite connection if it is open, for checks that must not wait (app/db/change-signals.server.ts). */
export function currentSqliteConnection(): BetterSqlite3.Database | null {
  return sharedSqlite?.open ? sharedSqlite : null;
}

/**
 * Prisma's SQLite connection (opened if Prisma has not opened it yet), once
 * no Prisma interactive transaction holds it: the hot statements run on it
 * between Prisma's transactions, never inside one.
 */
export async function sqliteConnection(): Promise<BetterSqlite3.Database> {
  if (!sharedSqlite?.open) await db.$connect();
  const connection = sharedSqlite;
  if (!connection?.open) throw new Error("Prisma's SQLite connection is not available");
  while (connection.inTransaction && prismaTransactions.size) await Promise.race(prismaTransactions);
  return connection;
}

// ---------------------------------------------------------------- PostgreSQL: one pool

/**
 * Every PostgreSQL call is bounded, for Prisma's pool and this one: waiting
 * for a connection (a free one, or opening one), and each statement. The
 * server cancels a slow statement itself (statement_timeout, the connection
 * stays usable); the client stops waiting a moment later (query_timeout),
 * for a server that does not answer at all.
 */
export function postgresTimeouts() {
  return {
    connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS,
    statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS,
    query_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS + 1000,
  };
}

let sharedPool: pg.Pool | null = null;

/**
 * This process's PostgreSQL pool: Prisma's adapter and the hot statements
 * share it, so a worker holds at most poolSizePerWorker() connections however
 * the work divides between them (DATABASE_POOL_SIZE).
 */
export function postgresPool(): pg.Pool {
  if (sharedPool) return sharedPool;
  const target = parseDatabaseUrl(env.DATABASE_URL);
  if (target.kind !== "postgresql") throw new Error("DATABASE_URL is not a PostgreSQL URL");
  const max = poolSizePerWorker(env);
  const pool = survivingPool({ connectionString: target.url, max, allowExitOnIdle: true, ...postgresTimeouts() });
  // The HTTP server sheds new requests while the wait would be too long (app/server/load-shedding.ts).
  const waitMs = queueWait(pool, max);
  publishDatabaseQueue(() => ({ waiting: pool.waitingCount, waitMs: waitMs(), maxWaitMs: env.DATABASE_QUEUE_WAIT_MS }));
  return (sharedPool = pool);
}

/**
 * How long a request joining the pool's queue now would wait: the requests
 * ahead of it are served `max` at a time, each turn as long as a connection
 * is usually held. While every connection has been held longer than that
 * (a lock, a stalled database), the youngest hold's age is the better guess.
 */
function queueWait(pool: pg.Pool, max: number): () => number {
  const heldSince = new Map<pg.PoolClient, number>();
  let usualHoldMs = 0;
  pool.on("acquire", (client) => heldSince.set(client, performance.now()));
  pool.on("release", (_err: Error | undefined, client: pg.PoolClient) => {
    const since = heldSince.get(client);
    heldSince.delete(client);
    if (since === undefined) return;
    const held = performance.now() - since;
    usualHoldMs = usualHoldMs === 0 ? held : usualHoldMs * 0.9 + held * 0.1;
  });
  return () => {
    const waiting = pool.waitingCount;
    if (waiting === 0) return 0;
    const now = performance.now();
    let youngest = Infinity;
    for (const since of heldSince.values()) youngest = Math.min(youngest, now - since);
    const turn = heldSince.size >= max ? Math.max(usualHoldMs, youngest) : usualHoldMs;
    return Math.round(Math.ceil((waiting + 1) / max) * turn);
  };
}

/**
 * A pool whose lost connections (PostgreSQL restarted or failed over, the
 * session terminated, a pooler restarted) fail the statements using them,
 * never the process. pg-pool listens for a client's `error` only while the
 * client is idle and removes that listener on checkout, so a connection lost
 * under a transaction (ours or Prisma's) would emit an `error` nobody hears,
 * and Node ends the process. Every client gets a listener of its own for its
 * whole life; the statement in flight fails with the error (a 503), and the
 * pool drops the dead client when it is released.
 */
export function survivingPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on("connect", (client) => client.on("error", () => {}));
  pool.on("error", () => {});
  return pool;
}

// ---------------------------------------------------------------- the process's client

// One client per process, also across dev-server reloads.
const globalForDb = globalThis as unknown as { __wishDb?: Db };
export const db: Db = (globalForDb.__wishDb ??= createDb(env.DATABASE_URL));

const closers: (() => Promise<void>)[] = [];

/** Closes `close` with the database at shutdown (the read replica's connections, app/db/replica.server.ts). */
export function alsoOnClose(close: () => Promise<void>): void {
  closers.push(close);
}

/** At shutdown (app/server/main.ts, after the last request and background job): Prisma, then the pool it shares. */
export async function closeDatabase(): Promise<void> {
  for (const close of closers) await close().catch(() => {});
  await db.$disconnect();
  await healthConnection.end();
  const pool = sharedPool;
  sharedPool = null;
  if (pool && !pool.ended) await pool.end();
}

// ---------------------------------------------------------------- whether it answers

const PROBE = `SELECT 1 FROM "_prisma_migrations" LIMIT 1`;

/** SQLite: takes the write lock and lets go of it, waiting at most `lockWaitMs` for another process's. */
async function probeSqlite(lockWaitMs: number): Promise<void> {
  const connection = await sqliteConnection();
  const wait = connection.pragma("busy_timeout", { simple: true }) as number;
  connection.pragma(`busy_timeout = ${lockWaitMs}`);
  try {
    connection.prepare("BEGIN IMMEDIATE").run();
    connection.prepare(PROBE).all();
  } finally {
    if (connection.inTransaction) connection.prepare("ROLLBACK").run();
    connection.pragma(`busy_timeout = ${wait}`);
  }
}

/**
 * The health check's own PostgreSQL connection (opened on the first probe,
 * replaced after any failure). Not from the pool: under load every pooled
 * connection is busy and requests queue for them, and a probe queued behind
 * them would call a busy but answering database down, so a load balancer
 * would pull every loaded instance at once.
 */
const healthConnection = dedicatedConnection(env.DATABASE_URL);

/**
 * A connection of its own, opened on first use and replaced after any failure,
 * for probes that must not queue behind busy pooled connections (the health
 * check; the read replica's lag measurement, app/db/replica.server.ts).
 */
export function dedicatedConnection(connectionString: string) {
  let connection: Promise<pg.Client> | null = null;
  const forget = (client: pg.Client) => {
    connection = null;
    client.end().catch(() => {});
  };
  const open = () =>
    (connection ??= (async () => {
      const client = new pg.Client({ connectionString, ...postgresTimeouts() });
      client.on("error", () => forget(client));
      await client.connect();
      return client;
    })().catch((err) => {
      connection = null;
      throw err;
    }));
  return {
    /** One statement; a failure drops the connection, the next statement opens another. */
    async query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
      const client = await open();
      try {
        return await client.query<R>(config);
      } catch (err) {
        forget(client);
        throw err;
      }
    },
    async end(): Promise<void> {
      const opened = connection;
      connection = null;
      if (opened) await opened.then((client) => client.end()).catch(() => {});
    },
  };
}

/**
 * The primary's flushed WAL position, read on the health check's connection:
 * the read replica's lag measurement (app/db/replica.server.ts) must not
 * queue behind busy pooled connections either, or the replica would be
 * given up on exactly under load.
 */
export async function primaryFlushLsn(timeoutMs: number): Promise<string> {
  const { rows } = await healthConnection.query<{ lsn: string }>({ text: "SELECT pg_current_wal_flush_lsn()::text AS lsn", query_timeout: timeoutMs } as pg.QueryConfig);
  return rows[0]!.lsn;
}

/** PostgreSQL: one read on the health check's connection. */
async function probePostgres(timeoutMs: number): Promise<void> {
  await healthConnection.query({ text: PROBE, query_timeout: timeoutMs } as pg.QueryConfig);
}

/**
 * Whether the database answers within `timeoutMs` (PostgreSQL: a connection
 * and one read; SQLite: the write lock, which another process may hold;
 * while an outage lasts it waits only briefly for it). Rejects otherwise.
 */
export async function probeDatabase(timeoutMs: number): Promise<void> {
  if (parseDatabaseUrl(env.DATABASE_URL).kind === "sqlite") return probeSqlite(databaseDown() ? LOCK_WAIT_WHILE_DOWN_MS : timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`The database did not answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })), timeoutMs);
  });
  // The probe itself stays bounded by the pool's connection timeout and its own query timeout.
  const probe = probePostgres(timeoutMs);
  probe.catch(() => {});
  try {
    await Promise.race([probe, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

configureAvailability({
  probe: () => probeDatabase(env.DATABASE_HEALTH_TIMEOUT_MS),
  setLockWait: (ms) => {
    if (sharedSqlite?.open) sharedSqlite.pragma(`busy_timeout = ${ms}`);
  },
  normalLockWait: env.DATABASE_CONNECT_TIMEOUT_MS,
});
