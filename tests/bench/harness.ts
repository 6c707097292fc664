// The benchmark's moving parts: a fresh database, the built server as its own
// process, an API client for fixtures, and one autocannon run of a scenario.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { freePort } from "../support/net.ts";
import { SERVER_NODE_ARGS } from "../../app/server/node-args.mjs";
import type { RequestSpec, Scenario } from "./scenarios.ts";

export const root = path.resolve(import.meta.dirname, "../..");

// ---------------------------------------------------------------- database

export interface BenchDatabase {
  kind: "sqlite" | "postgresql";
  url: string;
  drop: () => Promise<void>;
}

/** A new empty database (the server migrates it on start): SQLite in `dir`, or one created on the PostgreSQL server of `postgresUrl`. */
export async function freshDatabase(dir: string, postgresUrl?: string): Promise<BenchDatabase> {
  if (!postgresUrl) return { kind: "sqlite", url: `file:${path.join(dir, "bench.db")}`, drop: async () => {} };
  if (!/^postgres(ql)?:\/\//.test(postgresUrl)) throw new Error("BENCH_DATABASE_URL must be a postgresql:// URL");
  const name = `wish_bench_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { kind: "postgresql", url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export const makeTempDir = () => mkdtempSync(path.join(tmpdir(), "wish-bench-"));
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

// ---------------------------------------------------------------- server

export interface BenchServer {
  /** The process `npm start` runs (the cluster's primary when WEB_CONCURRENCY > 1). */
  pid: number;
  url: string;
  baseUrl: string;
  logFile: string;
  stop: () => Promise<void>;
}

/**
 * `node app/server/start.mjs` as `npm start` runs it, logging at info (the
 * request line is part of each request's real cost). The log goes straight
 * to a file so that reading it costs the load generator nothing.
 */
export async function startServer(databaseUrl: string, dir: string, extraEnv: Record<string, string> = {}, logName = "server.log"): Promise<BenchServer> {
  // extraEnv may name another APP_URL (instances behind one balancer share the public address: tokens name it)
  // and LOG_LEVEL debug (the growth bench's plan check); the "listening" line needs info or debug.
  return spawnServer(dir, logName, [...SERVER_NODE_ARGS, path.join(root, "app/server/start.mjs")], '"msg":"listening"', (port) => ({
    APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    ...extraEnv,
    LOG_LEVEL: extraEnv.LOG_LEVEL === "debug" ? "debug" : "info",
  }));
}

/**
 * The reference server (reference-server.ts) on the bench's SQLite file,
 * signing and verifying like the app at `appUrl` (same key, same issuer).
 */
export async function startReference(databaseUrl: string, appUrl: string, dir: string): Promise<BenchServer> {
  if (!databaseUrl.startsWith("file:")) throw new Error("the reference server runs on SQLite only");
  const script = ["--import", "tsx", path.join(root, "tests/bench/reference-server.ts")];
  return spawnServer(dir, "reference.log", script, "listening http://", () => ({
    REFERENCE_DB: databaseUrl.slice("file:".length),
    AUTH_ISSUER: `${appUrl}/api/v1/auth`,
  }));
}

/**
 * Starts `node args…` in production mode on a free port, its output into
 * `dir/logName` through a pipe and `cat`, as a deployment's log collector
 * reads it: a server writing its request lines straight into a file waits on
 * the disk now and then (the page cache's writeback), which showed up as
 * 20–40 ms stalls in the half-rate pass; a pipe is written without waiting
 * (app/lib/log.server.ts), and `cat` keeps the reading off the load generator.
 */
async function spawnServer(
  dir: string,
  logName: string,
  args: string[],
  marker: string,
  extraEnv: (port: number) => Record<string, string>,
): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(dir, logName);
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    const collector = spawn("cat", [], { stdio: ["pipe", fd, fd] });
    child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...extraEnv(port) },
      stdio: ["ignore", collector.stdin, collector.stdin],
    });
    // cat ends when the server's end of the pipe closes (the server exited).
    collector.stdin!.destroy();
  } finally {
    closeSync(fd);
  }
  return waitUntilListening(child, logFile, marker, { url, baseUrl: `${url}/api/v1`, logFile });
}

async function waitUntilListening(
  child: ChildProcess,
  logFile: string,
  marker: string,
  server: Omit<BenchServer, "stop" | "pid">,
): Promise<BenchServer> {
  const log = () => readFileSync(logFile, "utf8");
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (!log().includes(marker)) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${log()}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not start within 60 s:\n${log()}`);
    }
    await sleep(100);
  }
  return { ...server, pid: child.pid!, stop };
}

