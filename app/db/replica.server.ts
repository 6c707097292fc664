// The optional read replica (DATABASE_REPLICA_URL, a PostgreSQL hot standby
// of DATABASE_URL's database): public reads that may be a moment stale come
// from it, everything else from the primary (docs/operations.md "With a read
// replica").
//
// - Which reads: code marks a piece of work with `publicReads(fn)`; inside it
//   `readDb` (Prisma, reads only) and `readExec` (hot statements,
//   app/db/sql.server.ts) use the replica. Outside one, and for every write
//   (`db`, `exec`, `transaction`), the primary, so a helper shared with
//   signed-in paths can read through `readDb` safely.
// - Staleness: the replica is used only while a measurement of its lag,
//   taken at most DATABASE_REPLICA_CHECK_MS ago, found it at most
//   DATABASE_REPLICA_MAX_LAG_MS behind; a read therefore misses at most the
//   writes of the last MAX_LAG + CHECK ms.
// - Read-your-writes: a user who wrote through this instance (any API write
//   with their token, shared with the other workers) reads from the primary
//   for that long after it, and so does a request that asks for it (`fresh`).
// - Failures: a replica read that fails is run again on the primary and the
//   replica is left alone until it is measured again; a replica that cannot be
//   measured is not used. A replica outage never fails a read the primary answers.
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { alsoOnClose, db, dedicatedConnection, postgresClientOn, postgresTimeouts, primaryFlushLsn, survivingPool, type Db } from "~/db.server";
import { env, poolSizePerWorker } from "~/env.server";
import { log } from "~/lib/log.server";
import { onSiblingMessage, tellSiblings } from "~/lib/sibling-bus.server";

type Source = "replica" | "primary";

const readSource = new AsyncLocalStorage<Source>();

export const replicaConfigured = (): boolean => env.DATABASE_REPLICA_URL !== undefined;

// ---------------------------------------------------------------- the replica's connections

let pool: pg.Pool | null = null;
let client: Db | null = null;

/**
 * The replica's pool: as large as the primary's pool of a worker
 * (poolSizePerWorker); with the measurement's connection a worker opens its
 * share of DATABASE_POOL_SIZE less one (it has no change listener there). A
 * hot standby's max_connections must be at least the primary's anyway.
 */
export function replicaPool(): pg.Pool {
  if (!env.DATABASE_REPLICA_URL) throw new Error("DATABASE_REPLICA_URL is not set");
  return (pool ??= survivingPool({ connectionString: env.DATABASE_REPLICA_URL, max: poolSizePerWorker(env), allowExitOnIdle: true, ...postgresTimeouts() }));
}

function replicaClient(): Db {
  return (client ??= postgresClientOn(replicaPool()));
}

/**
 * The lag measurement's own replica connection (opened on first use,
 * replaced after any failure): not from the pool, where under load it would
 * queue behind the public reads, time out, and turn the replica off exactly
 * when it is needed.
 */
const lagConnection = dedicatedConnection(env.DATABASE_REPLICA_URL ?? "");

alsoOnClose(async () => {
  const [c, p] = [client, pool];
  client = pool = null;
  await c?.$disconnect();
  if (p && !p.ended) await p.end();
  await lagConnection.end();
});

// ---------------------------------------------------------------- how far behind it is

interface Measurement {
  usable: boolean;
  /** When the measurement started (so its age is never understated). */
  at: number;
  lagMs: number | null;
  reason: string;
}

let measured: Measurement = { usable: false, at: 0, lagMs: null, reason: "not measured yet" };
let measuring: Promise<Measurement> | null = null;

// Compared with the primary's flushed WAL (what it can have sent): caught up means lag 0,
// also on an idle primary, where the age of the last replayed commit says nothing.
const REPLICA_STATE = `SELECT pg_is_in_recovery() AS standby,
  pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up,
  (EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS behind_ms`;

