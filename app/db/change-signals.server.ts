// What every process keeps in memory about credentials (revoked and rotated
// keys, cached key configuration, ended sign-in sessions) must change on the
// next request of every process when any process changes it — another worker,
// another instance, the CLI (SPEC 5 rule 6: revoke is immediate). A writer
// calls signalChange(topic, payload) right after its write; the views
// register with onChange and call catchUp() before they answer from memory.
//
// - PostgreSQL: the signal is a NOTIFY on one channel. Each serving process
//   LISTENs on a connection of its own and applies the payload when it
//   arrives. While that connection is down, signalsLive() is false and the
//   views read the database per request; it reconnects with backoff, and then
//   every view reloads (notifications sent meanwhile are lost).
// - SQLite: the signal bumps the topic's counter in ChangeSignal. catchUp()
//   reads `PRAGMA data_version` on Prisma's connection (it changes only when
//   another connection committed) and, only then, the counters; a changed
//   counter makes its view reload, and the view reads the database until the
//   reload lands. A few microseconds per request.
//
// The views' polls stay as a safety net (a writer that died between its write
// and its signal).
import type BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { currentSqliteConnection, db } from "~/db.server";
import { env } from "~/env.server";
import { parseDatabaseUrl } from "~/db/url";
import { errorFields, log } from "~/lib/log.server";

export type ChangeTopic = "key-status" | "key-config" | "revoked-sessions";

export interface ChangeHandler<T> {
  /** A change another process announced with its payload (PostgreSQL). */
  apply(payload: T): void;
  /** Something changed, details unknown: forget or reload the whole view (and distrust it until then). */
  reload(): void;
}

const CHANNEL = "wish_changes";
/** NOTIFY payloads must stay under 8000 bytes; a larger change is announced without details. */
const MAX_PAYLOAD_BYTES = 7000;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

const target = parseDatabaseUrl(env.DATABASE_URL);
const handlers = new Map<ChangeTopic, ChangeHandler<unknown>>();

export function onChange<T>(topic: ChangeTopic, handler: ChangeHandler<T>): void {
  if (handlers.has(topic)) throw new Error(`change topic ${topic} has a handler already`);
  handlers.set(topic, handler as ChangeHandler<unknown>);
}

// ---------------------------------------------------------------- writers

const pending = new Set<Promise<void>>();

/**
 * Tells every other process that `topic` changed (after the write has
 * committed). Never throws: the write stands, and the polls catch up if the
 * signal is lost.
 */
export function signalChange(topic: ChangeTopic, payload: unknown): Promise<void> {
  const sent = send(topic, payload).catch((err) => log.error("change signal failed", { topic, ...errorFields(err) }));
  pending.add(sent);
  void sent.finally(() => pending.delete(sent));
  return sent;
}

async function send(topic: ChangeTopic, payload: unknown): Promise<void> {
  if (target.kind === "postgresql") {
    let message = JSON.stringify({ topic, payload });
    if (Buffer.byteLength(message) > MAX_PAYLOAD_BYTES) message = JSON.stringify({ topic, payload: null });
    await db.$executeRawUnsafe(`SELECT pg_notify($1, $2)`, CHANNEL, message);
    return;
  }
  await db.$executeRawUnsafe(
    `INSERT INTO "ChangeSignal" ("topic", "generation") VALUES (?, 1)
     ON CONFLICT ("topic") DO UPDATE SET "generation" = "generation" + 1`,
    topic,
  );
}

/** Waits for the signals sent so far (a short-lived process, like the CLI, before it disconnects). */
export async function settleChangeSignals(): Promise<void> {
  await Promise.all(pending);
}

// ---------------------------------------------------------------- SQLite readers

interface SqliteWatch {
  connection: BetterSqlite3.Database;
  dataVersion: BetterSqlite3.Statement;
  counters: BetterSqlite3.Statement;
  lastVersion: unknown;
}

let watch: SqliteWatch | null = null;
const seen = new Map<string, number>();

/**
 * Reloads the views another process changed since the last call (SQLite;
 * PostgreSQL's notifications apply as they arrive). Call before answering
 * from a view.
 */
export function catchUp(): void {
  if (target.kind !== "sqlite") return;
  const connection = currentSqliteConnection();
  if (!connection) return; // not connected yet: nothing cached from it either
  if (watch?.connection !== connection) {
    const dataVersion = connection.prepare(`PRAGMA data_version`).pluck();
    const counters = connection.prepare(`SELECT "topic", "generation" FROM "ChangeSignal"`).raw();
    for (const statement of [dataVersion, counters]) statement.safeIntegers(false);
    watch = { connection, dataVersion, counters, lastVersion: undefined };
  }
  const version = watch.dataVersion.get();
  if (version === watch.lastVersion) return;
  watch.lastVersion = version;
  for (const [topic, generation] of watch.counters.all() as [string, number][]) {
    if (seen.get(topic) === generation) continue;
    // The first reading counts as a change: the view may have loaded before it.
    seen.set(topic, generation);
    handlers.get(topic as ChangeTopic)?.reload();
  }
}

// ---------------------------------------------------------------- PostgreSQL listener

let listener: pg.Client | null = null;
let live = target.kind === "sqlite";
let stopped = true;
let retryMs = RECONNECT_MIN_MS;
let retryTimer: NodeJS.Timeout | null = null;

/** False on PostgreSQL while this process is not listening: views must not trust their memory then. */
export const signalsLive = (): boolean => live;

/** Starts listening for other processes' changes (serving processes; PostgreSQL only). */
export function startChangeListener(): void {
  if (target.kind !== "postgresql" || !stopped) return;
  stopped = false;
  // LISTEN is session state: a transaction-mode pooler in DATABASE_URL would drop it, so DATABASE_DIRECT_URL when set.
  void listen(env.DATABASE_DIRECT_URL ?? target.url);
}

export async function stopChangeListener(): Promise<void> {
  stopped = true;
  if (retryTimer) clearTimeout(retryTimer);
  const client = listener;
  listener = null;
  live = false;
  await client?.end().catch(() => {});
}

async function listen(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  let lost = false;
  const onLost = (err?: Error) => {
    if (lost) return;
    lost = true;
    if (listener === client) listener = null;
    live = false;
    client.end().catch(() => {});
    if (stopped) return;
    log.error("change listener lost its connection, reconnecting", { retry_in_ms: retryMs, ...(err ? errorFields(err) : {}) });
    retryTimer = setTimeout(() => void listen(url), retryMs);
    retryTimer.unref();
    retryMs = Math.min(RECONNECT_MAX_MS, retryMs * 2);
  };
  client.on("error", onLost);
  client.on("end", () => onLost());
  client.on("notification", (message) => {
    if (message.channel !== CHANNEL || !message.payload) return;
    let parsed: { topic?: string; payload?: unknown };
    try {
      parsed = JSON.parse(message.payload);
    } catch {
      return;
    }
    const handler = handlers.get(parsed.topic as ChangeTopic);
    if (!handler) return;
    if (parsed.payload === null || parsed.payload === undefined) handler.reload();
    else handler.apply(parsed.payload);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
  } catch (err) {
    onLost(err as Error);
    return;
  }
  if (stopped || lost) return void client.end().catch(() => {});
  listener = client;
  live = true;
  retryMs = RECONNECT_MIN_MS;
  // Whatever changed before this connection listened (at start, or while it was down) is reloaded.
  for (const handler of handlers.values()) handler.reload();
}
