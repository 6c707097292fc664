// Work that runs beside requests in every app instance: flushing per-key
// request counts, pruning old metering rows, delivering the outbox, and
// polling revocations (keys and sign-in sessions). Started and stopped by the server entry
// (app/server/main.ts) through entry.server.tsx.
import { startRequestCounterFlush, stopRequestCounterFlush } from "~/domains/metering/request-counter.server";
import { startPruning, stopPruning } from "~/domains/metering/pruning.server";
import { startOutboxWorker, stopOutboxWorker } from "~/domains/outbox/worker.server";
import { startKeyStatusPoll, stopKeyStatusPoll } from "~/domains/keys/key-status.server";
import { startSessionRevocationPoll, stopSessionRevocationPoll } from "~/domains/identity/session-revocations.server";

export function startBackgroundJobs(): void {
  startRequestCounterFlush();
  startPruning();
  startOutboxWorker();
  startKeyStatusPoll();
  startSessionRevocationPoll();
}

/** Stops the timers and writes what is pending, so a shutdown loses no counts or half-recorded deliveries. */
export async function stopBackgroundJobs(): Promise<void> {
  await Promise.all([stopRequestCounterFlush(), stopPruning(), stopOutboxWorker(), stopKeyStatusPoll(), stopSessionRevocationPoll()]);
}