async function measure(): Promise<Measurement> {
  const at = Date.now();
  const timeout = env.DATABASE_HEALTH_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeout} ms`)), timeout);
  });
  const read = (async (): Promise<Measurement> => {
    // The primary first: whatever it had flushed then, a caught-up replica has replayed.
    const lsn = await primaryFlushLsn(timeout);
    const state = (
      await lagConnection.query<{ standby: boolean; caught_up: boolean | null; behind_ms: number | null }>({
        text: REPLICA_STATE,
        values: [lsn],
        query_timeout: timeout,
      } as pg.QueryConfig)
    ).rows[0]!;
    // Promoted (a failover): it no longer follows DATABASE_URL, so what it holds may diverge.
    if (!state.standby) return { usable: false, at, lagMs: null, reason: "not a standby (promoted?)" };
    const lagMs = state.caught_up ? 0 : state.behind_ms;
    if (lagMs === null) return { usable: false, at, lagMs, reason: "nothing replayed yet" };
    if (lagMs > env.DATABASE_REPLICA_MAX_LAG_MS) return { usable: false, at, lagMs, reason: "lagging beyond DATABASE_REPLICA_MAX_LAG_MS" };
    return { usable: true, at, lagMs, reason: "ok" };
  })();
  read.catch(() => {});
  try {
    return await Promise.race([read, deadline]);
  } catch (err) {
    return { usable: false, at, lagMs: null, reason: `not measured: ${(err as Error).message}`.slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

function record(next: Measurement): void {
  // A measurement that started before a replica read failed does not undo what the failure said.
  if (next.at < measured.at) return;
  if (next.usable !== measured.usable) {
    if (next.usable) log.info("read replica in use", { lag_ms: next.lagMs });
    else log.warn("read replica not used, reading from the primary", { reason: next.reason, lag_ms: next.lagMs });
  }
  measured = next;
}

/**
 * Whether the replica may answer now. A fresh measurement decides at once;
 * an old one is renewed, and while the replica was in use the read waits for
 * the new measurement (so the bound holds); while it was not, the primary
 * answers at once and the measurement runs meanwhile.
 */
async function replicaUsable(): Promise<boolean> {
  if (Date.now() - measured.at <= env.DATABASE_REPLICA_CHECK_MS) return measured.usable;
  const next = (measuring ??= measure()
    .then((m) => (record(m), m))
    .finally(() => (measuring = null)));
  return measured.usable ? (await next).usable : false;
}

/** A replica read failed: the primary answers until the replica is measured again. */
function replicaFailed(err: unknown): void {
  const e = err as { code?: unknown; message?: unknown };
  const reason = `read failed: ${typeof e?.code === "string" ? `${e.code} ` : ""}${String(e?.message ?? err).slice(0, 200)}`;
  record({ usable: false, at: Date.now(), lagMs: null, reason });
}

// ---------------------------------------------------------------- read-your-writes

const WROTE = "replica:wrote";
/** userId → until when their reads go to the primary; in order of expiry (the window is one length). */
const recentWriters = new Map<string, number>();

/** Long enough for any write to have reached a replica this instance reads from. */
export const readYourWritesMs = () => env.DATABASE_REPLICA_MAX_LAG_MS + env.DATABASE_REPLICA_CHECK_MS + 1000;

function rememberWriter(userId: string): void {
  const now = Date.now();
  recentWriters.delete(userId);
  recentWriters.set(userId, now + readYourWritesMs());
  for (const [id, until] of recentWriters) {
    if (until > now) break;
    recentWriters.delete(id);
  }
}

if (replicaConfigured()) onSiblingMessage<string>(WROTE, rememberWriter);

/** `userId` changed something: their own reads go to the primary for readYourWritesMs() (all workers of this instance). */
export function noteWrite(userId: string): void {
  if (!replicaConfigured()) return;
  rememberWriter(userId);
  tellSiblings(WROTE, userId);
}

function wroteRecently(userId: string): boolean {
  const until = recentWriters.get(userId);
  return until !== undefined && until > Date.now();
}

// ---------------------------------------------------------------- reading

export interface Reader {
  /** The user the reads are for: their own recent writes must show. */
  userId?: string | null;
  /** The client asked for the primary (right after a change of its own). */
  fresh?: boolean;
}

/**
 * Runs `fn` with its `readDb`/`readExec` reads on the replica when one is
 * configured, close enough and `reader` has not just written; on the primary otherwise.
 */
export async function publicReads<T>(fn: () => Promise<T>, reader: Reader = {}): Promise<T> {
  if (!replicaConfigured()) return fn();
  const own = reader.fresh === true || (reader.userId != null && wroteRecently(reader.userId));
  const source: Source = !own && (await replicaUsable()) ? "replica" : "primary";
  return readSource.run(source, fn);
}

/** Runs a read on the replica when the current publicReads chose it, again on the primary if that fails. */
export async function fromReadSource<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
  if (readSource.getStore() !== "replica") return onPrimary();
  try {
    return await onReplica();
  } catch (err) {
    replicaFailed(err);
    return onPrimary();
  }
}

// Prisma's read methods (no *OrThrow: "not found" is an answer, not a replica failure).
const READS = ["findMany", "findFirst", "findUnique", "count", "aggregate", "groupBy"] as const;
type ReadMethod = (typeof READS)[number];
type Models = { [M in keyof Db as Db[M] extends { findMany: unknown } ? M : never]: Db[M] };
/** The Prisma client's models with their read methods only: writes go through `db`. */
export type ReadDb = { [M in keyof Models]: Pick<Models[M], Extract<keyof Models[M], ReadMethod>> };

const readMethods = new Set<string>(READS);
const models = new Map<string, unknown>();

/** Prisma reads on the read source of the current publicReads (the primary outside one). */
export const readDb = new Proxy({} as ReadDb, {
  get(_, model) {
    if (typeof model !== "string") return undefined;
    let delegate = models.get(model);
    if (!delegate) {
      delegate = new Proxy(
        {},
        {
          get(__, method) {
            if (typeof method !== "string" || !readMethods.has(method)) throw new Error(`readDb.${model}.${String(method)}: only reads (${READS.join(", ")})`);
            type Call = (args: unknown) => Promise<unknown>;
            const on = (c: Db) => (c as unknown as Record<string, Record<string, Call>>)[model]![method]!;
            return (args: unknown) =>
              fromReadSource(
                () => on(replicaClient())(args),
                () => on(db)(args),
              );
          },
        },
      );
      models.set(model, delegate);
    }
    return delegate;
  },
});
