// Structured logs: one JSON object per line on stdout (errors on stderr).
//
// stdout to a pipe or file is synchronous in Node, so a slow reader would
// stall every request. Info lines are therefore queued and written in one
// batch per tick by an asynchronous fs.write (libuv's thread pool blocks,
// not the event loop); the queue is written synchronously at exit. Errors
// stay synchronous on stderr: they are rare and must not be lost in a crash.
// The writer is one line below (`stdout`): sonic-boom's `new SonicBoom({ fd: 1 })`
// has the same write/flushSync interface.
import { write as fsWrite, writeSync } from "node:fs";
import { env } from "~/env.server";

/** Where log lines go: write queues a line, flushSync empties the queue before exit. */
export interface LineSink {
  write(text: string): void;
  flushSync(): void;
}

/** Batches what is written in one tick into one asynchronous write; several writes never overlap. */
export function asyncLineWriter(fd: number): LineSink {
  let queued: string[] = [];
  let writing = false;
  let scheduled = false;

  const writeOut = (buffer: Buffer, offset: number) => {
    fsWrite(fd, buffer, offset, buffer.length - offset, null, (err, written) => {
      if (err && (err as NodeJS.ErrnoException).code === "EAGAIN") return void setTimeout(writeOut, 1, buffer, offset);
      if (err) {
        // Nowhere left to log to (closed pipe): drop the lines rather than crash the server.
        writing = false;
        queued = [];
        return;
      }
      if (offset + written < buffer.length) return writeOut(buffer, offset + written);
      writing = false;
      if (queued.length) flush();
    });
  };
  const flush = () => {
    scheduled = false;
    if (writing || queued.length === 0) return;
    writing = true;
    const text = queued.join("");
    queued = [];
    writeOut(Buffer.from(text), 0);
  };
  return {
    write(text) {
      queued.push(text);
      if (!scheduled && !writing) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flushSync() {
      if (queued.length === 0) return;
      const text = queued.join("");
      queued = [];
      try {
        writeSync(fd, text);
      } catch {
        // as above: nowhere to write
      }
    },
  };
}

const stdout: LineSink = asyncLineWriter(1);
// Lines still queued when the process exits (process.exit, end of the event loop) are written synchronously.
process.on("exit", () => stdout.flushSync());

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof levels;
const threshold = levels[env.LOG_LEVEL];

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  if (levels[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") process.stderr.write(line + "\n");
  else stdout.write(line + "\n");
}

export function errorFields(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}

export const log = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};
