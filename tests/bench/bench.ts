// `npm run bench` (GUIDE section 7): starts the built server on a
// fresh database and drives every scenario of scenarios.ts with autocannon,
// in rounds that each measure the framework ceiling too (GET /api/v1/, no
// database, no auth). On SQLite the reference server (reference-server.ts:
// bare node:http + prepared statements, same SQL and JSON) runs beside it on
// the same database, and every scenario it answers is measured on both,
// back to back in each round (alternating which goes first). Every hot route
// is then driven at half the rate it just reached, at a constant pace, for
// its latency under ordinary load. Prints medians over rounds; writes them,
// with every round's raw figures, to bench-results/. Exits non-zero if any
// request failed.
//
// Scale mode (BENCH_SCALE=1 or `--scale`) measures the small database first,
// then grows it (scale-seed.ts) and measures the same routes again in the
// same process, reporting each route's rate against the small database.
//
//   BENCH_ROUNDS=3 BENCH_DURATION=3 (s per run) BENCH_CONNECTIONS=20
//   BENCH_WARMUP=1 (s per scenario, not recorded) BENCH_ONLY=auth.user,health
//   BENCH_DATABASE_URL=postgresql://… (a fresh database is created there and dropped)
//   BENCH_SCALE=1  BENCH_WEB_CONCURRENCY=n (the app's WEB_CONCURRENCY, default 1)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  anonKey,
  BenchApi,
  startReference,
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
import { seedScale, SCALE, type SeedReport } from "./scale-seed.ts";
import { CEILING, SCENARIOS, type Scenario } from "./scenarios.ts";

/** The benchmark's targets. */
const TARGET = {
  /** app ÷ reference, same round: the trivial route, and every other route the reference answers. */
  referenceCeiling: 0.3,
  reference: 0.5,
  /** p99 at half the maximum rate, ms. */
  halfRateP99: 20,
  /** Grown database's rate ÷ small database's. */
  scale: 0.9,
};

