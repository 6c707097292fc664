// Deletes rows of several domains that only serve a short window: request-counter
// minute windows (only the current minute is read) and usage dedup keys (a
// share counts once per UTC day, a view once per 10-minute window), and
// sign-in throttle rows past their reset window (a day), and the e-mail
// quota's counts of days before yesterday, and one-time account links a day
// past their expiry; and creator-media
// uploads nobody finalised within a day, with their stored bytes. Every
// statement deletes at most PRUNE_BATCH rows found through an index range,
// and the job yields to the event loop between statements, so a backlog of
// any size never blocks requests for long (SQLite statements run
// synchronously) and the cost does not grow with the tables.
import { deleteMinuteWindows, deleteSignInThrottle, deleteUsageDedup } from "~/domains/metering/pruning.sql.server";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { minuteWindow } from "~/domains/metering/request-counter.server";
import { THROTTLE_ROWS_KEPT_MS } from "~/domains/identity/sign-in-throttle.server";
import { pruneAbandonedUploads } from "~/domains/media/creator-media.server";
import { pruneAlertDays } from "~/domains/alerts/alerts.server";
import { pruneEmailQuota } from "~/domains/identity/email-quota.server";
import { pruneAccountTokens } from "~/domains/identity/account.server";

export const PRUNE_BATCH = 500;
/** Minute windows older than this go. */
const MINUTE_WINDOWS_KEPT_MS = 60 * 60_000;
/** Dedup keys older than this go: well past the longest window a key serves (one UTC day). */
export const DEDUP_KEYS_KEPT_MS = 2 * 86_400_000;
/** Keys of a calendar month's bounds (`month:…`) are kept past the longest month. */
export const MONTH_KEYS_KEPT_MS = 32 * 86_400_000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs a DELETE of at most PRUNE_BATCH rows until one comes back short, yielding between them; returns the rows deleted. */
async function inBatches(deleteBatch: () => Promise<number>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await deleteBatch();
    deleted += count;
    if (count < PRUNE_BATCH) return deleted;
    await yieldToEventLoop();
  }
}

// Windows below this were deleted by an earlier run of this process, so a run
// starts its range there instead of walking past every month row again. It
// trails the last cutoff by an hour for counts another instance flushed late.
let counterFloor = "";

/** Deletes minute windows older than an hour (month windows stay); returns how many. */
export async function pruneRequestCounters(now = new Date()): Promise<number> {
  const cutoff = minuteWindow(new Date(now.getTime() - MINUTE_WINDOWS_KEPT_MS));
  let from = counterFloor;
  let deleted = 0;
  for (;;) {
    const windows = await deleteMinuteWindows(from, cutoff, PRUNE_BATCH);
    deleted += windows.length;
    if (windows.length < PRUNE_BATCH) break;
    from = windows.reduce((max, w) => (w > max ? w : max), from);
    await yieldToEventLoop();
  }
  counterFloor = minuteWindow(new Date(now.getTime() - 2 * MINUTE_WINDOWS_KEPT_MS));
  return deleted;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC): how the databases' CURRENT_TIMESTAMP default writes `createdAt`. */
const sqlTimestamp = (d: Date) => d.toISOString().slice(0, 19).replace("T", " ");

/**
 * Deletes usage dedup keys older than DEDUP_KEYS_KEPT_MS, oldest first, and
 * the month's keys (`month:…`, the Free plan's monthly shares) older than
 * MONTH_KEYS_KEPT_MS; returns how many.
 */
export async function pruneUsageDedup(now = new Date()): Promise<number> {
  const cutoff = sqlTimestamp(new Date(now.getTime() - DEDUP_KEYS_KEPT_MS));
  const monthCutoff = sqlTimestamp(new Date(now.getTime() - MONTH_KEYS_KEPT_MS));
  return inBatches(() => deleteUsageDedup(cutoff, monthCutoff, PRUNE_BATCH));
}

/** Deletes sign-in throttle rows past their reset window (they would start from zero anyway); returns how many. */
export async function pruneSignInThrottle(now = Date.now()): Promise<number> {
  const cutoff = now - THROTTLE_ROWS_KEPT_MS;
  return inBatches(() => deleteSignInThrottle(cutoff, PRUNE_BATCH));
}

/** Deletes creator-media uploads not finalised within a day, and their objects; returns how many. */
export async function pruneMediaUploads(now = Date.now()): Promise<number> {
  let deleted = 0;
  for (;;) {
    const pass = await pruneAbandonedUploads(PRUNE_BATCH, now);
    deleted += pass.deleted;
    if (!pass.more) return deleted;
    await yieldToEventLoop();
  }
}

let running: Promise<void> | null = null;

/** One pass over the tables; overlapping calls share the pass. */
export function prune(): Promise<void> {
  return (running ??= (async () => {
    for (const [table, job] of [
      ["ApiKeyRequestCounter", pruneRequestCounters],
      ["UsageDedup", pruneUsageDedup],
      ["SignInThrottle", pruneSignInThrottle],
      ["MediaUpload", pruneMediaUploads],
      ["AlertDay", pruneAlertDays],
      ["EmailQuota", pruneEmailQuota],
      ["AccountToken", pruneAccountTokens],
    ] as const) {
      try {
        const deleted = await job();
        if (deleted > 0) log.debug("pruned", { table, deleted });
      } catch (err) {
        log.error("prune failed", { table, ...errorFields(err) });
      }
    }
  })().finally(() => (running = null)));
}

let timer: NodeJS.Timeout | null = null;

export function startPruning(): void {
  if (timer) return;
  timer = setInterval(() => void prune(), env.PRUNE_INTERVAL_MS);
  timer.unref();
}

/** Stops the timer and waits for a pass under way, so shutdown does not close the database under it. */
export async function stopPruning(): Promise<void> {
  if (timer) clearInterval(timer);
  timer = null;
  await running;
}
