// `npm run bench:peak`: the load model of docs/capacity.md driven against
// several instances of the built server on one PostgreSQL, bounded in time,
// with a report of what held and what did not.
//
// Phases (each bounded):
//   1. mix: the modelled traffic at 150 % of the modelled peak, then at
//      multiples of it (PEAK_STEPS) until a step misses its targets: the
//      multiple this machine holds is the figure the sizing rule starts from;
//   2. overload: PEAK_OVERLOAD_CONNECTIONS clients at one instance that
//      honour Retry-After: /health must never call the idle database down,
//      and most requests must get through;
//   3. webhooks: a burst of signed products/update deliveries with
//      duplicates (webhook-burst.ts), answered within 500 ms p99, processed
//      once each;
//   4. alert fan-out: a price drop on a product saved by many shoppers
//      (fanout.ts), queued without an Admin API call per shopper, none twice.
// Throughout, every instance's /health is probed (a "database: down" while
// the database is up fails the run), PostgreSQL's connections are counted
// against the budget, and the instances' memory is read from /proc.
//
// Settings (environment):
//   BENCH_DATABASE_URL=postgresql://… (default the local server; a fresh database is created and dropped)
//   PEAK_INSTANCES=2 PEAK_WORKERS=2 PEAK_POOL_SIZE=20 (per instance)
//   PEAK_SECONDS=10 (per mix step) PEAK_STEPS=1,2,4,8 (multiples of the 150 % load)
//   PEAK_OVERLOAD_CONNECTIONS=2000 PEAK_OVERLOAD_SECONDS=10
//   PEAK_WEBHOOKS=1000 PEAK_FANOUT_SAVERS=50000 (0 skips a phase)
// Writes bench-results/peak-<time>.json; exits 1 when a target is missed.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { anonKey, BenchApi, freshDatabase, makeTempDir, percentile, removeDir, root, sleep, startServer, wishCli, type BenchServer } from "./harness.ts";
import { PEAK_MODEL, type RouteClass } from "./peak-model.ts";
import { runWebhookBurst, type WebhookBurstResult } from "./webhook-burst.ts";
import { benchFanout, type FanoutBenchResult } from "./fanout.ts";

