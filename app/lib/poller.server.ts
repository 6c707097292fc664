// A background loop that refreshes an in-memory view of the database every
// `intervalMs` (one query per instance and interval instead of one per
// request). Polls never overlap; a failed poll is logged and retried at the
// next tick. `isFresh()` says whether the view can be trusted: callers fall
// back to reading the database while polls keep failing or before the first.
import { errorFields, log } from "~/lib/log.server";

export interface Poller {
  start(): void;
  stop(): Promise<void>;
  /** Polls now (or joins the poll under way). */
  pollNow(): Promise<void>;
  /** A poll that starts after this call (one under way may have read too early). */
  refresh(): Promise<void>;
  /** True while the last successful poll is recent (3 intervals, at least 5 s). */
  isFresh(): boolean;
}

export function createPoller(name: string, intervalMs: number, poll: () => Promise<void>): Poller {
  const staleAfterMs = Math.max(3 * intervalMs, 5000);
  let lastOk = 0;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;

  const pollNow = () =>
    (running ??= (async () => {
      const started = Date.now();
      try {
        await poll();
        lastOk = started;
      } catch (err) {
        log.error(`${name} poll failed`, errorFields(err));
      } finally {
        running = null;
      }
    })());

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void pollNow().finally(schedule), intervalMs);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void pollNow().finally(schedule);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    pollNow,
    async refresh() {
      await running;
      await pollNow();
    },
    isFresh: () => lastOk > 0 && Date.now() - lastOk < staleAfterMs,
  };
}
