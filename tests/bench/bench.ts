// `npm run bench` (GUIDE section 7): starts the built server on a fresh
// database and drives every scenario of scenarios.ts with autocannon, in
// rounds that each measure the framework ceiling too (GET /api/v1/, no
// database, no auth). On SQLite the reference server (reference-server.ts:
// bare node:http + prepared statements, same SQL and JSON) runs beside it on
// the same database, and every scenario it answers is measured on both,
// back to back in each round (alternating which goes first). Prints medians
// over rounds of req/s, p50, p99, of each round's app/reference ratio and of
// each round's route/ceiling ratio; writes them, with every round's raw
// figures, to bench-results/. Exits non-zero if any request failed.
//
//   BENCH_ROUNDS=3 BENCH_DURATION=3 (s per run) BENCH_CONNECTIONS=20
//   BENCH_WARMUP=1 (s per scenario, not recorded) BENCH_ONLY=auth.user,health
//   BENCH_DATABASE_URL=postgresql://… (a fresh database is created there and dropped)
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
  runScenario,
  sleep,
  startServer,
  wishCli,
  type BenchDatabase,
  type BenchServer,
  type RunResult,
} from "./harness.ts";
import { CEILING, SCENARIOS, type Scenario } from "./scenarios.ts";

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
  return {
    rounds: numberSetting("BENCH_ROUNDS", 3, { min: 1, integer: true }),
    durationSeconds: numberSetting("BENCH_DURATION", 3, { min: 1, integer: true }),
    warmupSeconds: numberSetting("BENCH_WARMUP", 1, { min: 0, integer: true }),
    connections: numberSetting("BENCH_CONNECTIONS", 20, { min: 1, integer: true }),
    pipelining: 1,
    only,
    postgresUrl: process.env.BENCH_DATABASE_URL || undefined,
    logLevel: "info",
  };
}

interface RoundFigures extends RunResult {
  round: number;
  /** Position in the round (the order rotates from round to round). */
  position: number;
  /** rps / ceiling rps of the same round. */
  ratio: number;
}

interface ReferenceRoundFigures extends RunResult {
  round: number;
  /** App rps / reference rps of the same round. */
  appRatio: number;
}

const fmt = (value: number, digits: number) => (Number.isNaN(value) ? "-" : value.toFixed(digits));

interface TableRow {
  name: string;
  route: string;
  rps: number;
  p50: number;
  p99: number;
  ratio: number;
  failures: number;
  reference: { rps: number; p50: number; p99: number; appRatio: number } | null;
}

