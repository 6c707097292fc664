// Work that runs beside requests in every app instance: flushing per-key
// request counts and delivering the outbox. Started and stopped by the
// server entry (app/server/main.ts) through entry.server.tsx.
import { startRequestCounterFlush, stopRequestCounterFlush } from "~/domains/metering/request-counter.server";

export function startBackgroundJobs(): void {
  startRequestCounterFlush();
}

/** Stops the timers and writes what is pending, so a shutdown loses no counts. */
export async function stopBackgroundJobs(): Promise<void> {
  await stopRequestCounterFlush();
}