const env = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got ${JSON.stringify(raw)}`);
  return value;
};

const settings = {
  postgresUrl: process.env.BENCH_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
  instances: env("PEAK_INSTANCES", 2),
  workers: env("PEAK_WORKERS", 2),
  poolSize: env("PEAK_POOL_SIZE", 20),
  stepSeconds: env("PEAK_SECONDS", 10),
  steps: (process.env.PEAK_STEPS || "1,2,4,8").split(",").map(Number),
  overloadConnections: env("PEAK_OVERLOAD_CONNECTIONS", 2000),
  overloadSeconds: env("PEAK_OVERLOAD_SECONDS", 10),
  webhooks: env("PEAK_WEBHOOKS", 1000),
  fanoutSavers: env("PEAK_FANOUT_SAVERS", 50_000),
};

/** What a step must hold: p99 of the hot routes, and errors (not counting 503s that asked to retry). */
const TARGETS = { hotP99Ms: 250, errorRate: 0.001 };
/** The overload phase: share of logical requests that must end 200 for clients honouring Retry-After. */
const OVERLOAD_SUCCESS = 0.9;
/** Shopify waits 5 s for a webhook's answer; we aim at a tenth of it for the slowest 1 % of a wave. */
const WEBHOOK_P99_MS = 500;

// Node's fetch opens as many connections per host as there are requests waiting (its default agent has no cap).
const request = (
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  } = {}
) => fetch(url, init);

// ---------------------------------------------------------------- fixtures

interface Fixture {
  /** Per route class: the requests it sends (one picked per request, the viral shop's share weighted in). */
  requests: Record<
    RouteClass,
    Array<{
      method: string;
      path: string;
      headers?: Record<string, string>;
      body?: string;
    }>
  >;
  /** A public list's JSON read (one statement, metered): the overload phase's request. */
  overloadPath: string;
}

async function fixtures(api: BenchApi, server: BenchServer): Promise<Fixture> {
  const requests: Fixture["requests"] = { heart: [], init: [], save: [], share: [], view: [], og: [] };
  const shops = PEAK_MODEL.shops;
  for (let s = 0; s < shops; s++) {
    const { partner } = await api.wish(["partner", "create", "--name", `Peak shop ${s}`, "--email", `peak${s}@shop.example`, "--plan", "scale"]);
    const { key } = (await api.wish(["key", "create", "--partner", String(partner.partner_id), "--env", "test"])).key;
    const origin = `https://peak-shop-${s}.example.com`;
    // The viral shop has as many recognised shoppers as all the others together.
    const weight = s === 0 ? shops - 1 : 1;
    const init = {
      method: "POST",
      path: "/widget/init",
      headers: { apikey: api.anonKey, authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ origin }),
    };
    for (let w = 0; w < weight; w++) requests.init.push(init);
    for (let u = 0; u < weight * PEAK_MODEL.shoppersPerShop; u++) {
      // A returning shopper: a widget session id of their own, saves through the shop, and the grant the dialog stores for that sid.
      const { token, sid } = (await api.request("POST", "/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin } })) as { token: string; sid: string };
      const user = await api.anonymousUser();
      const wishlistId = (await api.request("POST", "/hosted/me/init", { headers: { authorization: `Bearer ${user.access_token}` } })).list.db_id as number;
      const auth = { apikey: api.anonKey, authorization: `Bearer ${user.access_token}`, "x-widget-token": token, origin };
      for (let i = 0; i < 3; i++) {
        await api.request("POST", "/widget/save", { headers: auth, body: { wishlistId, product: product(s, u * 10 + i) } });
      }
      await api.request("POST", "/widget/session-store", { headers: { "x-widget-token": token, origin }, body: { access_token: user.access_token, sid } });
      // Heart state of a page: one init that carries the saved products (docs/storefront.md).
      requests.heart.push({ ...init, body: JSON.stringify({ origin, sid, saved: true }) });
      requests.save.push({
        method: "POST",
        path: "/widget/save",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ wishlistId, product: product(s, 1_000 + u) }),
      });
    }
  }
  for (let l = 0; l < PEAK_MODEL.sharedLists; l++) {
    const owner = await api.anonymousUser();
    const auth = { authorization: `Bearer ${owner.access_token}` };
    const created = await api.request("POST", "/hosted/me/lists", {
      headers: auth,
      body: { name: `Birthday ${l}` },
    });
    for (let i = 0; i < 20; i++) {
      await api.request("POST", "/hosted/save", {
        headers: auth,
        body: {
          wishlistId: created.list.db_id,
          product: product(0, 5_000 + l * 20 + i),
        },
      });
    }
    await api.request("PUT", `/hosted/lists/${created.token}`, {
      headers: auth,
      body: { share_public: true },
    });
    // The first list is the one shared in a busy chat: half of all share-page and preview traffic.
    const weight = l === 0 ? PEAK_MODEL.sharedLists - 1 : 1;
    const page = await (await request(`${server.baseUrl}/og/list/${created.token}?lang=de`)).text();
    const image = /<meta property="og:image" content="([^"]+)"/.exec(page)?.[1];
    if (!image) throw new Error(`no og:image on /og/list/${created.token}`);
    for (let w = 0; w < weight; w++) {
      requests.share.push({ method: "GET", path: `${server.url}/en/list/${created.token}` });
      // The page reports its own view (a beacon, never cached): what reaches the origin per view behind a CDN.
      requests.view.push({ method: "POST", path: `${server.url}/en/list/${created.token}/view` });
      requests.og.push({ method: "GET", path: new URL(image).pathname.replace(/^\/api\/v1/, "") });
    }
  }
  return {
    requests,
    overloadPath: `/hosted/public/lists/${requests.share[0]!.path.split("/").at(-1)}/items`,
  };
}

const product = (shop: number, n: number) => ({
  url: `https://peak-shop-${shop}.example.com/products/p${n}`,
  title: `Peak product ${n}`,
  price: 1000 + n,
  currency: "EUR",
  marketCode: "de-DE",
});

// ---------------------------------------------------------------- watching the instances

interface Watch {
  healthProbes: number;
  /** /health answers that said the database is down (the database never is in this run). */
  healthDown: number;
  healthSaturated: number;
  peakConnections: number;
  /** Highest resident memory of each instance (its processes together), MiB. */
  peakRssMiB: number[];
  stop(): Promise<void>;
}