function numberSetting(name: string, fallback: number, { min, integer }: { min: number; integer: boolean }): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${integer ? "an integer" : "a number"} >= ${min}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function readSettings() {
  const only = (process.env.BENCH_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const known = SCENARIOS.map((s) => s.name);
  const unknown = only.filter((name) => name !== CEILING.name && !known.includes(name));
  if (unknown.length) throw new Error(`BENCH_ONLY: unknown scenario ${unknown.join(", ")}; known: ${known.join(", ")}`);
  const args = process.argv.slice(2);
  const unknownArgs = args.filter((a) => a !== "--scale");
  if (unknownArgs.length) throw new Error(`unknown argument ${unknownArgs.join(" ")} (known: --scale)`);
  const scaleFlag = process.env.BENCH_SCALE ?? "";
  if (!["", "0", "1"].includes(scaleFlag)) throw new Error(`BENCH_SCALE must be 0 or 1, got ${JSON.stringify(scaleFlag)}`);
  // One worker by default: the reference is one process, and on 2 cores the load generator holds the other.
  const webConcurrency = numberSetting("BENCH_WEB_CONCURRENCY", 1, { min: 1, integer: true });
  return {
    rounds: numberSetting("BENCH_ROUNDS", 3, { min: 1, integer: true }),
    durationSeconds: numberSetting("BENCH_DURATION", 3, { min: 1, integer: true }),
    warmupSeconds: numberSetting("BENCH_WARMUP", 1, { min: 0, integer: true }),
    connections: numberSetting("BENCH_CONNECTIONS", 20, { min: 1, integer: true }),
    pipelining: 1,
    only,
    scale: scaleFlag === "1" || args.includes("--scale"),
    webConcurrency,
    postgresUrl: process.env.BENCH_DATABASE_URL || undefined,
    logLevel: "info",
  };
}
type Settings = ReturnType<typeof readSettings>;

interface RoundFigures extends RunResult {
  round: number;
  /** Position in the round (the order rotates from round to round). */
  position: number;
  /** rps / ceiling rps of the same round. */
  ratio: number;
  /** rps / rps of the scenario named by `relativeTo`, same round. */
  relativeRatio?: number;
}

interface ReferenceRoundFigures extends RunResult {
  round: number;
  /** App rps / reference rps of the same round. */
  appRatio: number;
}

interface HalfRateRoundFigures extends PacedResult {
  round: number;
  /** The reference server's p99 at the same constant rate (the machine's own tail at that rate), ms. */
  referenceP99?: number;
}

/** One route's figures in one mode (medians over rounds, and every round). */
interface RouteFigures {
  name: string;
  method: string;
  route: string;
  ceiling: boolean;
  hot: boolean;
  rps: number;
  p50: number;
  p99: number;
  ratio: number;
  failures: number;
  firstFailure?: string;
  rounds: RoundFigures[];
  warmup: RunResult | null;
  reference: {
    rps: number;
    p50: number;
    p99: number;
    appRatio: number;
    rounds: ReferenceRoundFigures[];
    warmup: RunResult | null;
  } | null;
  /** The constant-rate pass at half of the same round's maximum (hot routes). */
  halfRate: { targetRate: number; rate: number; p50: number; p99: number; referenceP99?: number; rounds: HalfRateRoundFigures[] } | null;
  /** `relativeTo` in scenarios.ts: this route's rps ÷ that route's, same round (median over rounds). */
  relative: { to: string; ratio: number } | null;
  /** Scale mode: this rps ÷ the small database's median rps. */
  smallRatio?: number;
  /** Scale mode: this /ceiling ÷ the small database's (discounts load that slowed the whole machine between the modes). */
  smallRatioAdjusted?: number;
}

const fmt = (value: number | undefined, digits: number) => (value === undefined || Number.isNaN(value) ? "—" : value.toFixed(digits));
const mark = (ok: boolean) => (ok ? " ✓" : " ✗");
const referenceTarget = (r: RouteFigures) => (r.ceiling ? TARGET.referenceCeiling : TARGET.reference);

function renderTable(header: string[], cells: string[][], leftAligned: number[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c.map((v, i) => (leftAligned.includes(i) ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ").trimEnd();
  return [line(header), ...cells.map(line)].join("\n");
}

const withTarget = (value: number | undefined, digits: number, ok: ((v: number) => boolean) | null) =>
  value === undefined || Number.isNaN(value) ? "—" : fmt(value, digits) + (ok ? mark(ok(value)) : "");

/** Columns both modes share: the app's figures, the reference's, the half-rate pass. */
function commonCells(r: RouteFigures) {
  return {
    rps: fmt(r.rps, 0),
    p50: fmt(r.p50, 2),
    p99: fmt(r.p99, 2),
    refRps: fmt(r.reference?.rps, 0),
    appRef: withTarget(r.reference?.appRatio, 3, (v) => v >= referenceTarget(r)),
    halfRate: fmt(r.halfRate?.targetRate, 0),
    halfP50: fmt(r.halfRate?.p50, 2),
    halfP99: withTarget(r.halfRate?.p99, 2, (v) => v <= TARGET.halfRateP99),
    refHalfP99: fmt(r.halfRate?.referenceP99, 2),
    ceiling: fmt(r.ratio, 3),
    errors: String(r.failures),
  };
}

function smallTable(routes: RouteFigures[]): string {
  const header = ["name", "req/s", "p50 ms", "p99 ms", "ref req/s", "ref p99", "app/ref", "½ req/s", "½ p50", "½ p99", "ref ½ p99", "/ceiling", "errors", "route"];
  const cells = routes.map((r) => {
    const c = commonCells(r);
    return [r.name, c.rps, c.p50, c.p99, c.refRps, fmt(r.reference?.p99, 2), c.appRef, c.halfRate, c.halfP50, c.halfP99, c.refHalfP99, c.ceiling, c.errors, r.route];
  });
  return renderTable(header, cells, [0, header.length - 1]);
}

function scaleTable(routes: RouteFigures[]): string {
  const header = ["name", "req/s", "×small", "adj", "p50 ms", "p99 ms", "ref req/s", "app/ref", "½ req/s", "½ p50", "½ p99", "/ceiling", "errors", "route"];
  const cells = routes.map((r) => {
    const c = commonCells(r);
    const small = withTarget(r.smallRatio, 3, r.hot ? (v) => v >= TARGET.scale : null);
    return [r.name, c.rps, small, fmt(r.smallRatioAdjusted, 3), c.p50, c.p99, c.refRps, c.appRef, c.halfRate, c.halfP50, c.halfP99, c.ceiling, c.errors, r.route];
  });
  return renderTable(header, cells, [0, header.length - 1]);
}

/** One line per route measured against another (`relativeTo`): the median of the per-round ratios, and each round's. */
function relativeLines(routes: RouteFigures[]): string {
  return routes
    .filter((r) => r.relative)
    .map((r) => `${r.name} ÷ ${r.relative!.to}: ${fmt(r.relative!.ratio, 3)} (rounds: ${r.rounds.map((f) => fmt(f.relativeRatio, 3)).join(", ")})`)
    .join("\n");
}

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

interface Servers {
  app: BenchServer;
  reference?: BenchServer;
  api: BenchApi;
}

const progress = (msg: string) => process.stderr.write(msg + "\n");

/**
 * One mode's measurement: a warm-up of every scenario, then `rounds` rounds
 * of every scenario at full speed (app and reference back to back), each
 * hot route followed by its constant-rate pass at half the rate it reached.
 */
async function measure(mode: string, scenarios: Scenario[], settings: Settings, { app, reference, api }: Servers): Promise<RouteFigures[]> {
  const withReference = (scenario: Scenario) => !!reference && !!scenario.reference;
  const run = (scenario: Scenario, target: BenchServer, durationSeconds: number) =>
    runScenario(scenario, { server: target, api, connections: settings.connections, durationSeconds });
  const line = (round: number, scenario: Scenario, on: string, f: { rps: number; p50: number; p99: number; failures: number }) =>
    progress(
      `  ${mode} ${round}/${settings.rounds}  ${scenario.name.padEnd(14)} ${on.padEnd(9)} ${fmt(f.rps, 0).padStart(6)} req/s  ` +
        `p50 ${fmt(f.p50, 2)} ms  p99 ${fmt(f.p99, 2)} ms${f.failures ? `  FAILURES ${f.failures}` : ""}`,
    );

  const warmup: Record<string, RunResult> = {};
  const referenceWarmup: Record<string, RunResult> = {};
  if (settings.warmupSeconds > 0) {
    for (const scenario of scenarios) {
      warmup[scenario.name] = await run(scenario, app, settings.warmupSeconds);
      await sleep(300);
      if (!withReference(scenario)) continue;
      referenceWarmup[scenario.name] = await run(scenario, reference!, settings.warmupSeconds);
      await sleep(300);
    }
  }

  const rounds: Record<string, RoundFigures[]> = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  const referenceRounds: Record<string, ReferenceRoundFigures[]> = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  const halfRounds: Record<string, HalfRateRoundFigures[]> = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    // Rotate the order so that no route always runs right after the ceiling.
    const offset = (round - 1) % scenarios.length;
    const order = [...scenarios.slice(offset), ...scenarios.slice(0, offset)];
    const results = new Map<Scenario, RunResult>();
    for (const [position, scenario] of order.entries()) {
      // App and reference back to back; who goes first alternates from round to round.
      const targets: Array<"app" | "reference"> = !withReference(scenario) ? ["app"] : round % 2 ? ["app", "reference"] : ["reference", "app"];
      let appResult: RunResult | undefined;
      let refResult: RunResult | undefined;
      for (const target of targets) {
        const result = await run(scenario, target === "app" ? app : reference!, settings.durationSeconds);
        line(round, scenario, target, result);
        if (target === "app") appResult = result;
        else refResult = result;
        // Let requests the load generator abandoned at the deadline finish.
        await sleep(300);
      }
      results.set(scenario, appResult!);
      rounds[scenario.name].push({ round, position, ratio: NaN, ...appResult! });
      if (refResult) referenceRounds[scenario.name].push({ round, appRatio: appResult!.rps / refResult.rps, ...refResult });
      if (scenario.hot && appResult!.rps >= 2) {
        const rate = Math.floor(appResult!.rps / 2);
        const half = await runPaced(scenario, { server: app, api, connections: settings.connections, durationSeconds: settings.durationSeconds, rate });
        line(round, scenario, "app ½", { ...half, rps: half.rate });
        await sleep(300);
        // The reference at the same pace: what this machine and load generator give at that rate.
        const refHalf = refResult ? await runPaced(scenario, { server: reference!, api, connections: settings.connections, durationSeconds: settings.durationSeconds, rate }) : null;
        if (refHalf) {
          line(round, scenario, "reference ½", { ...refHalf, rps: refHalf.rate });
          await sleep(300);
        }
        halfRounds[scenario.name].push({ round, ...half, referenceP99: refHalf?.p99 });
      }
    }
    const ceiling = results.get(CEILING)!.rps;
    for (const scenario of scenarios) rounds[scenario.name].at(-1)!.ratio = results.get(scenario)!.rps / ceiling;
    for (const scenario of scenarios) {
      const other = scenarios.find((s) => s.name === scenario.relativeTo);
      if (other) rounds[scenario.name].at(-1)!.relativeRatio = results.get(scenario)!.rps / results.get(other)!.rps;
    }
  }

  return scenarios.map((scenario) => {
    const figures = rounds[scenario.name];
    const warm = warmup[scenario.name];
    const refFigures = referenceRounds[scenario.name];
    const refWarm = referenceWarmup[scenario.name];
    const half = halfRounds[scenario.name];
    const failures =
      [...figures, ...refFigures, ...half].reduce((sum, f) => sum + f.failures, 0) + (warm?.failures ?? 0) + (refWarm?.failures ?? 0);
    return {
      name: scenario.name,
      method: scenario.method,
      route: `${scenario.method} ${scenario.site ? "" : "/api/v1"}${scenario.path}`,
      ceiling: scenario === CEILING,
      hot: !!scenario.hot,
      rps: median(figures.map((f) => f.rps)),
      p50: median(figures.map((f) => f.p50)),
      p99: median(figures.map((f) => f.p99)),
      ratio: median(figures.map((f) => f.ratio)),
      relative: figures.some((f) => f.relativeRatio !== undefined)
        ? { to: scenario.relativeTo!, ratio: median(figures.map((f) => f.relativeRatio ?? NaN)) }
        : null,
      failures,
      firstFailure: [warm, ...figures, refWarm, ...refFigures, ...half].find((f) => f?.firstFailure)?.firstFailure,
      rounds: figures,
      warmup: warm ?? null,
      reference: refFigures.length
        ? {
            rps: median(refFigures.map((f) => f.rps)),
            p50: median(refFigures.map((f) => f.p50)),
            p99: median(refFigures.map((f) => f.p99)),
            appRatio: median(refFigures.map((f) => f.appRatio)),
            rounds: refFigures,
            warmup: refWarm ?? null,
          }
        : null,
      halfRate: half.length
        ? {
            targetRate: median(half.map((f) => f.targetRate)),
            rate: median(half.map((f) => f.rate)),
            p50: median(half.map((f) => f.p50)),
            p99: median(half.map((f) => f.p99)),
            referenceP99: half.every((f) => f.referenceP99 !== undefined) ? median(half.map((f) => f.referenceP99!)) : undefined,
            rounds: half,
          }
        : null,
    };
  });
}

const troubled = (routes: RouteFigures[]) =>
  routes.filter((r) => r.failures > 0 || r.rounds.some((f) => f.requests === 0) || !!r.reference?.rounds.some((f) => f.requests === 0));

async function main(): Promise<number> {
  const settings = readSettings();
  if (!existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("No build: `npm run bench` builds first; run `npm run build` before calling tests/bench/bench.ts directly.");
  }
  const selected = settings.only.length ? SCENARIOS.filter((s) => settings.only.includes(s.name)) : SCENARIOS;
  const scenarios: Scenario[] = [CEILING, ...selected];
  for (const s of scenarios) if (s.hot && s.chain) throw new Error(`${s.name}: a hot scenario cannot be chained (no constant-rate pass)`);
  const started = new Date();
  const dir = makeTempDir();
  let database: BenchDatabase | undefined;
  let server: BenchServer | undefined;
  let reference: BenchServer | undefined;
  let failed = true;

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await reference?.stop().catch((err) => console.error(`stopping the reference server: ${err.message}`));
      await server?.stop().catch((err) => console.error(`stopping the server: ${err.message}`));
      await database?.drop().catch((err) => console.error(`dropping the database: ${err.message}`));
      if (failed) console.error(`server log and database kept in ${dir}`);
      else removeDir(dir);
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    database = await freshDatabase(dir, settings.postgresUrl);
    const serverEnv = { WEB_CONCURRENCY: String(settings.webConcurrency) };
    server = await startServer(database.url, dir, serverEnv);
    const { url: databaseUrl } = database;
    const appUrl = server.url;
    const api = new BenchApi(server.baseUrl, await anonKey(databaseUrl, appUrl), (args) => wishCli(databaseUrl, appUrl, args), databaseUrl);
    if (database.kind === "sqlite") {
      // The reference reads the app's signing key, which the app creates when it first signs a token.
      await api.anonymousUser();
      reference = await startReference(databaseUrl, appUrl, dir);
    }
    const servers: Servers = { app: server, reference, api };
    const hot = scenarios.filter((s) => s.hot).length;
    progress(
      `bench on ${database.kind}${settings.scale ? " (scale mode: small database, then grown)" : ""}: ${scenarios.length} scenarios ` +
        `(${reference ? scenarios.filter((s) => s.reference).length : 0} also on the reference server, ${hot} hot with a half-rate pass) ` +
        `x ${settings.rounds} rounds x ${settings.durationSeconds} s, ${settings.connections} connections (warm-up ${settings.warmupSeconds} s each)` +
        (reference ? "" : "; no reference server on PostgreSQL") +
        `; WEB_CONCURRENCY=${settings.webConcurrency}`,
    );

    const routes = await measure("small", scenarios, settings, servers);
    let scale: { seed: SeedReport; routes: RouteFigures[] } | null = null;
    if (settings.scale) {
      progress(`growing the database (${SCALE.items} items, ${SCALE.requestCounters} request counters, ${SCALE.usageDedup} dedup keys, ${SCALE.pricePoints} price points)`);
      const seed = await seedScale(databaseUrl, (msg) => progress(msg));
      progress(`  grown in ${seed.seconds.toFixed(1)} s`);
      const grown = await measure("scale", scenarios, settings, servers);
      const small = new Map(routes.map((r) => [r.name, r]));
      for (const r of grown) {
        r.smallRatio = r.rps / small.get(r.name)!.rps;
        r.smallRatioAdjusted = r.ratio / small.get(r.name)!.ratio;
      }
      scale = { seed, routes: grown };
    }

    const problems = [...troubled(routes), ...troubled(scale?.routes ?? [])];
    failed = problems.length > 0;

    const about = `${settings.connections} connections, medians of ${settings.rounds} rounds x ${settings.durationSeconds} s (node ${process.version}, ${os.cpus().length} cpus)`;
    console.log(`\n${database.kind}, small database, ${about}\n`);
    console.log(smallTable(routes));
    const relative = relativeLines(routes);
    if (relative) console.log(`\n${relative}`);
    if (scale) {
      console.log(
        `\n${database.kind}, grown database (${SCALE.items} items, ${SCALE.requestCounters} request counters, ${SCALE.usageDedup} dedup keys, ` +
          `${SCALE.pricePoints} price points; seeded in ${scale.seed.seconds.toFixed(1)} s), ${about}\n`,
      );
      console.log(scaleTable(scale.routes));
      const grownRelative = relativeLines(scale.routes);
      if (grownRelative) console.log(`\n${grownRelative}`);
    }
    console.log(
      `\ntargets: app/ref ≥ ${TARGET.reference} (trivial route ≥ ${TARGET.referenceCeiling}); ½ p99 ≤ ${TARGET.halfRateP99} ms at half the rate reached` +
        (scale ? `; ×small ≥ ${TARGET.scale} for hot routes` : "") +
        `; — = not measured (no reference twin, or not a hot route)`,
    );

    const report = {
      ok: !failed,
      date: started.toISOString(),
      commit: gitCommit(),
      machine: {
        node: process.version,
        platform: `${os.platform()} ${os.release()} ${os.arch()}`,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? null,
        memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
        loadAverageAtStart: os.loadavg(),
      },
      settings: {
        database: database.kind,
        rounds: settings.rounds,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
        connections: settings.connections,
        pipelining: settings.pipelining,
        only: settings.only,
        logLevel: settings.logLevel,
        scale: settings.scale,
        webConcurrency: settings.webConcurrency ?? null,
        ceiling: `${CEILING.method} /api/v1${CEILING.path}`,
        reference: reference ? "tests/bench/reference-server.ts" : null,
        targets: TARGET,
      },
      units: {
        rps: "requests/s (mean of per-second samples)",
        p50: "ms",
        p99: "ms",
        ratio: "rps / ceiling rps, same round",
        relative: "rps / rps of the route named in relative.to, same round (median over rounds; per round in rounds[].relativeRatio)",
        "reference.appRatio": "app rps / reference rps, same round (median over rounds)",
        halfRate:
          "constant-rate pass right after the full-speed run, at half its rps (targetRate); rate = 2xx answers/s; " +
          "p50/p99 in ms from each request's scheduled send time",
        smallRatio: "scale mode: median rps on the grown database / median rps on the small one, same process",
        smallRatioAdjusted: "scale mode: median rps/ceiling on the grown database / the same on the small one",
      },
      routes,
      scale: scale ? { rows: SCALE, seed: scale.seed, routes: scale.routes } : null,
    };
    const outDir = path.join(root, "bench-results");
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `bench-${started.toISOString().replace(/:/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
    if (!failed) writeFileSync(path.join(outDir, "latest.json"), JSON.stringify(report, null, 2) + "\n");
    console.log(`\nwrote ${path.relative(root, file)}${failed ? "" : " and bench-results/latest.json"}`);

    if (failed) {
      console.error("\nBENCH FAILED: these numbers cannot be trusted.");
      for (const r of problems) {
        const codes = r.rounds.map((f) => JSON.stringify(f.statusCodes)).join(" ");
        console.error(`  ${r.name}: ${r.failures} failed requests; status codes per round ${codes}`);
        if (r.firstFailure) console.error(`    first failure: ${r.firstFailure}`);
      }
      console.error(`  server log: ${server.logFile}${reference ? `; reference log: ${reference.logFile}` : ""}`);
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