const execFileAsync = promisify(execFile);

/** Runs the operator CLI (`wish …`) against the bench database and parses its JSON. */
export async function wishCli(databaseUrl: string, appUrl: string, args: string[]): Promise<any> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(root, "app/cli/wish.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, APP_URL: appUrl, LOG_LEVEL: "warn" },
  });
  return JSON.parse(stdout);
}

/** The anon key, read with the operator CLI (`wish config`) as an operator would. */
export async function anonKey(databaseUrl: string, appUrl: string): Promise<string> {
  return (await wishCli(databaseUrl, appUrl, ["config"])).config.anon_key;
}

// ---------------------------------------------------------------- fixtures

export interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string };
}

/** Requests for scenario fixtures; anything but 2xx throws. */
export class BenchApi {
  constructor(
    readonly baseUrl: string,
    readonly anonKey: string,
    /** The operator CLI against the bench server's database. */
    readonly wish: (args: string[]) => Promise<any> = async () => {
      throw new Error("no CLI for this BenchApi");
    },
    /** The bench server's database, for fixtures no route or CLI command writes (a shop's catalogue). */
    readonly databaseUrl?: string,
  ) {}

  async request<T = any>(method: string, pathname: string, spec: RequestSpec = {}): Promise<T> {
    const res = await fetch(this.baseUrl + pathname, {
      method,
      headers: requestHeaders(this.anonKey, spec),
      body: encodeBody(spec.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`fixture ${method} ${pathname} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A new anonymous user's session (`POST /auth/signup` with `{}`). */
  anonymousUser(): Promise<Session> {
    return this.request<Session>("POST", "/auth/signup", { body: {} });
  }
}

function encodeBody(body: unknown): string | undefined {
  return body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
}

function requestHeaders(apiKey: string, spec: RequestSpec): Record<string, string> {
  const headers: Record<string, string> = { apikey: apiKey };
  if (spec.body !== undefined) headers["content-type"] = "application/json";
  return { ...headers, ...spec.headers };
}

// ---------------------------------------------------------------- one run

export interface RunResult {
  /** Mean of autocannon's per-second samples. */
  rps: number;
  /** Latency percentiles of the 2xx responses, ms (exact, from every response). */
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors + timeouts + non-2xx + chain failures. */
  failures: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  chainFailures: number;
  statusCodes: Record<string, number>;
  /** The first non-2xx answer, to say why a run failed. */
  firstFailure?: string;
  durationSeconds: number;
  autocannon: { p50: number; p99: number; average: number };
}

export interface RunOptions {
  /** The server measured (the app or the reference). */
  server: BenchServer;
  /** Fixtures: the app's API. */
  api: BenchApi;
  connections: number;
  durationSeconds: number;
  /** Called after the scenario's setup, right before the load starts (the growth bench reads CPU counters here). */
  beforeLoad?: () => Promise<void>;
}

/** Drives one scenario for a fixed time with autocannon. */
export async function runScenario(scenario: Scenario, opts: RunOptions): Promise<RunResult> {
  const { api, connections } = opts;
  let firstFailure: string | undefined;
  let chainFailures = 0;
  const noteFailure = (what: string) => (firstFailure ??= what.slice(0, 500));
  const onResponse = (status: number, body: string) => {
    if (status >= 300) noteFailure(`${status} ${body}`);
  };

  let options: autocannon.Options;
  // Tokens a server mints itself (widget tokens) come from the server measured.
  const target = new BenchApi(opts.server.baseUrl, api.anonKey, api.wish, api.databaseUrl);
  const fixed = (await scenario.setup?.(api, target)) ?? {};
  const pathname = `${scenario.site ? "" : "/api/v1"}${fixed.path ?? scenario.path}`;
  const base = { url: opts.server.url + pathname, connections, pipelining: 1, duration: opts.durationSeconds };
  if (scenario.chain) {
    const chain = scenario.chain;
    const states = await Promise.all(Array.from({ length: connections }, (_, i) => chain.start(api, i)));
    let nextClient = 0;
    options = {
      ...base,
      method: scenario.method,
      setupClient(client) {
        let state = states[nextClient++ % connections];
        client.setRequests([
          {
            method: scenario.method,
            path: pathname,
            setupRequest: (req) => {
              const spec = chain.request(state);
              const body = spec.body ?? fixed.body;
              const headers = requestHeaders(api.anonKey, { body, headers: { ...fixed.headers, ...spec.headers } });
              return { ...req, headers: { ...req.headers, ...headers }, body: encodeBody(body) };
            },
            onResponse: (status, body) => {
              if (status >= 300) return onResponse(status, body);
              try {
                state = chain.next(state, body);
              } catch (err) {
                chainFailures++;
                noteFailure(`chain: ${(err as Error).message}: ${body}`);
              }
            },
          },
        ]);
      },
    };
  } else {
    options = {
      ...base,
      method: scenario.method,
      headers: requestHeaders(api.anonKey, fixed),
      body: encodeBody(fixed.body),
      requests: [{ onResponse }],
    };
  }

  const latencies: number[] = [];
  await opts.beforeLoad?.();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on("response", (_client, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
  latencies.sort((a, b) => a - b);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: Object.values(statusCodes).reduce((a, b) => a + b, 0),
    failures: result.errors + result.non2xx + chainFailures,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    chainFailures,
    statusCodes,
    firstFailure,
    durationSeconds: result.duration,
    autocannon: { p50: result.latency.p50, p99: result.latency.p99, average: result.latency.average },
  };
}

export interface PacedResult {
  /** Requests per second asked for. */
  targetRate: number;
  /** Responses per second received (over the scheduled duration). */
  rate: number;
  /** Latency percentiles of the 2xx responses, ms, counted from each request's scheduled send time. */
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors + non-2xx. */
  failures: number;
  statusCodes: Record<string, number>;
  firstFailure?: string;
  /** Requests that left later than scheduled by more than 10 ms (the load generator or the pool fell behind). */
  lateStarts: number;
}

/**
 * Drives one scenario at a constant rate (open loop): request i is due at
 * start + i/rate and goes out on a free keep-alive connection (at most
 * `connections`), however slow earlier answers were. Latency counts from the
 * due time, so queueing behind a slow answer is measured rather than hidden
 * (no coordinated omission). autocannon's overallRate is not used because it
 * sends each connection's quota back to back at the top of every second,
 * which is a burst at full speed, not half the load.
 */
export async function runPaced(scenario: Scenario, opts: RunOptions & { rate: number }): Promise<PacedResult> {
  if (scenario.chain) throw new Error(`${scenario.name}: chained scenarios have no constant-rate mode`);
  const { api, connections, durationSeconds, rate } = opts;
  const target = new BenchApi(opts.server.baseUrl, api.anonKey, api.wish, api.databaseUrl);
  const fixed = (await scenario.setup?.(api, target)) ?? {};
  const url = new URL(`${opts.server.url}${scenario.site ? "" : "/api/v1"}${fixed.path ?? scenario.path}`);
  const body = encodeBody(fixed.body);
  const headers: Record<string, string | number> = requestHeaders(api.anonKey, fixed);
  if (body !== undefined) headers["content-length"] = Buffer.byteLength(body);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

  const total = Math.max(1, Math.round(rate * durationSeconds));
  const interval = 1000 / rate;
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let failures = 0;
  let lateStarts = 0;
  let firstFailure: string | undefined;
  let pending = 0;
  let sent = 0;
  let allSent!: () => void;
  const drained = new Promise<void>((resolve) => (allSent = resolve));
  const finished = () => {
    if (--pending === 0 && sent === total) allSent();
  };
  const fail = (what: string) => {
    failures++;
    firstFailure ??= what.slice(0, 500);
  };

  const send = (due: number) => {
    pending++;
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: scenario.method, headers },
      (res) => {
        const status = res.statusCode ?? 0;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (status >= 300) text += chunk;
        });
        res.on("end", () => {
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          if (status >= 200 && status < 300) latencies.push(performance.now() - due);
          else fail(`${status} ${text}`);
          finished();
        });
      },
    );
    req.once("socket", () => {
      if (performance.now() - due > 10) lateStarts++;
    });
    req.on("error", (err) => {
      fail(`request error: ${err.message}`);
      finished();
    });
    req.end(body);
  };

  await opts.beforeLoad?.();
  const start = performance.now() + 20;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(start + sent++ * interval);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else resolve();
    };
    setTimeout(tick, 20);
  });
  if (pending === 0) allSent();
  // Answers still under way get a bounded wait; a server that never answers counts as failures.
  const timedOut = await Promise.race([drained.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) firstFailure ??= `${pending} requests unanswered 10 s after the last was sent`;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    targetRate: rate,
    rate: latencies.length / durationSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: sent,
    failures: failures + (timedOut ? pending : 0),
    statusCodes,
    firstFailure,
    lateStarts,
  };
}

/** Nearest-rank percentile of sorted values; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
