// `npm run bench:growth` (docs/benchmark.md, "Data growth"): do the hot
// routes stay flat from 10 thousand to 10 million saved items?
//
// Two fresh PostgreSQL databases get the same seed of 10k items / 1k
// shoppers (growth-seed.ts); the second is then grown to 10M items / 1M
// shoppers. A server runs on each. Every statement the hot routes run is
// explained on both (a second server per database at LOG_LEVEL=debug logs
// them; tests/support/explain.ts), then each route is driven on the small and
// the grown database back to back in every round, so both see the same moment
// of a shared machine and the ratio is taken within the round.
//
// Each run also reads the CPU time the app's processes and its database
// connections' backends spent (/proc), per request. On a machine other work
// shares, req/s follows the share of the cores the processes happen to get
// (back-to-back runs of the same route differ by 2× at a load average of 15);
// CPU time per request follows the work a request costs, which is what grows
// when a plan is not flat. Its ratio, small ÷ grown, is the rate the grown
// database would reach relative to the small one on cores of its own.
//
// Fails (exit 1) when a hot route's ratio falls below GROWTH_MIN_RATIO (0.8):
// requests per CPU second (GROWTH_ASSERT=capacity, the default) or req/s
// (GROWTH_ASSERT=rate, for a machine of its own), the median of the rounds'
// ratios; when a route runs a different number of statements per request on
// the two; when a statement reads a grown table whole (a Seq Scan, or an
// index scan without a condition: with sequential scans priced out, i.e. no
// index serves it, on either database; and in the plan the planner picks with
// the grown database's statistics, for tables of 10,000 rows or more); or
// when any request failed. Prints the table; writes bench-results/growth.json.
//
//   BENCH_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/postgres: two databases are created there and dropped)
//   GROWTH_SMALL_ITEMS=10000 GROWTH_SMALL_USERS=1000 GROWTH_ITEMS=10000000 GROWTH_USERS=1000000
//   GROWTH_MIN_RATIO=0.8 GROWTH_ASSERT=capacity|rate  BENCH_ROUNDS=3 BENCH_DURATION=3 BENCH_WARMUP=1 BENCH_CONNECTIONS=20
//   GROWTH_KEEP=1 (keep the databases and the logs, for a look afterwards; drop them yourself)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { explain, statementsDuring } from "../support/explain.ts";
import { sql } from "../support/sql.ts";
import {
  anonKey,
  BenchApi,
  freshDatabase,
  makeTempDir,
  median,
  removeDir,
  root,
  runPaced,
  runScenario,
  sleep,
  startServer,
  wishCli,
  type BenchDatabase,
  type BenchServer,
  type PacedResult,
  type RunResult,
} from "./harness.ts";
import { GROWN_TABLES, seedGrowth, type GrowthSeedReport } from "./growth-seed.ts";
import { benchProduct, CEILING, listWithProducts, partnerKey, SCENARIOS, sharedBenchList, type Scenario } from "./scenarios.ts";

const progress = (msg: string) => process.stderr.write(msg + "\n");