function table(rows: TableRow[]) {
  const header = ["name", "route", "req/s", "p50 ms", "p99 ms", "ref req/s", "ref p50", "ref p99", "app/ref", "/ceiling", "errors"];
  const na = (value: number | undefined, digits: number) => (value === undefined ? "n/a" : fmt(value, digits));
  const cells = rows.map((r) => [
    r.name,
    r.route,
    fmt(r.rps, 0),
    fmt(r.p50, 2),
    fmt(r.p99, 2),
    na(r.reference?.rps, 0),
    na(r.reference?.p50, 2),
    na(r.reference?.p99, 2),
    na(r.reference?.appRatio, 3),
    fmt(r.ratio, 3),
    String(r.failures),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i < 2 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
  return [line(header), ...cells.map(line)].join("\n");
}

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const settings = readSettings();
  if (!existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("No build: `npm run bench` builds first; run `npm run build` before calling tests/bench/bench.ts directly.");
  }
  const selected = settings.only.length ? SCENARIOS.filter((s) => settings.only.includes(s.name)) : SCENARIOS;
  const scenarios: Scenario[] = [CEILING, ...selected];
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
    server = await startServer(database.url, dir);
    const { url: databaseUrl } = database;
    const appUrl = server.url;
    const api = new BenchApi(server.baseUrl, await anonKey(databaseUrl, appUrl), (args) => wishCli(databaseUrl, appUrl, args));
    if (database.kind === "sqlite") {
      // The reference reads the app's signing key, which the app creates when it first signs a token.
      await api.anonymousUser();
      reference = await startReference(databaseUrl, appUrl, dir);
    }
    const progress = (msg: string) => process.stderr.write(msg + "\n");
    const withReference = (scenario: Scenario) => !!reference && !!scenario.reference;
    progress(
      `bench on ${database.kind}: ${scenarios.length} scenarios (${scenarios.filter(withReference).length} also on the reference server) ` +
        `x ${settings.rounds} rounds x ${settings.durationSeconds} s, ${settings.connections} connections (warm-up ${settings.warmupSeconds} s each)` +
        (reference ? "" : "; no reference server on PostgreSQL"),
    );
    const run = (scenario: Scenario, target: BenchServer, durationSeconds: number) =>
      runScenario(scenario, { server: target, api, connections: settings.connections, durationSeconds });
    const line = (round: number, scenario: Scenario, on: string, result: RunResult) =>
      progress(
        `  round ${round}/${settings.rounds}  ${scenario.name.padEnd(14)} ${on.padEnd(9)} ${fmt(result.rps, 0).padStart(6)} req/s  ` +
          `p50 ${fmt(result.p50, 2)} ms  p99 ${fmt(result.p99, 2)} ms${result.failures ? `  FAILURES ${result.failures}` : ""}`,
      );

    const warmup: Record<string, RunResult> = {};
    const referenceWarmup: Record<string, RunResult> = {};
    if (settings.warmupSeconds > 0) {
      for (const scenario of scenarios) {
        warmup[scenario.name] = await run(scenario, server, settings.warmupSeconds);
        await sleep(300);
        if (!withReference(scenario)) continue;
        referenceWarmup[scenario.name] = await run(scenario, reference!, settings.warmupSeconds);
        await sleep(300);
      }
    }

    const rounds: Record<string, RoundFigures[]> = Object.fromEntries(scenarios.map((s) => [s.name, []]));
    const referenceRounds: Record<string, ReferenceRoundFigures[]> = Object.fromEntries(scenarios.map((s) => [s.name, []]));
    for (let round = 1; round <= settings.rounds; round++) {
      // Rotate the order so that no route always runs right after the ceiling.
      const offset = (round - 1) % scenarios.length;
      const order = [...scenarios.slice(offset), ...scenarios.slice(0, offset)];
      const results = new Map<Scenario, RunResult>();
      for (const [position, scenario] of order.entries()) {
        // App and reference back to back; who goes first alternates from round to round.
        const targets: Array<"app" | "reference"> = !withReference(scenario) ? ["app"] : round % 2 ? ["app", "reference"] : ["reference", "app"];
        let app: RunResult | undefined;
        let ref: RunResult | undefined;
        for (const target of targets) {
          const result = await run(scenario, target === "app" ? server : reference!, settings.durationSeconds);
          line(round, scenario, target, result);
          if (target === "app") app = result;
          else ref = result;
          // Let requests the load generator abandoned at the deadline finish.
          await sleep(300);
        }
        results.set(scenario, app!);
        rounds[scenario.name].push({ round, position, ratio: NaN, ...app! });
        if (ref) referenceRounds[scenario.name].push({ round, appRatio: app!.rps / ref.rps, ...ref });
      }
      const ceiling = results.get(CEILING)!.rps;
      for (const scenario of scenarios) rounds[scenario.name].at(-1)!.ratio = results.get(scenario)!.rps / ceiling;
    }

    const routes = scenarios.map((scenario) => {
      const figures = rounds[scenario.name];
      const warm = warmup[scenario.name];
      const refFigures = referenceRounds[scenario.name];
      const refWarm = referenceWarmup[scenario.name];
      const failures =
        [...figures, ...refFigures].reduce((sum, f) => sum + f.failures, 0) + (warm?.failures ?? 0) + (refWarm?.failures ?? 0);
      return {
        name: scenario.name,
        method: scenario.method,
        route: `${scenario.method} ${scenario.site ? "" : "/api/v1"}${scenario.path}`,
        ceiling: scenario === CEILING,
        rps: median(figures.map((f) => f.rps)),
        p50: median(figures.map((f) => f.p50)),
        p99: median(figures.map((f) => f.p99)),
        ratio: median(figures.map((f) => f.ratio)),
        failures,
        firstFailure: [warm, ...figures, refWarm, ...refFigures].find((f) => f?.firstFailure)?.firstFailure,
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
      };
    });

    const problems = routes.filter(
      (r) => r.failures > 0 || r.rounds.some((f) => f.requests === 0) || !!r.reference?.rounds.some((f) => f.requests === 0),
    );
    failed = problems.length > 0;

    console.log(
      `\n${database.kind}, ${settings.connections} connections, medians of ${settings.rounds} rounds x ${settings.durationSeconds} s ` +
        `(node ${process.version}, ${os.cpus().length} cpus)\n`,
    );
    console.log(table(routes));

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
        ceiling: `${CEILING.method} /api/v1${CEILING.path}`,
        reference: reference ? "tests/bench/reference-server.ts" : null,
      },
      units: {
        rps: "requests/s (mean of per-second samples)",
        p50: "ms",
        p99: "ms",
        ratio: "rps / ceiling rps, same round",
        "reference.appRatio": "app rps / reference rps, same round (median over rounds)",
      },
      routes,
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
