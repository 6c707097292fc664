// How busy this process is, as the HTTP server's load shedding counts it
// (app/server/load-shedding.ts), for /health to report. The server and the
// server build load their own copies of this module, so the figures live on
// one global both copies read.

export interface Capacity {
  /** Requests being answered now that count against the bound. */
  inFlight: number;
  /** The bound (MAX_REQUESTS_IN_FLIGHT). */
  limit: number;
  /** Requests refused with 503 since the process started. */
  shed: number;
  /** At the bound now, or refused a request within the last SATURATED_WINDOW_MS. */
  saturated: boolean;
  /** PostgreSQL: the pool's queue now. */
  databaseQueue?: DatabaseQueue;
}

export interface DatabaseQueue {
  /** Requests waiting for a pooled connection. */
  waiting: number;
  /** How long a request joining the queue now would wait, as the pool estimates it. */
  waitMs: number;
  /** DATABASE_QUEUE_WAIT_MS: past it new requests are shed. */
  maxWaitMs: number;
}

/** A process that shed a request this recently still counts as saturated. */
export const SATURATED_WINDOW_MS = 10_000;

const KEY = Symbol.for("wishlist.capacity");
type Holder = { [KEY]?: () => Capacity };

/** Called once by the HTTP server with what it counts. */
export function publishCapacity(read: () => Capacity): void {
  (globalThis as Holder)[KEY] = read;
}

const QUEUE_KEY = Symbol.for("wishlist.database-queue");
type QueueHolder = { [QUEUE_KEY]?: () => DatabaseQueue };

/** Called once by the PostgreSQL pool (db.server.ts), which lives in the server build. */
export function publishDatabaseQueue(read: () => DatabaseQueue): void {
  (globalThis as QueueHolder)[QUEUE_KEY] = read;
}

/** The pool's queue; null before the pool exists and on SQLite. */
export function databaseQueue(): DatabaseQueue | null {
  return (globalThis as QueueHolder)[QUEUE_KEY]?.() ?? null;
}

/** This process's figures; null where no bounded server runs (dev server, CLI). */
export function currentCapacity(): Capacity | null {
  return (globalThis as Holder)[KEY]?.() ?? null;
}