function intSetting(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

const settings = {
  postgresUrl: process.env.BENCH_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
  small: { items: intSetting("GROWTH_SMALL_ITEMS", 10_000), users: intSetting("GROWTH_SMALL_USERS", 1_000) },
  big: { items: intSetting("GROWTH_ITEMS", 10_000_000), users: intSetting("GROWTH_USERS", 1_000_000) },
  minRatio: Number(process.env.GROWTH_MIN_RATIO || 0.8),
  /** capacity: CPU time per request (steady on a shared machine); rate: req/s (for a machine of its own). */
  assert: (process.env.GROWTH_ASSERT || "capacity") as "capacity" | "rate",
  rounds: intSetting("BENCH_ROUNDS", 3),
  durationSeconds: intSetting("BENCH_DURATION", 3),
  warmupSeconds: intSetting("BENCH_WARMUP", 1, 0),
  connections: intSetting("BENCH_CONNECTIONS", 20),
  keep: process.env.GROWTH_KEEP === "1",
};
if (!(settings.minRatio > 0 && settings.minRatio <= 1)) throw new Error("GROWTH_MIN_RATIO must be in (0, 1]");
if (!["capacity", "rate"].includes(settings.assert)) throw new Error("GROWTH_ASSERT must be capacity or rate");
if (settings.big.items <= settings.small.items || settings.big.users <= settings.small.users) throw new Error("GROWTH_ITEMS/USERS must exceed the small seed");

const byName = (name: string) => SCENARIOS.find((s) => s.name === name)!;
const HEART_ORIGIN = "https://bench-shop.example.com";

/**
 * The routes measured: the hot routes of scenarios.ts a shopper's page and a
 * shared list hit, the heart state, the public list read and the owner's
 * lists; discover's trending ranking is measured and plan-checked but held
 * to no ratio (each instance caches it: the runs measure the cache).
 */
const ROUTES: Scenario[] = [
  CEILING,
  byName("widget.save"),
  {
    name: "widget.saved",
    hot: true,
    method: "GET",
    path: "/widget/saved-products (heart state: 5 items saved through the shop)",
    setup: async (api, target) => {
      const { key } = await partnerKey(api);
      const init = await target.request("POST", "/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin: HEART_ORIGIN } });
      const { user, dbId } = await listWithProducts(api, 0, false);
      const headers = { authorization: `Bearer ${user.access_token}`, "x-widget-token": init.token as string };
      for (let n = 0; n < 5; n++) {
        const product = { ...benchProduct(n), url: `${HEART_ORIGIN}/products/heart-${n}` };
        await target.request("POST", "/widget/save", { headers, body: { wishlistId: dbId, product } });
      }
      return { path: "/widget/saved-products", headers };
    },
  },
  byName("widget.init"),
  byName("share.page"),
  byName("public.items"),
  {
    name: "public.list",
    hot: true,
    method: "GET",
    path: "/hosted/public/lists/{token} (the same 50-item list)",
    setup: async (api) => ({ path: `/hosted/public/lists/${(await sharedBenchList(api)).token}` }),
  },
  {
    name: "owner.lists",
    hot: true,
    method: "POST",
    path: "/hosted/lists (the owner's 3 lists of 10, 5 and 0 items)",
    setup: async (api) => {
      const { user } = await listWithProducts(api, 10, false);
      const auth = { authorization: `Bearer ${user.access_token}` };
      for (const name of ["Second", "Third"]) await api.request("POST", "/hosted/me/lists", { headers: auth, body: { name } });
      const lists = (await api.request("POST", "/hosted/lists", { headers: auth })).lists as { db_id: number; name: string }[];
      const second = lists.find((l) => l.name === "Second")!.db_id;
      for (let n = 0; n < 5; n++) await api.request("POST", "/hosted/save", { headers: auth, body: { wishlistId: second, product: benchProduct(n) } });
      return { path: "/hosted/lists", headers: auth };
    },
  },
  byName("auth.user"),
  { ...byName("discover.trending"), hot: false },
];

// ---------------------------------------------------------------- CPU per request

/** Linux clock ticks (CLK_TCK 100) in ms. */
const TICK_MS = 10;

/** utime + stime (ms) and parent of every process, from /proc. */
function processTable(): Map<number, { ppid: number; cpuMs: number }> {
  const table = new Map<number, { ppid: number; cpuMs: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // After the command name (in parentheses, may hold spaces): state ppid … utime(14) stime(15).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    table.set(Number(entry), { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
  }
  return table;
}

interface CpuSnapshot {
  app: number;
  backends: Map<number, number>;
}

/**
 * The CPU time one side spends: the app server's process tree, and the
 * PostgreSQL backends of its database's client connections (its pool). On a
 * machine other work shares, req/s follows the share of the cores the
 * processes get; CPU time per request follows the work a request costs.
 */
class CpuMeter {
  private constructor(
    private readonly pid: number,
    private readonly client: pg.Client,
  ) {}

  static async open(pid: number | undefined, databaseUrl: string): Promise<CpuMeter> {
    if (!pid) throw new Error("the server's process id is unknown");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return new CpuMeter(pid, client);
  }

  async snapshot(): Promise<CpuSnapshot> {
    const { rows } = await this.client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    const table = processTable();
    let app = 0;
    const inTree = (pid: number): boolean => {
      for (let p: number | undefined = pid, hops = 0; p && hops < 10; p = table.get(p)?.ppid, hops++) if (p === this.pid) return true;
      return false;
    };
    for (const [pid, proc] of table) if (inTree(pid)) app += proc.cpuMs;
    return { app, backends: new Map(rows.map((r) => [r.pid, table.get(r.pid)?.cpuMs ?? 0])) };
  }

  static delta(before: CpuSnapshot, after: CpuSnapshot): { app: number; db: number } {
    let db = 0;
    for (const [pid, ms] of after.backends) db += ms - (before.backends.get(pid) ?? 0);
    return { app: after.app - before.app, db };
  }

  close() {
    return this.client.end();
  }
}

interface Cpu {
  appMs: number;
  dbMs: number;
  msPerRequest: number;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** rps ÷ the ceiling's rps on the same server, same round (median over rounds). */
  ceilingRatio: number;
  /** The constant-rate pass (both databases at the same rate): rate, latency from each request's due time, CPU ms per request. */
  paced: { rate: number; p50: number; p99: number; cpuMsPerRequest: number };
  failures: number;
  firstFailure?: string;
  rounds: Array<RunResult & { round: number; ceilingRatio: number; cpu: Cpu; paced: PacedResult & { cpu: Cpu } }>;
}

interface Side {
  label: string;
  server: BenchServer;
  api: BenchApi;
  cpu: CpuMeter;
}

/**
 * Every route on both databases, in rounds. In each round a route runs at
 * full speed on the small database and on the grown one back to back (who
 * goes first alternates), so both see the same moment of a shared machine,
 * and the ratio is taken within the round; then both are driven, again back
 * to back, at the same constant rate (half the lower of the two rates just
 * reached), where the CPU time per request is read: at equal load a server
 * spends the same per-request overhead on both, so what differs is the work
 * the data makes.
 */
async function measure(sides: [Side, Side]) {
  const withCpu = async <R extends { requests: number }>(side: Side, load: (beforeLoad: () => Promise<void>) => Promise<R>): Promise<R & { cpu: Cpu }> => {
    let before: CpuSnapshot | undefined;
    const result = await load(async () => void (before = await side.cpu.snapshot()));
    const { app, db } = CpuMeter.delta(before!, await side.cpu.snapshot());
    return { ...result, cpu: { appMs: app, dbMs: db, msPerRequest: (app + db) / Math.max(1, result.requests) } };
  };
  const options = (side: Side, seconds: number, beforeLoad: () => Promise<void>) => ({
    server: side.server,
    api: side.api,
    connections: settings.connections,
    durationSeconds: seconds,
    beforeLoad,
  });
  const run = (scenario: Scenario, side: Side, seconds: number) => withCpu(side, (b) => runScenario(scenario, options(side, seconds, b)));
  const paced = (scenario: Scenario, side: Side, rate: number) =>
    withCpu(side, (b) => runPaced(scenario, { ...options(side, settings.durationSeconds, b), rate }));
  const line = (round: number, scenario: Scenario, side: Side, what: string, f: { p50: number; p99: number; failures: number; cpu: Cpu }, rate: number) =>
    progress(
      `  ${round}/${settings.rounds}  ${scenario.name.padEnd(18)} ${side.label.padEnd(5)} ${what.padEnd(5)} ${rate.toFixed(0).padStart(6)} req/s  ` +
        `p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  cpu ${f.cpu.msPerRequest.toFixed(2)} ms/req` +
        (f.failures ? `  FAILURES ${f.failures}` : ""),
    );

  let warmupFailures = 0;
  if (settings.warmupSeconds > 0) {
    for (const scenario of ROUTES) {
      for (const side of sides) {
        warmupFailures += (await run(scenario, side, settings.warmupSeconds)).failures;
        await sleep(300);
      }
    }
  }
  const rounds = sides.map(() => new Map<string, Figures["rounds"]>(ROUTES.map((s) => [s.name, []])));
  const pairRatio = new Map<string, number[]>(ROUTES.map((s) => [s.name, []]));
  const capacityRatio = new Map<string, number[]>(ROUTES.map((s) => [s.name, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    const offset = (round - 1) % ROUTES.length;
    const order = [...ROUTES.slice(offset), ...ROUTES.slice(0, offset)];
    const results = sides.map(() => new Map<string, Omit<Figures["rounds"][number], "ceilingRatio" | "round">>());
    const sideOrder = round % 2 ? [0, 1] : [1, 0];
    for (const scenario of order) {
      const full: Array<Awaited<ReturnType<typeof run>>> = [];
      for (const i of sideOrder) {
        full[i] = await run(scenario, sides[i], settings.durationSeconds);
        line(round, scenario, sides[i], "full", full[i], full[i].rps);
        await sleep(300);
      }
      const rate = Math.max(1, Math.floor(Math.min(full[0].rps, full[1].rps) / 2));
      const half: Array<Awaited<ReturnType<typeof paced>>> = [];
      for (const i of sideOrder) {
        half[i] = await paced(scenario, sides[i], rate);
        line(round, scenario, sides[i], "paced", half[i], half[i].rate);
        await sleep(300);
      }
      sides.forEach((_, i) => results[i].set(scenario.name, { ...full[i], paced: half[i], failures: full[i].failures + half[i].failures }));
      pairRatio.get(scenario.name)!.push(full[1].rps / full[0].rps);
      capacityRatio.get(scenario.name)!.push(half[0].cpu.msPerRequest / half[1].cpu.msPerRequest);
    }
    sides.forEach((_, i) => {
      const ceiling = results[i].get(CEILING.name)!.rps;
      for (const [name, result] of results[i]) rounds[i].get(name)!.push({ ...result, round, ceilingRatio: result.rps / ceiling });
    });
  }
  const figures = rounds.map(
    (side) =>
      new Map<string, Figures>(
        [...side].map(([name, figures]) => [
          name,
          {
            rps: median(figures.map((f) => f.rps)),
            p50: median(figures.map((f) => f.p50)),
            p99: median(figures.map((f) => f.p99)),
            ceilingRatio: median(figures.map((f) => f.ceilingRatio)),
            paced: {
              rate: median(figures.map((f) => f.paced.rate)),
              p50: median(figures.map((f) => f.paced.p50)),
              p99: median(figures.map((f) => f.paced.p99)),
              cpuMsPerRequest: median(figures.map((f) => f.paced.cpu.msPerRequest)),
            },
            failures: figures.reduce((sum, f) => sum + f.failures + (f.requests === 0 ? 1 : 0), 0),
            firstFailure: figures.find((f) => f.firstFailure ?? f.paced.firstFailure)?.firstFailure,
            rounds: figures,
          },
        ]),
      ),
  );
  if (warmupFailures) figures[0].get(CEILING.name)!.failures += warmupFailures;
  return { figures, pairRatio, capacityRatio };
}

interface StatementPlan {
  statement: string;
  /** Full scans of grown tables with sequential scans priced out: no index can serve the statement. */
  forced: string[];
  /** Full scans of big tables (BIG_TABLE_ROWS or more) in the plan the planner picks with the grown database's statistics. */
  natural: string[];
  /** Other full scans (tables the seed does not grow, or small ones), for the report. */
  other: string[];
}

interface RoutePlans {
  /** Statements of one warm request (what the measured runs repeat): the fewest of three, since some writes are throttled in time. */
  statements: number;
  /** Statements of the first request (caches cold). */
  coldStatements: number;
  plans: StatementPlan[];
}

/** A table this big read whole on a hot route is a cost that grows with the data. */
const BIG_TABLE_ROWS = 10_000;
const scannedTable = (scan: string) => /^(?:Seq Scan|Index(?: Only)? Scan) on (.+)$/.exec(scan)?.[1] ?? "";
const onTables = (tables: Set<string>) => (scan: string) => {
  const name = scannedTable(scan);
  return [...tables].some((t) => name === t || name.startsWith(`${t}_`));
};
const EXPLAINABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

/** Tables of the database with at least `rows` rows (the statistics' estimate). */
async function tablesOver(databaseUrl: string, rows: number): Promise<Set<string>> {
  const found = await sql<{ relname: string }>(
    databaseUrl,
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples >= ${rows}`,
  );
  return new Set(found.map((r) => r.relname));
}

/**
 * A second server on the database, at LOG_LEVEL=debug (every statement
 * logged), with its pollers slowed and the measured server's APP_URL: each
 * route's request is sent once cold and three times warm, and every statement
 * it ran is explained: with sequential scans priced out (a full scan of a
 * grown table means no index serves it) and, on the grown database, as the
 * planner picks with its statistics (a full scan of a table of BIG_TABLE_ROWS
 * or more is one the route pays on every call).
 */
async function checkPlans(side: Side, databaseUrl: string, dir: string, natural: boolean): Promise<Map<string, RoutePlans>> {
  const server = await startServer(
    databaseUrl,
    dir,
    {
      APP_URL: side.server.url,
      LOG_LEVEL: "debug",
      WEB_CONCURRENCY: "1",
      OUTBOX_POLL_MS: "600000",
      REVOCATION_POLL_MS: "600000",
      PRUNE_INTERVAL_MS: "3600000",
    },
    `plans-${side.label}.log`,
  );
  try {
    const grown = onTables(new Set(GROWN_TABLES));
    const big = onTables(await tablesOver(databaseUrl, BIG_TABLE_ROWS));
    const observed = { url: server.url, output: () => readFileSync(server.logFile, "utf8") };
    const target = new BenchApi(server.baseUrl, side.api.anonKey, side.api.wish, side.api.databaseUrl);
    const result = new Map<string, RoutePlans>();
    for (const scenario of ROUTES) {
      if (scenario === CEILING) continue;
      const spec = (await scenario.setup?.(side.api, target)) ?? {};
      const url = `${server.url}${scenario.site ? "" : "/api/v1"}${spec.path ?? scenario.path}`;
      const headers: Record<string, string> = {
        apikey: side.api.anonKey,
        ...(spec.body === undefined ? {} : { "content-type": "application/json" }),
        ...spec.headers,
      };
      const send = async () => {
        const res = await fetch(url, { method: scenario.method, headers, body: spec.body === undefined ? undefined : JSON.stringify(spec.body) });
        const text = await res.text();
        if (!res.ok) throw new Error(`plan check ${scenario.name}: ${res.status} ${text.slice(0, 300)}`);
      };
      const cold = await statementsDuring(observed, send);
      const warm: string[][] = [];
      for (let n = 0; n < 3; n++) warm.push(await statementsDuring(observed, send));
      const plans: StatementPlan[] = [];
      for (const statement of [...new Set([...cold, ...warm.flat()])].filter((s) => EXPLAINABLE.test(s))) {
        const forced = (await explain(databaseUrl, statement)).fullScans;
        const chosen = natural ? (await explain(databaseUrl, statement, { natural: true })).fullScans : [];
        plans.push({
          statement,
          forced: forced.filter(grown),
          natural: chosen.filter(big),
          other: [...new Set([...forced.filter((s) => !grown(s)), ...chosen.filter((s) => !big(s))])],
        });
      }
      const statements = Math.min(...warm.map((w) => w.length));
      result.set(scenario.name, { statements, coldStatements: cold.length, plans });
      const bad = plans.filter((p) => p.forced.length || p.natural.length);
      progress(
        `  plans ${side.label} ${scenario.name.padEnd(18)} ${statements} statements warm, ${cold.length} cold; ${plans.length} explained; ` +
          `${bad.length} with a full scan of a grown table`,
      );
    }
    return result;
  } finally {
    await server.stop();
  }
}

const fmt = (v: number | undefined, digits: number) => (v === undefined || Number.isNaN(v) ? "—" : v.toFixed(digits));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

const compact = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

async function main(): Promise<number> {
  if (!existsSync(path.join(root, "build/server/index.js"))) throw new Error("No build: run `npm run build` (npm run bench:growth does).");
  const started = new Date();
  const dir = makeTempDir();
  const databases: BenchDatabase[] = [];
  const servers: BenchServer[] = [];
  const meters: CpuMeter[] = [];
  let ok = false;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const meter of meters) await meter.close().catch(() => {});
      for (const server of servers) await server.stop().catch((err) => console.error(`stopping a server: ${err.message}`));
      if (settings.keep) console.error(`kept: databases ${databases.map((d) => d.url).join(", ")}; logs in ${dir}`);
      else {
        for (const database of databases) await database.drop().catch((err) => console.error(`dropping ${database.url}: ${err.message}`));
        if (ok) removeDir(dir);
        else console.error(`server logs kept in ${dir}`);
      }
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    const smallLabel = compact(settings.small.items);
    const bigLabel = compact(settings.big.items);
    // Two fresh databases with the same small seed; the second is then grown.
    const open = async (label: string): Promise<Side & { databaseUrl: string }> => {
      const database = await freshDatabase(dir, settings.postgresUrl);
      databases.push(database);
      const server = await startServer(database.url, dir, { WEB_CONCURRENCY: "1" }, `server-${label}.log`);
      servers.push(server);
      const databaseUrl = database.url;
      const api = new BenchApi(server.baseUrl, await anonKey(databaseUrl, server.url), (args) => wishCli(databaseUrl, server.url, args), databaseUrl);
      const cpu = await CpuMeter.open(server.pid, databaseUrl);
      meters.push(cpu);
      return { label, server, api, databaseUrl, cpu };
    };
    const small = await open(smallLabel);
    const grown = await open(bigLabel);
    const seeds: Record<string, GrowthSeedReport> = {};
    progress(`seeding both databases with ${smallLabel} items / ${compact(settings.small.users)} shoppers`);
    seeds.small = await seedGrowth(small.databaseUrl, { ...settings.small, prefix: "small" }, progress);
    await seedGrowth(grown.databaseUrl, { ...settings.small, prefix: "small" });
    const grow = { items: settings.big.items - settings.small.items, users: settings.big.users - settings.small.users };
    progress(`growing the second to ${bigLabel} items / ${compact(settings.big.users)} shoppers (+${grow.items} items, +${grow.users} shoppers)`);
    seeds.grown = await seedGrowth(grown.databaseUrl, { ...grow, prefix: "grown" }, progress);
    progress(`  grown in ${seeds.grown.seconds.toFixed(1)} s`);

    const smallPlans = await checkPlans(small, small.databaseUrl, dir, false);
    const bigPlans = await checkPlans(grown, grown.databaseUrl, dir, true);
    progress(
      `measuring ${ROUTES.length} routes on both (${smallLabel} and ${bigLabel}, back to back): ${settings.rounds} rounds x ${settings.durationSeconds} s, ` +
        `${settings.connections} connections`,
    );
    const { figures, pairRatio, capacityRatio } = await measure([small, grown]);

    const failures: string[] = [];
    const routes = ROUTES.map((scenario) => {
      const s = figures[0].get(scenario.name)!;
      const b = figures[1].get(scenario.name)!;
      const sp = smallPlans.get(scenario.name);
      const bp = bigPlans.get(scenario.name);
      const ratio = median(pairRatio.get(scenario.name)!);
      const capacity = median(capacityRatio.get(scenario.name)!);
      const assertedRatio = settings.assert === "rate" ? ratio : capacity;
      const adjusted = scenario === CEILING ? 1 : b.ceilingRatio / s.ceilingRatio;
      const fullScans = [...(sp?.plans ?? []), ...(bp?.plans ?? [])].filter((p) => p.forced.length || p.natural.length);
      const asserted = !!scenario.hot && scenario !== CEILING;
      if (s.failures || b.failures) failures.push(`${scenario.name}: ${s.failures + b.failures} failed requests (${s.firstFailure ?? b.firstFailure ?? "a run with no answer"})`);
      if (asserted && !(assertedRatio >= settings.minRatio)) {
        failures.push(
          `${scenario.name}: ${settings.assert === "rate" ? "req/s" : "requests per CPU second"} on ${bigLabel} is ${assertedRatio.toFixed(3)} of ${smallLabel}'s (bound ${settings.minRatio})`,
        );
      }
      if (sp && bp && sp.statements !== bp.statements) failures.push(`${scenario.name}: ${sp.statements} statements per request on ${smallLabel}, ${bp.statements} on ${bigLabel}`);
      for (const p of fullScans) failures.push(`${scenario.name}: full scan ${[...new Set([...p.forced, ...p.natural])].join(", ")} in\n      ${p.statement}`);
      return {
        name: scenario.name,
        route: `${scenario.method} ${scenario.site ? "" : "/api/v1"}${scenario.path}`,
        hot: !!scenario.hot,
        asserted,
        small: { rps: s.rps, p50: s.p50, p99: s.p99, ceilingRatio: s.ceilingRatio, paced: s.paced, statements: sp?.statements ?? null },
        big: { rps: b.rps, p50: b.p50, p99: b.p99, ceilingRatio: b.ceilingRatio, paced: b.paced, statements: bp?.statements ?? null },
        ratio,
        roundRatios: pairRatio.get(scenario.name)!,
        capacityRatio: capacity,
        roundCapacityRatios: capacityRatio.get(scenario.name)!,
        adjustedRatio: adjusted,
        p50Ratio: b.p50 / s.p50,
        p99Ratio: b.p99 / s.p99,
        fullScans: fullScans.length,
      };
    });
    ok = failures.length === 0;

    const header = [
      "route", `${smallLabel} req/s`, `${bigLabel} req/s`, "×", `p50 ${smallLabel}`, `p50 ${bigLabel}`, `p99 ${smallLabel}`, `p99 ${bigLabel}`,
      "paced req/s", `cpu ms ${smallLabel}`, `cpu ms ${bigLabel}`, "cpu ×", `paced p99 ${smallLabel}`, `paced p99 ${bigLabel}`, "stmts", "full scans",
    ];
    const check = (r: (typeof routes)[number], value: number, metric: "rate" | "capacity") =>
      fmt(value, 2) + (r.asserted && settings.assert === metric ? (value >= settings.minRatio ? " ✓" : " ✗") : "  ");
    const rows = routes.map((r) => [
      r.name,
      fmt(r.small.rps, 0),
      fmt(r.big.rps, 0),
      check(r, r.ratio, "rate"),
      fmt(r.small.p50, 2),
      fmt(r.big.p50, 2),
      fmt(r.small.p99, 2),
      fmt(r.big.p99, 2),
      fmt(r.small.paced.rate, 0),
      fmt(r.small.paced.cpuMsPerRequest, 2),
      fmt(r.big.paced.cpuMsPerRequest, 2),
      check(r, r.capacityRatio, "capacity"),
      fmt(r.small.paced.p99, 2),
      fmt(r.big.paced.p99, 2),
      r.small.statements === null ? "—" : `${r.small.statements}/${r.big.statements}`,
      r.name === CEILING.name ? "—" : String(r.fullScans),
    ]);
    console.log(
      `\nPostgreSQL, ${smallLabel} vs ${bigLabel} saved items (${compact(settings.small.users)} vs ${compact(settings.big.users)} shoppers); ` +
        `${settings.connections} connections, medians of ${settings.rounds} rounds x ${settings.durationSeconds} s, the two databases back to back; ` +
        `grown in ${seeds.grown.seconds.toFixed(0)} s\n`,
    );
    console.log(table(header, rows));
    console.log(
      `\nreq/s, p50, p99 (ms): full speed; × = median over rounds of req/s ${bigLabel} ÷ ${smallLabel} (same round, back to back). ` +
        `paced: both databases driven at the same constant rate (half the lower full-speed rate of the round); cpu ms = CPU time per request of the app ` +
        `and its database connections there; cpu × = median over rounds of cpu ms ${smallLabel} ÷ ${bigLabel} (the rate ${bigLabel} would reach ` +
        `relative to ${smallLabel} on cores of its own); paced p99 from each request's due time. ` +
        `asserted ≥ ${settings.minRatio} for hot routes (✓/✗): ${settings.assert === "rate" ? "×" : "cpu ×"} (GROWTH_ASSERT=${settings.assert}); stmts = statements per warm request ${smallLabel}/${bigLabel} (asserted equal); ` +
        `full scans = statements reading a grown table whole (asserted 0).`,
    );
    const otherScans = new Set([...smallPlans.values(), ...bigPlans.values()].flatMap((r) => r.plans.flatMap((p) => p.other)));
    if (otherScans.size) console.log(`full scans of small or ungrown tables (not asserted): ${[...otherScans].join(", ")}`);
    console.log(`seed (${bigLabel} − ${smallLabel}): ${Object.entries(seeds.grown.seconds_by_step).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(", ")}`);
    console.log(`items per list (${bigLabel} − ${smallLabel}): ${JSON.stringify(seeds.grown.itemsPerList)}`);

    const report = {
      ok,
      date: started.toISOString(),
      commit: gitCommit(),
      machine: {
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? null,
        memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
        loadAverageAtStart: os.loadavg(),
      },
      settings: { ...settings, postgresUrl: undefined, bigTableRows: BIG_TABLE_ROWS },
      seed: seeds,
      routes,
      rounds: Object.fromEntries(ROUTES.map((s) => [s.name, { small: figures[0].get(s.name)!.rounds, big: figures[1].get(s.name)!.rounds }])),
      plans: { small: Object.fromEntries(smallPlans), big: Object.fromEntries(bigPlans) },
      failures,
    };
    const outDir = path.join(root, "bench-results");
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, "growth.json"), JSON.stringify(report, null, 2) + "\n");
    console.log(`\nwrote bench-results/growth.json`);
    if (!ok) {
      console.error(`\nGROWTH BENCH FAILED:\n${failures.map((f) => `  ${f}`).join("\n")}`);
      return 1;
    }
    return 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
