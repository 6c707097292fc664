// Structured logs: one JSON object per line on stdout (errors on stderr).
//
// Node makes a stdout pipe blocking: with a slow reader, a full pipe would
// stall every request. The server switches it to non-blocking
// (nonBlockingStdout, at boot): a line is still written at once while the
// pipe has room (same order, same promptness as before), and queued by
// libuv, not waited for, when it has none; shutdown waits for that queue
// (flushLogs). Files and terminals stay as they are (a file write does not
// wait on a reader). Errors stay synchronous on stderr: rare, and they must
// not be lost in a crash. The sink is one line below (`stdout`); sonic-boom's
// `new SonicBoom({ fd: 1 })` has the same write/flush shape.
import { inspect } from "node:util";
import cluster from "node:cluster";
import { env } from "~/env.server";

/** Where info lines go. */
export interface LineSink {
  write(text: string): void;
  /** Resolves once everything written has left the process (or after `timeoutMs`). */
  flush(timeoutMs: number): Promise<void>;
}

const processStdout: LineSink = {
  write: (text) => void process.stdout.write(text),
  flush: (timeoutMs) =>
    new Promise((resolve) => {
      if (process.stdout.writableLength === 0) return resolve();
      const timer = setTimeout(resolve, timeoutMs);
      process.stdout.once("drain", () => {
        clearTimeout(timer);
        resolve();
      });
    }),
};

const stdout: LineSink = processStdout;

/**
 * Makes a piped stdout non-blocking for this process (see above); a no-op
 * for files and terminals. Called once by the server at boot.
 */
export function nonBlockingStdout(): void {
  const handle = (process.stdout as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle;
  if (!process.stdout.isTTY && typeof handle?.setBlocking === "function") handle.setBlocking(false);
}

/** Waits (up to `timeoutMs`) until queued log lines are written: before process.exit on shutdown. */
export const flushLogs = (timeoutMs = 2000) => stdout.flush(timeoutMs);

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof levels;
const threshold = levels[env.LOG_LEVEL];
// Which worker wrote a line, when several serve (WEB_CONCURRENCY > 1); never sent to clients.
const processFields = cluster.isWorker ? { pid: process.pid } : {};

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  if (levels[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...processFields, ...fields });
  if (level === "error") process.stderr.write(line + "\n");
  else stdout.write(line + "\n");
}

export function errorFields(err: unknown): Record<string, unknown> {
  // A thrown non-Error (some libraries throw plain objects) is shown, not "[object Object]".
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: inspect(err, { depth: 4, breakLength: Infinity }) };
}

export const log = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};
