// What a worker process reports to the cluster primary (cluster.ts), kept
// apart so that the worker (main.ts) and the primary share it without
// importing each other.
import cluster from "node:cluster";

export type ListeningFields = {
  host: string;
  port: number;
  app_url: string;
  database: string;
};

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const LISTENING = "wish:listening";
/** After the requests (SHUTDOWN_GRACE_MS), a worker's background jobs may take this long to stop (a delivery in progress: webhook timeout 10 s). */
export const JOBS_STOP_MS = 12_000;

/** Called by a worker's HTTP server once it listens: the primary announces the cluster; a lone process logs the line itself. */
export function reportListening(fields: ListeningFields, log: Logger): void {
  if (cluster.isWorker) process.send!({ type: LISTENING, fields });
  else log.info("listening", fields);
}
