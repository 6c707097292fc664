// Work that runs beside requests in every app instance: flushing per-key
// request counts and delivering the outbox. Started and stopped by the
// server entry (app/server/main.ts) through entry.server.tsx.
import { startRequestCounterFlush, stopRequestCounterFlush } from "~/domains/metering/request-counter.server";
import { startOutboxWorker, stopOutboxWorker } from "~/domains/outbox/worker.server";

export function startBackgroundJobs(): void {
  startRequestCounterFlush();
  startOutboxWorker();
}

/** Stops the timers and writes what is pending, so a shutdown loses no counts or half-recorded deliveries. */
export async function stopBackgroundJobs(): Promise<void> {
  await Promise.all([stopRequestCounterFlush(), stopOutboxWorker()]);
}
