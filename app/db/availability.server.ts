// Whether this process can reach its database right now, and the one log
// record of an outage: "database unavailable" when the first call fails
// (then at most once a minute while it lasts, with the count), "database
// available again" when a probe answers. While it is down a probe runs every
// second, and SQLite waits only briefly for another process's write lock:
// better-sqlite3 waits synchronously, so every write would otherwise hold the
// whole process for the full busy timeout.
import { driverCode } from "~/db/errors";
import { errorSummary, log } from "~/lib/log.server";

const PROBE_INTERVAL_MS = 1000;
const STILL_DOWN_LOG_MS = 60_000;
/** SQLite's lock wait while down: long enough for another worker's short write, too short to stall the process. */
export const LOCK_WAIT_WHILE_DOWN_MS = 50;

interface Hooks {
  /** Runs one cheap statement; rejects when the database does not answer. */
  probe: () => Promise<void>;
  /** SQLite: sets how long a statement waits for another process's lock. */
  setLockWait: (ms: number) => void;
  /** The lock wait when the database answers (DATABASE_CONNECT_TIMEOUT_MS). */
  normalLockWait: number;
}

let hooks: Hooks | null = null;
let outage: { since: number; failures: number; lastLogged: number; timer: NodeJS.Timeout; probing: boolean } | null = null;

/** Called once by the database layer (app/db.server.ts). */
export function configureAvailability(h: Hooks): void {
  hooks = h;
}

export const databaseDown = (): boolean => outage !== null;

/** A call found the database not answering (`where`: the request or job). */
export function noteUnavailable(err: unknown, where: string): void {
  const now = Date.now();
  const fields = { where, ...errorSummary(err), ...(driverCode(err) ? { db_code: driverCode(err) } : {}) };
  if (outage) {
    outage.failures++;
    if (now - outage.lastLogged >= STILL_DOWN_LOG_MS) {
      outage.lastLogged = now;
      log.error("database still unavailable", { down_ms: now - outage.since, failures: outage.failures, ...fields });
    }
    return;
  }
  log.error("database unavailable", fields);
  hooks?.setLockWait(LOCK_WAIT_WHILE_DOWN_MS);
  const timer = setInterval(() => void probe(), PROBE_INTERVAL_MS);
  timer.unref();
  outage = { since: now, failures: 1, lastLogged: now, timer, probing: false };
}

/** A call reached the database: ends an outage. */
export function noteAvailable(): void {
  if (!outage) return;
  clearInterval(outage.timer);
  log.warn("database available again", { down_ms: Date.now() - outage.since, failures: outage.failures });
  outage = null;
  hooks?.setLockWait(hooks.normalLockWait);
}

async function probe(): Promise<void> {
  if (!outage || outage.probing || !hooks) return;
  outage.probing = true;
  try {
    await hooks.probe();
    noteAvailable();
  } catch {
    // Still down; the next tick tries again.
  } finally {
    if (outage) outage.probing = false;
  }
}
