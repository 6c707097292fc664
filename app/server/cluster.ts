// `npm start`: validates the configuration and applies migrations once, then
// serves with WEB_CONCURRENCY worker processes sharing one port (node:cluster;
// each worker runs startWorker() of main.ts), or in this process when it is 1.
// The primary serves nothing itself: it restarts a worker that dies
// unexpectedly (with a growing delay while they keep dying young), forwards
// SIGTERM/SIGINT and exits once every worker has, and prints the
// `"msg":"listening"` line once all workers listen.
import cluster, { type Worker } from "node:cluster";
import { SIBLING_MESSAGE } from "~/lib/sibling-bus.server";
import { JOBS_STOP_MS, LISTENING, type ListeningFields, type Logger } from "./worker-report";

/** A worker that dies younger than this counts towards the restart backoff. */
const HEALTHY_AFTER_MS = 30_000;
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** Beyond that, the primary kills workers that have not exited on a signal. */
const KILL_MARGIN_MS = 3_000;

export function runServer(): void {
  start().catch((err) => {
    console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", msg: "startup failed", code: err?.code, error: err?.message, stack: err?.stack }));
    process.exit(1);
  });
}

async function start(): Promise<void> {
  let env;
  try {
    ({ env } = await import("~/env.server"));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  if (cluster.isWorker) return (await import("./main.ts")).startWorker();

  const { log } = await import("~/lib/log.server");
  const { migrate } = await import("~/db/migrate.server");
  // The migrations' advisory lock is session state: not through a transaction-mode pooler.
  const result = await migrate(env.DATABASE_DIRECT_URL ?? env.DATABASE_URL);
  log.info("migrations applied", { applied: result.applied, total: result.total });

  if (env.WEB_CONCURRENCY === 1) return (await import("./main.ts")).startWorker();
  runPrimary(env.WEB_CONCURRENCY, env.SHUTDOWN_GRACE_MS + JOBS_STOP_MS + KILL_MARGIN_MS, log);
}

function runPrimary(count: number, killAfterMs: number, log: Logger): void {
  const alive = new Map<Worker, number>(); // worker → when it was forked
  const listening = new Set<Worker>();
  const pendingRestarts = new Set<NodeJS.Timeout>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;
  let youngDeaths = 0;

  const fork = () => alive.set(cluster.fork(), Date.now());

  cluster.on("message", (worker, message: { type?: string; fields?: ListeningFields }) => {
    if (message?.type === SIBLING_MESSAGE) {
      // A change one worker made to what all of them hold in memory (app/lib/sibling-bus.server.ts).
      for (const other of alive.keys()) if (other !== worker && other.isConnected()) other.send(message);
      return;
    }
    if (message?.type !== LISTENING) return;
    listening.add(worker);
    log.info("worker listening", { pid: worker.process.pid });
    if (!announced && listening.size === count) {
      announced = true;
      log.info("listening", { ...message.fields, workers: count });
    }
  });

  cluster.on("exit", (worker, code, signal) => {
    const forkedAt = alive.get(worker) ?? Date.now();
    alive.delete(worker);
    listening.delete(worker);
    const fields = { pid: worker.process.pid, code, signal };
    if (stopping) {
      if (alive.size === 0) process.exit(exitCode);
      return;
    }
    if (!announced) {
      // A worker that cannot start (no build, bad database) will not start on a retry either: fail like a single process would.
      log.error("worker failed to start", fields);
      shutdown("SIGTERM", 1);
      return;
    }
    youngDeaths = Date.now() - forkedAt < HEALTHY_AFTER_MS ? youngDeaths + 1 : 0;
    const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** Math.max(0, youngDeaths - 1));
    log.error("worker died, restarting", { ...fields, restart_in_ms: delay });
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    pendingRestarts.add(timer);
  });

  const shutdown = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log.info("shutting down", { workers: alive.size });
    for (const timer of pendingRestarts) clearTimeout(timer);
    if (alive.size === 0) process.exit(code);
    // Each worker stops accepting, finishes its requests and background work and exits (main.ts).
    for (const worker of alive.keys()) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of alive.keys()) worker.process.kill("SIGKILL");
      process.exit(code);
    }, killAfterMs).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  for (let i = 0; i < count; i++) fork();
}
