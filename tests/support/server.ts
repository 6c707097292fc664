// Starts the built app as a real server process (`node app/server/start.mjs`)
// on a free port with its own database, as `npm start` would.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { SERVER_NODE_ARGS } from "../../app/server/node-args.mjs";
import { freshDatabaseUrl, testTmpDir } from "./database.ts";
import { freePort } from "./net.ts";
import { until } from "./wait.ts";

export { freePort };

export const root = path.resolve(import.meta.dirname, "../..");

export interface TestServer {
  /** APP_URL of the server (http://127.0.0.1:PORT). */
  url: string;
  /** {base_url}: APP_URL/api/v1. */
  baseUrl: string;
  databaseUrl: string;
  /** Everything the server wrote so far, for assertions on logs. */
  output: () => string;
  stop: () => Promise<void>;
  /** Kills the process with `signal` (e.g. SIGKILL for a crash) and waits for it to exit. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
  /** The started process (the cluster's primary when it runs workers). */
  pid: number;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited: Promise<number | null>;
}

export interface ServerOptions {
  /** Worker processes (WEB_CONCURRENCY); 1, a single process, unless a test asks for more. */
  workers?: number;
  /** Also append everything the server writes to this file (the shared servers: test workers read their logs there). */
  logFile?: string;
}

/** Whether a process with this pid is alive (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The server's JSON log lines with message `msg`, oldest first. */
export function logLines(server: TestServer, msg: string): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);
}

/**
 * The server's output once every line of the requests answered so far is in it: a marker request
 * (a 404 on /api/v1, without a key or token) whose `request` line a single-process server writes after
 * theirs, and a wait for that line. Returns the output up to and with it.
 */
export async function logSettled(server: Pick<TestServer, "url" | "output">): Promise<string> {
  const marker = `/api/v1/log-marker-${randomBytes(6).toString("hex")}`;
  await (await fetch(server.url + marker)).arrayBuffer();
  return until(`the request line of ${marker}`, () => server.output(), (output) => output.includes(`"path":"${marker}"`));
}

export async function startServer(extraEnv: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  const databaseUrl = extraEnv.DATABASE_URL ?? (await freshDatabaseUrl());
  // The port is picked before the process binds it (APP_URL names it), so another process
  // of the suite may take it in between: a start that fails with EADDRINUSE tries a new port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnServer(await freePort(), databaseUrl, extraEnv, options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 5) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function spawnServer(port: number, databaseUrl: string, extraEnv: Record<string, string>, options: ServerOptions): Promise<TestServer> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, path.join(root, "app/server/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: url,
      LOG_LEVEL: "info",
      // Every JSON answer is checked against its route's response schema ("undocumented response").
      CHECK_RESPONSES: "1",
      // Passwords hash at the suite's scrypt cost (vitest.config.ts), also in the shared server that globalSetup starts.
      PASSWORD_TEST_SCRYPT_N: "1024",
      WEB_CONCURRENCY: String(options.workers ?? 1),
      // Stored images and cards stay in this run's directory, not the checkout's ./data.
      DATA_DIR: path.join(testTmpDir, "data"),
      ...extraEnv,
      DATABASE_URL: databaseUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  const record = (d: Buffer) => {
    output += d;
    if (options.logFile) appendFileSync(options.logFile, d);
  };
  child.stdout.on("data", record);
  child.stderr.on("data", record);

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      const message = `server exited with ${code}:\n${output}`;
      reject(output.includes("EADDRINUSE") ? new PortTakenError(message) : new Error(message));
    };
    child.on("exit", onExit);
    child.stdout.on("data", () => {
      if (output.includes('"msg":"listening"')) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve();
      }
    });
  });

  const kill = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });

  return {
    url,
    baseUrl: `${url}/api/v1`,
    databaseUrl,
    output: () => output,
    stop: async () => {
      await kill("SIGTERM");
      checkUndocumented(output);
    },
    kill,
    pid: child.pid!,
    exited,
  };
}

/**
 * A route threw an error code, answered a success status, or answered a body
 * its description does not declare (the OpenAPI document would not promise
 * it): endpoint.server.ts logs "undocumented error code", "undocumented
 * status" or "undocumented response", and the test file fails at teardown
 * with the offending lines.
 */
export function checkUndocumented(output: string): void {
  const lines = output.split("\n").filter((line) => /"msg":"undocumented (error code|status|response)"/.test(line));
  if (lines.length > 0) throw new Error(`the server gave error codes, statuses or bodies its routes do not declare:\n${lines.join("\n")}`);
}
