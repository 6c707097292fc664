// Recognises database errors that domain code turns into API answers.
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "P2002";
}

// Prisma's codes for "the database did not answer" (can't reach, timed out,
// connection closed, pool timeout, too many connections).
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
// The driver adapters' error kinds behind those codes (also inside P2010, raw queries).
const ADAPTER_UNAVAILABLE = new Set(["DatabaseNotReachable", "SocketTimeout", "ConnectionClosed", "TooManyConnections"]);
// Driver and server codes: SQLite lock waits that ran out, a full disk, a
// read-only file; PostgreSQL statement timeout, shutdown, insufficient
// resources (disk full, out of memory, too many connections), a read-only
// transaction (a connection that reached a standby after a failover),
// connection failures; socket errors.
const DRIVER_UNAVAILABLE = /^(SQLITE_BUSY|SQLITE_LOCKED|SQLITE_FULL|SQLITE_READONLY|57014|57P0[1-3]|53\d\d\d|25006|08\d\d\d|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)/;
// node-postgres throws these without a code (Prisma may wrap them into its own message).
const PG_CLIENT_UNAVAILABLE = /Query read timeout|timeout exceeded when trying to connect|Connection terminated|is not queryable/;

/** The error and what it wraps: Error.cause, and a Prisma error's driver adapter error. */
function* causes(err: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (typeof err !== "object" || err === null || depth > 4) return;
  const e = err as Record<string, unknown>;
  yield e;
  const adapterError = (e.meta as { driverAdapterError?: { cause?: unknown } } | undefined)?.driverAdapterError;
  if (adapterError) yield* causes(adapterError.cause, depth + 1);
  if (e.cause !== undefined) yield* causes(e.cause, depth + 1);
}

/**
 * The database did not answer (unreachable, timed out, locked by another
 * process) rather than refused a statement: worth a 503 and a retry, not a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of causes(err)) {
    if (typeof e.code === "string" && (PRISMA_UNAVAILABLE.has(e.code) || DRIVER_UNAVAILABLE.test(e.code))) return true;
    if (typeof e.kind === "string" && ADAPTER_UNAVAILABLE.has(e.kind)) return true;
    if (typeof e.originalCode === "string" && DRIVER_UNAVAILABLE.test(e.originalCode)) return true;
    if (typeof e.message === "string" && PG_CLIENT_UNAVAILABLE.test(e.message)) return true;
  }
  return false;
}

/** The driver's own code of a database error (e.g. SQLITE_BUSY, 57014), when it has one besides Prisma's. */
export function driverCode(err: unknown): string | undefined {
  let first = true;
  for (const e of causes(err)) {
    const code = e.originalCode ?? (first ? undefined : e.code);
    first = false;
    if (typeof code === "string" || typeof code === "number") return String(code);
  }
  return undefined;
}
