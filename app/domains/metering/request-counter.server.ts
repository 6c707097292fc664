// Requests per public key behind the informational X-RateLimit-* and
// X-Usage-* headers (SPEC 8.3). Counting happens in memory; a background
// flush adds each instance's deltas to the database in one atomic statement
// per key and window and reads back the totals of all instances. So no
// request waits for a database write, and figures lag by at most a flush
// interval across instances. Nothing is ever rejected.
import { addToRequestCount } from "./request-counter.sql.server";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { getRequestPlan, REQUEST_PLANS } from "~/domains/plans/plans";

interface KeyState {
  month: string;
  monthBase: number;
  monthPending: number;
  minute: string;
  minuteBase: number;
  minutePending: number;
}

const states = new Map<number, KeyState>();
/** `${apiKeyId}|${window}` → requests not yet written. */
let pending = new Map<string, number>();

const monthWindow = (d: Date) => d.toISOString().slice(0, 7);
export const minuteWindow = (d: Date) => d.toISOString().slice(0, 16);

function stateOf(apiKeyId: number, now: Date): KeyState {
  const month = monthWindow(now);
  const minute = minuteWindow(now);
  let s = states.get(apiKeyId);
  if (!s) {
    s = { month, monthBase: 0, monthPending: 0, minute, minuteBase: 0, minutePending: 0 };
    states.set(apiKeyId, s);
  }
  if (s.month !== month) Object.assign(s, { month, monthBase: 0, monthPending: 0 });
  if (s.minute !== minute) Object.assign(s, { minute, minuteBase: 0, minutePending: 0 });
  return s;
}

/** Where a key stands after a request (the X-RateLimit-* / X-Usage-* headers show it). */
export interface RequestUsage {
  perMinute: number;
  minuteRemaining: number;
  /** When the minute window ends. */
  resetAt: Date;
  month: number;
  monthlyCalls: number;
  /** In the SPEC's currency units. */
  overage: number;
}

/** Counts one request of the key and returns where the key stands. */
export function countRequest(apiKeyId: number, requestPlanId: string, now = new Date()): RequestUsage {
  const s = stateOf(apiKeyId, now);
  s.monthPending++;
  s.minutePending++;
  for (const window of [s.month, s.minute]) {
    const k = `${apiKeyId}|${window}`;
    pending.set(k, (pending.get(k) ?? 0) + 1);
  }
  return usageOf(s, requestPlanId, now);
}

function usageOf(s: KeyState, requestPlanId: string, now: Date): RequestUsage {
  const plan = getRequestPlan(requestPlanId) ?? REQUEST_PLANS[0]!;
  const minute = s.minuteBase + s.minutePending;
  const month = s.monthBase + s.monthPending;
  const reset = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 60_000);
  const overage = (Math.max(0, month - plan.monthlyCalls) / 1000) * plan.overagePer1000;
  return {
    perMinute: plan.perMinute,
    minuteRemaining: Math.max(0, plan.perMinute - minute),
    resetAt: reset,
    month,
    monthlyCalls: plan.monthlyCalls,
    overage,
  };
}

/** The key's counts as this instance sees them (database totals plus what is not yet flushed). */
export function localCounts(apiKeyId: number): { month: number; minute: number } {
  const s = stateOf(apiKeyId, new Date());
  return { month: s.monthBase + s.monthPending, minute: s.minuteBase + s.minutePending };
}

let flushing: Promise<void> | null = null;

/** Writes pending deltas; safe to call any time (calls overlap into one). */
export function flushRequestCounts(): Promise<void> {
  return (flushing ??= doFlush().finally(() => (flushing = null)));
}

async function doFlush() {
  const batch = pending;
  pending = new Map();
  for (const [k, delta] of batch) {
    const [id, window] = k.split("|") as [string, string];
    const apiKeyId = Number(id);
    try {
      const total = await addToRequestCount(apiKeyId, window, delta);
      const s = states.get(apiKeyId);
      if (s?.month === window) Object.assign(s, { monthBase: total, monthPending: Math.max(0, s.monthPending - delta) });
      if (s?.minute === window) Object.assign(s, { minuteBase: total, minutePending: Math.max(0, s.minutePending - delta) });
    } catch (err) {
      // Keep the delta for the next flush rather than losing it.
      pending.set(k, (pending.get(k) ?? 0) + delta);
      log.error("request counter flush failed", errorFields(err));
    }
  }
  // Old minute windows are deleted by the prune job (pruning.server.ts).
}

let timer: NodeJS.Timeout | null = null;

export function startRequestCounterFlush(): void {
  if (timer) return;
  timer = setInterval(() => void flushRequestCounts(), env.REQUEST_COUNTER_FLUSH_MS);
  timer.unref();
}

export async function stopRequestCounterFlush(): Promise<void> {
  if (timer) clearInterval(timer);
  timer = null;
  await flushRequestCounts();
}
