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

// The same failure again (same message, code and error) within a minute is
// counted, not written: an outage fails every request and job the same way.
// The next line after the minute carries `repeated` (how many were left out).
const REPEAT_WINDOW_MS = 60_000;
const recentFailures = new Map<string, { at: number; repeated: number }>();

function repeatCount(msg: string, fields: Record<string, unknown>): number | null {
  if (typeof fields.error !== "string") return 0;
  const key = `${msg}\u0000${String(fields.code ?? "")}\u0000${fields.error.slice(0, 200)}`;
  const now = Date.now();
  const seen = recentFailures.get(key);
  if (seen && now - seen.at < REPEAT_WINDOW_MS) {
    seen.repeated++;
    return null;
  }
  if (recentFailures.size >= 1000) recentFailures.clear();
  recentFailures.set(key, { at: now, repeated: 0 });
  return seen?.repeated ?? 0;
}

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  if (levels[level] < threshold) return;
  if (level === "error" || level === "warn") {
    const repeated = repeatCount(msg, fields);
    if (repeated === null) return;
    if (repeated > 0) fields = { ...fields, repeated };
  }
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...processFields, ...fields });
  if (level === "error") process.stderr.write(line + "\n");
  else stdout.write(line + "\n");
}

const MAX_MESSAGE_CHARS = 300;
const MAX_STACK_FRAMES = 8;
const MAX_FRAME_CHARS = 200;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text);

/**
 * An error's message in one short line. Prisma's messages quote the calling
 * source line (a whole minified bundle line, tens of KB) and its neighbours:
 * those code-frame lines and the "Invalid `prisma.…()` invocation" header go.
 */
function shortMessage(message: string): string {
  // Prisma's "Invalid `…` invocation in <file:line:col>" is followed by the call site's source lines,
  // each "<line number> <code>" (the call's line marked →): in a bundled build one line is kilobytes of code.
  const prismaCallSite = /^\s*Invalid `.*` invocation/m.test(message);
  const lines = message
    .split("\n")
    .map((l) => l.trim())
    .filter(
      (l) =>
        l &&
        !/^(→\s*)?\d+\s*\|/.test(l) &&
        !(prismaCallSite && /^(→\s*)?\d+(\s|$)/.test(l)) &&
        !/^Invalid `.*` invocation/.test(l) &&
        !/^\S+:\d+:\d+$/.test(l),
    );
  return clip(lines.join(" "), MAX_MESSAGE_CHARS);
}

/** Code (e.g. Prisma's P1001, SQLITE_BUSY, ECONNREFUSED) and short message of an error, bounded. */
export function errorSummary(err: unknown): { error: string; code?: string } {
  if (!(err instanceof Error)) return { error: clip(inspect(err, { depth: 2, breakLength: Infinity }), MAX_MESSAGE_CHARS) };
  const code = (err as { code?: unknown }).code;
  return { error: shortMessage(err.message), ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}) };
}

/** What a log line says about an error: code, short message and where it was thrown (the top frames), bounded. */
export function errorFields(err: unknown): Record<string, unknown> {
  // A thrown non-Error (some libraries throw plain objects) is shown, not "[object Object]".
  const summary = errorSummary(err);
  if (!(err instanceof Error)) return summary;
  const frames = (err.stack ?? "")
    .split("\n")
    .filter((l) => /^\s+at /.test(l))
    .slice(0, MAX_STACK_FRAMES)
    .map((l) => clip(l.trim(), MAX_FRAME_CHARS));
  return { ...summary, stack: [`${err.name}: ${summary.error}`, ...frames].join("\n    ") };
}

export const log = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};