function watch(instances: BenchServer[], databaseUrl: string): Watch {
  const state = {
    healthProbes: 0,
    healthDown: 0,
    healthSaturated: 0,
    peakConnections: 0,
    peakRssMiB: instances.map(() => 0),
  };
  let running = true;
  const probe = async (server: BenchServer) => {
    while (running) {
      try {
        const res = await request(`${server.baseUrl}/health`);
        const body = (await res.json()) as {
          checks?: { database?: string; capacity?: string };
        };
        state.healthProbes++;
        if (body.checks?.database === "down") state.healthDown++;
        if (body.checks?.capacity === "saturated") state.healthSaturated++;
      } catch {
        state.healthDown++;
      }
      await sleep(200);
    }
  };
  const sample = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      while (running) {
        const { rows } = await client.query(`SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        state.peakConnections = Math.max(state.peakConnections, rows[0].n);
        instances.forEach((server, i) => (state.peakRssMiB[i] = Math.max(state.peakRssMiB[i]!, treeRssMiB(server.pid))));
        await sleep(500);
      }
    } finally {
      await client.end();
    }
  };
  const loops = [...instances.map(probe), sample()];
  return Object.assign(state, {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  });
}

/** Resident memory of a process and its children (a cluster's workers), MiB. */
function treeRssMiB(pid: number): number {
  const rss = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) / 1024;
  try {
    const children = execFileSync("pgrep", ["-P", String(pid)])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
    return rss(pid) + children.reduce((sum, child) => sum + rss(child), 0);
  } catch {
    return rss(pid);
  }
}

// ---------------------------------------------------------------- phase 1: the mix

interface RouteFigures {
  sent: number;
  ok: number;
  /** 503 with Retry-After (shed or database busy): the client is told when to come back. */
  retryLater: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
}

interface StepResult {
  multiple: number;
  offeredRps: number;
  routes: Record<RouteClass, RouteFigures>;
  held: boolean;
  why?: string;
}

/** Open-loop: requests leave at the modelled rate whether or not earlier ones have answered (no coordinated omission). */
async function runStep(instances: BenchServer[], fixture: Fixture, multiple: number, seconds: number): Promise<StepResult> {
  const classes = Object.keys(PEAK_MODEL.rates) as RouteClass[];
  const latencies = Object.fromEntries(classes.map((c) => [c, [] as number[]])) as Record<RouteClass, number[]>;
  const counts = Object.fromEntries(classes.map((c) => [c, { sent: 0, ok: 0, retryLater: 0, errors: 0 }])) as Record<
    RouteClass,
    { sent: number; ok: number; retryLater: number; errors: number }
  >;
  const inFlight: Promise<void>[] = [];
  const firstError: Partial<Record<RouteClass, string>> = {};
  const started = performance.now();
  const end = started + seconds * 1000;
  let next = 0;
  const send = (c: RouteClass) => {
    const pick = fixture.requests[c][Math.floor(Math.random() * fixture.requests[c].length)]!;
    // Share pages are absolute (site pages); API paths go to an instance in turn, as a balancer would.
    const server = instances[next++ % instances.length]!;
    const url = pick.path.startsWith("http") ? pick.path.replace(/^http:\/\/[^/]+/, server.url) : server.baseUrl + pick.path;
    const t0 = performance.now();
    counts[c].sent++;
    inFlight.push(
      request(url, {
        method: pick.method,
        headers: pick.headers,
        body: pick.body,
      })
        .then(async (res) => {
          if (res.status < 400) {
            await res.arrayBuffer();
            counts[c].ok++;
            latencies[c].push(performance.now() - t0);
          } else if (res.status === 503 && res.headers.get("retry-after")) {
            await res.arrayBuffer();
            counts[c].retryLater++;
          } else {
            counts[c].errors++;
            firstError[c] ??= `${res.status} ${(await res.text().catch(() => "")).slice(0, 200)}`;
          }
        })
        .catch((err: Error) => {
          counts[c].errors++;
          firstError[c] ??= err.message;
        })
    );
  };
  // One tick every 5 ms: each class sends what its rate owes since the start.
  while (performance.now() < end) {
    const elapsed = (performance.now() - started) / 1000;
    for (const c of classes) {
      const owed = Math.floor(elapsed * PEAK_MODEL.rates[c] * multiple) - counts[c].sent;
      for (let i = 0; i < owed; i++) send(c);
    }
    await sleep(5);
  }
  await Promise.all(inFlight);
  const routes = {} as Record<RouteClass, RouteFigures>;
  let why: string | undefined;
  for (const c of classes) {
    const sorted = latencies[c].sort((a, b) => a - b);
    routes[c] = {
      ...counts[c],
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      rps: round(counts[c].ok / seconds),
    };
    if (counts[c].errors / Math.max(1, counts[c].sent) > TARGETS.errorRate)
      why ??= `${c}: ${counts[c].errors} errors of ${counts[c].sent} (first: ${firstError[c]})`;
    if (PEAK_MODEL.hot.includes(c) && routes[c].p99 > TARGETS.hotP99Ms) why ??= `${c}: p99 ${routes[c].p99} ms > ${TARGETS.hotP99Ms}`;
  }
  const offeredRps = round(classes.reduce((sum, c) => sum + PEAK_MODEL.rates[c] * multiple, 0));
  return { multiple, offeredRps, routes, held: !why, why };
}

const round = (n: number) => Math.round(n * 10) / 10;

// ---------------------------------------------------------------- phase 2: overload

interface OverloadResult {
  connections: number;
  seconds: number;
  logical: number;
  succeeded: number;
  gaveUp: number;
  attempts: number;
  shed: number;
  successRate: number;
}

/**
 * `connections` clients at one instance, each sending one request after another;
 * a 503 with Retry-After is retried after that many seconds (with jitter), up to
 * five tries. Counts the logical requests that ended 200.
 */
async function overload(server: BenchServer, path: string, connections: number, seconds: number): Promise<OverloadResult> {
  const result = { logical: 0, succeeded: 0, gaveUp: 0, attempts: 0, shed: 0 };
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      result.logical++;
      let done = false;
      for (let attempt = 0; attempt < 5 && !done; attempt++) {
        result.attempts++;
        try {
          const res = await request(server.baseUrl + path, {
            headers: { accept: "application/json" },
          });
          await res.arrayBuffer();
          if (res.status === 200) {
            done = true;
            break;
          }
          const retryAfter = Number(res.headers.get("retry-after") ?? 1);
          if (res.status === 503) result.shed++;
          await sleep(retryAfter * 1000 * (1 + Math.random() * 0.5));
        } catch {
          await sleep(1000 * (1 + Math.random()));
        }
      }
      if (done) result.succeeded++;
      else result.gaveUp++;
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return {
    connections,
    seconds,
    ...result,
    successRate: round((result.succeeded / Math.max(1, result.logical)) * 1000) / 1000,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const dir = makeTempDir();
  const database = await freshDatabase(dir, settings.postgresUrl);
  const instances: BenchServer[] = [];
  const failures: string[] = [];
  const webhookSecret = `shpss_peak_${randomBytes(8).toString("hex")}`;
  try {
    const instanceEnv = {
      WEB_CONCURRENCY: String(settings.workers),
      DATABASE_POOL_SIZE: String(settings.poolSize),
      // Every client is 127.0.0.1 here; behind a balancer (a trusted proxy) the per-client cap does not apply either.
      MAX_CONNECTIONS_PER_CLIENT: "0",
      SHOPIFY_API_KEY: "peak-client-id",
      SHOPIFY_API_SECRET: webhookSecret,
    };
    // The first instance's address is the service's public one for all of them, as behind a balancer.
    instances.push(await startServer(database.url, dir, instanceEnv, "instance-0.log"));
    for (let i = 1; i < settings.instances; i++) {
      instances.push(await startServer(database.url, dir, { ...instanceEnv, APP_URL: instances[0]!.url }, `instance-${i}.log`));
    }
    const first = instances[0]!;
    const api = new BenchApi(first.baseUrl, await anonKey(database.url, first.url), (args) => wishCli(database.url, first.url, args), database.url);
    console.log(
      `peak bench: ${settings.instances} instances × ${settings.workers} workers on PostgreSQL, ${os.cpus().length} cores, ${round(
        os.totalmem() / 2 ** 30
      )} GiB`
    );
    const fixture = await fixtures(api, first);
    const watching = watch(instances, database.url);

    // Warm-up at half the 150 % load (compiled code, pools filled, caches), not recorded.
    await runStep(instances, fixture, 0.5, 3);
    const steps: StepResult[] = [];
    for (const multiple of settings.steps) {
      const step = await runStep(instances, fixture, multiple, settings.stepSeconds);
      steps.push(step);
      console.log(`mix ×${multiple} of the 150 % load (${step.offeredRps} req/s offered): ${step.held ? "held" : `missed (${step.why})`}`);
      for (const [c, r] of Object.entries(step.routes))
        console.log(`  ${c.padEnd(6)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  503 ${r.retryLater}  errors ${r.errors}`);
      if (!step.held) break;
    }
    if (!steps[0]?.held) failures.push(`150 % of the modelled peak not held: ${steps[0]?.why}`);
    const heldMultiple = steps.filter((s) => s.held).at(-1)?.multiple ?? 0;

    let overloadResult: OverloadResult | undefined;
    if (settings.overloadConnections > 0) {
      overloadResult = await overload(first, fixture.overloadPath, settings.overloadConnections, settings.overloadSeconds);
      console.log(
        `overload: ${overloadResult.connections} clients honouring Retry-After for ${overloadResult.seconds} s: ${overloadResult.succeeded} of ${overloadResult.logical} requests answered 200 (${overloadResult.shed} answers 503 on the way)`
      );
      if (overloadResult.successRate < OVERLOAD_SUCCESS)
        failures.push(`overload: ${overloadResult.successRate} of requests got through, below ${OVERLOAD_SUCCESS}`);
    }

    let webhooks: WebhookBurstResult | undefined;
    if (settings.webhooks > 0) {
      webhooks = await runWebhookBurst({ baseUrl: first.url, secret: webhookSecret, databaseUrl: database.url, deliveries: settings.webhooks, concurrency: 200 });
      console.log(
        `webhooks: ${webhooks.deliveries} products/update deliveries (${webhooks.events} events) at 200 at once: answers p50 ${webhooks.answerMs.p50} ms, p99 ${webhooks.answerMs.p99} ms, ${JSON.stringify(webhooks.statuses)}; processed once: ${webhooks.processing?.processedOnce}, queue drained in ${webhooks.processing?.drainMs} ms`,
      );
      if (webhooks.answerMs.p99 > WEBHOOK_P99_MS) failures.push(`webhooks: p99 ${webhooks.answerMs.p99} ms > ${WEBHOOK_P99_MS}`);
      if (!webhooks.processing?.processedOnce) failures.push(`webhooks: not every event processed exactly once (${JSON.stringify(webhooks.processing)})`);
    }

    await watching.stop();
    await Promise.all(instances.splice(0).map((server) => server.stop()));

    // The fan-out on a database of its own: its server sends through a mail sink of the bench's (the instances above have none).
    let fanout: FanoutBenchResult | undefined;
    if (settings.fanoutSavers > 0) {
      const fanoutDatabase = await freshDatabase(dir, settings.postgresUrl);
      try {
        fanout = await benchFanout({ databaseUrl: fanoutDatabase.url, savers: settings.fanoutSavers, sendSeconds: 15 });
      } finally {
        await fanoutDatabase.drop();
      }
      console.log(
        `alert fan-out: ${fanout.savers} shoppers queued in ${round(fanout.queueMs / 1000)} s (${fanout.queuedPerSecond}/s; the drop's webhook answered in ${fanout.webhookMs} ms); sent ${fanout.sendRatePerMinute}/min against ${fanout.configuredPerMinute}/min configured; another shop's alert in ${fanout.otherShopMs} ms; ${fanout.duplicateRecipients} duplicates, ${fanout.messagesAttemptedTwice} attempted twice, ${fanout.adminApiCalls} Admin API calls`,
      );
      if (fanout.duplicateRecipients + fanout.messagesAttemptedTwice + fanout.adminApiCalls > 0) failures.push("alert fan-out: duplicates or Admin API calls");
      if (fanout.otherShopMs === null) failures.push("alert fan-out: another shop's alert did not go out during the backlog");
    }
    if (watching.healthDown > 0) failures.push(`/health said the database was down ${watching.healthDown} times of ${watching.healthProbes} (it never was)`);
    const budget = settings.instances * settings.poolSize;
    if (watching.peakConnections > budget) failures.push(`${watching.peakConnections} database connections, over the budget of ${budget}`);
    console.log(
      `health: ${watching.healthProbes} probes, ${watching.healthDown} down, ${watching.healthSaturated} saturated; database connections at most ${
        watching.peakConnections
      } (budget ${budget}); memory per instance at most ${watching.peakRssMiB.map((m) => Math.round(m)).join(", ")} MiB`
    );

    const report = {
      date: new Date().toISOString(),
      machine: {
        cores: os.cpus().length,
        memoryGiB: round(os.totalmem() / 2 ** 30),
      },
      settings,
      model: PEAK_MODEL,
      targets: TARGETS,
      steps,
      heldMultiple,
      overload: overloadResult,
      webhooks,
      fanout,
      health: {
        probes: watching.healthProbes,
        down: watching.healthDown,
        saturated: watching.healthSaturated,
      },
      database: { peakConnections: watching.peakConnections, budget },
      memory: { peakRssMiB: watching.peakRssMiB.map(Math.round) },
      failures,
    };
    const outDir = path.join(root, "bench-results");
    if (!existsSync(outDir)) mkdirSync(outDir);
    const file = path.join(outDir, `peak-${report.date.replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
    console.log(`\nthis machine held ${heldMultiple}× the 150 % load; wrote ${path.relative(root, file)}`);
  } finally {
    await Promise.all(instances.map((s) => s.stop()));
    await database.drop();
    removeDir(dir);
  }
  if (failures.length) {
    console.error(`\nmissed:\n- ${failures.join("\n- ")}`);
    process.exit(1);
  }
}

await main();
