// The storefront budget (part of `npm run bench`; alone: `npm run bench:storefront`):
// Lighthouse's performance score of a fixture Online Store 2.0 store
// (tests/support/theme-fixture.ts, Dawn 15.4.1 markup and CSS: home, product, a 24-card collection) without
// the app and with the app embed as a merchant switches it on (widget.js,
// hearts on every card, the header link with its count, the basket drawer's
// scripts), in Debian's Chromium with the test suite's flags. Lighthouse's
// default mobile run (simulated throttling), as Shopify measures stores.
// Each page and variant runs BENCH_STOREFRONT_RUNS times (default 5), the two
// variants alternating; the medians are weighted 17/40/43 (home/product/
// collection) like Shopify's store speed score. Budget: at most 2 points of
// impact and at most 50 ms of added total blocking time. Before Lighthouse, the app
// scripts' own main-thread time on the collection page at 4× CPU throttling, from a
// performance trace (median of BENCH_STOREFRONT_RUNS, at least 3; budget 50 ms);
// BENCH_STOREFRONT_LIGHTHOUSE=0 measures only that. Writes
// bench-results/storefront.json; exits non-zero when over budget or on a
// failed Lighthouse run.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import lighthouse from "lighthouse";
import { chromium, type Browser } from "playwright-core";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/browser.ts";
import { freePort } from "../support/net.ts";
import { FIXTURE_PATHS, renderEmbed, startThemeShop } from "../support/theme-fixture.ts";
import { freshDatabase, makeTempDir, median, removeDir, root, startServer, wishCli } from "./harness.ts";

type FixturePage = "home" | "product" | "collection";
const PAGES: FixturePage[] = ["home", "product", "collection"];
const BUDGET = { points: 2, tbtMs: 50, mainThreadMs: 50 };
const MAIN_THREAD_RUNS = Math.max(3, Number(process.env.BENCH_STOREFRONT_RUNS) || 5);
const WEIGHTS: Record<FixturePage, number> = { home: 0.17, product: 0.4, collection: 0.43 };
const RUNS = Math.max(1, Number(process.env.BENCH_STOREFRONT_RUNS) || 5);
const HOST = "store.shop.test";

interface Sample {
  /** Main-thread time of the app's scripts (widget.js, basket-integration.js, the extension's scripts), ms. */
  appMs: number;
  score: number;
  tbt: number;
  lcp: number;
  cls: number;
  fcp: number;
  si: number;
}

const progress = (msg: string) => process.stderr.write(`[storefront] ${msg}\n`);

async function main() {
  const dir = makeTempDir();
  const database = await freshDatabase(dir);
  const server = await startServer(database.url, dir);
  const shop = await startThemeShop();
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
  try {
    const cli = (args: string[]) => wishCli(database.url, server.url, args);
    const { partner } = await cli(["partner", "create", "--name", "Bench store", "--email", "bench@shop.example", "--plan", "growth"]);
    const { key } = await cli(["key", "create", "--partner", String(partner.partner_id), "--env", "live", "--domains", HOST]);
    const { basket } = await cli(["basket", "create", "--partner", String(partner.partner_id), "--layout", "drawer"]);
    const { config } = await cli(["config"]);
    const embed = await renderEmbed({
      appUrl: server.url,
      publicKey: key.key,
      anonKey: config.anon_key,
      // The extension's scripts from the fixture's stand-in for Shopify's CDN, as asset_url points there.
      assetBase: shop.cdnOrigin,
      basketId: basket.id,
      settings: { hearts: true, header_link: "drawer" },
    });

    // The "with" variant really is the app at work: 24 hearts on the collection page.
    shop.setEmbed(embed);
    const check = await browser.newPage();
    await check.goto(shop.origin(HOST) + FIXTURE_PATHS.collection);
    await check.waitForFunction(() => document.querySelectorAll(".wish-heart[aria-pressed]").length === 24, undefined, { timeout: 15_000 });
    await check.close();

    // The app scripts' own main-thread time on Dawn's collection page at 4× CPU throttling.
    const mainThread: number[] = [];
    const threadTime: number[] = [];
    const perScript: Record<string, number[]> = {};
    for (let run = 0; run < MAIN_THREAD_RUNS; run++) {
      const sample = await appMainThread(browser, shop.origin(HOST) + FIXTURE_PATHS.collection);
      mainThread.push(sample.total);
      threadTime.push(sample.cpu);
      for (const [file, ms] of Object.entries(sample.byScript)) (perScript[file] ??= []).push(ms);
      progress(`main thread ${run + 1}/${MAIN_THREAD_RUNS}: ${sample.total.toFixed(1)} ms`);
    }
    const mainThreadMs = median(mainThread);
    const scriptsMs = Object.fromEntries(Object.entries(perScript).map(([file, ms]) => [file, median([...ms, ...Array(MAIN_THREAD_RUNS - ms.length).fill(0)])]));
    const mainThreadLine =
      `main-thread time of the app's scripts on Dawn's 24-card collection page at 4× CPU (performance trace, median of ${MAIN_THREAD_RUNS}): ${mainThreadMs.toFixed(1)} ms ` +
      `${mainThreadMs <= BUDGET.mainThreadMs ? "✓" : "✗"} (budget ≤ ${BUDGET.mainThreadMs} ms; runs ${mainThread.map((m) => m.toFixed(1)).join(", ")}; per script ${Object.entries(scriptsMs).map(([f, ms]) => `${f} ${ms.toFixed(1)}`).join(", ")}; ` +
      `thread time, without the moments other processes held the core: median ${median(threadTime).toFixed(1)} ms)`;
    if (process.env.BENCH_STOREFRONT_LIGHTHOUSE === "0") {
      console.log(mainThreadLine);
      if (mainThreadMs > BUDGET.mainThreadMs) process.exitCode = 1;
      return;
    }

    const samples: Record<"without" | "with", Record<FixturePage, Sample[]>> = {
      without: { home: [], product: [], collection: [] },
      with: { home: [], product: [], collection: [] },
    };
    for (let run = 0; run < RUNS; run++) {
      for (const page of PAGES) {
        // Alternate which variant goes first, so both see the same moments of a noisy machine.
        const order = run % 2 === 0 ? (["without", "with"] as const) : (["with", "without"] as const);
        for (const variant of order) {
          shop.setEmbed(variant === "with" ? embed : null);
          const sample = await measure(shop.origin(HOST) + FIXTURE_PATHS[page], port);
          samples[variant][page].push(sample);
          progress(`run ${run + 1}/${RUNS} ${page} ${variant}: score ${sample.score}, TBT ${Math.round(sample.tbt)} ms`);
        }
      }
    }

    const med = (variant: "without" | "with", page: FixturePage, k: keyof Sample) => median(samples[variant][page].map((s) => s[k]));
    const weighted = (variant: "without" | "with", k: keyof Sample) =>
      (Object.keys(WEIGHTS) as FixturePage[]).reduce((sum, page) => sum + WEIGHTS[page] * med(variant, page, k), 0);
    const rows = PAGES.map((page) => ({
      page,
      weight: WEIGHTS[page],
      without: { score: med("without", page, "score"), tbt: med("without", page, "tbt"), lcp: med("without", page, "lcp"), cls: med("without", page, "cls") },
      with: { score: med("with", page, "score"), tbt: med("with", page, "tbt"), lcp: med("with", page, "lcp"), cls: med("with", page, "cls") },
    }));
    const impact = weighted("without", "score") - weighted("with", "score");
    const addedTbt = weighted("with", "tbt") - weighted("without", "tbt");
    const maxAddedTbt = Math.max(...rows.map((r) => r.with.tbt - r.without.tbt));
    const gz = (file: string) => gzipSync(readFileSync(file)).length;
    const scripts = {
      "widget.js": gz(path.join(root, "extensions/wishlist/assets/widget.js")),
      "basket-integration.js": gz(path.join(root, "extensions/wishlist/assets/basket-integration.js")),
      "wish-cards.js": gz(path.join(root, "extensions/wishlist/assets/wish-cards.js")),
      "wish-basket.js": gz(path.join(root, "extensions/wishlist/assets/wish-basket.js")),
      "wish.css": gz(path.join(root, "extensions/wishlist/assets/wish.css")),
    };

    const ok = impact <= BUDGET.points && addedTbt <= BUDGET.tbtMs && maxAddedTbt <= BUDGET.tbtMs && mainThreadMs <= BUDGET.mainThreadMs;
    const lines = [
      "",
      `Storefront budget (Lighthouse ${lighthouseVersion()}, mobile, simulated throttling; median of ${RUNS} runs per page and variant)`,
      "page        weight  score without  score with  TBT ms without  with  LCP ms without  with  CLS without  with",
      ...rows.map(
        (r) =>
          `${r.page.padEnd(11)} ${String(Math.round(r.weight * 100) + "%").padStart(6)}  ${String(r.without.score).padStart(13)}  ${String(r.with.score).padStart(10)}  ` +
          `${String(Math.round(r.without.tbt)).padStart(14)}  ${String(Math.round(r.with.tbt)).padStart(4)}  ${String(Math.round(r.without.lcp)).padStart(14)}  ${String(Math.round(r.with.lcp)).padStart(4)}  ` +
          `${r.without.cls.toFixed(3).padStart(11)}  ${r.with.cls.toFixed(3).padStart(4)}`,
      ),
      `weighted score: without ${weighted("without", "score").toFixed(1)}, with ${weighted("with", "score").toFixed(1)} → impact ${impact.toFixed(1)} points ${impact <= BUDGET.points ? "✓" : "✗"} (budget ≤ ${BUDGET.points})`,
      `total blocking time added: weighted ${Math.round(addedTbt)} ms, largest on one page ${Math.round(maxAddedTbt)} ms ${addedTbt <= BUDGET.tbtMs && maxAddedTbt <= BUDGET.tbtMs ? "✓" : "✗"} (budget ≤ ${BUDGET.tbtMs} ms)`,
      `main-thread time of the app's scripts (Lighthouse bootup-time, median): ${rows.map((r) => `${r.page} ${Math.round(med("with", r.page, "appMs"))} ms`).join(", ")}`,
      mainThreadLine,
      `script sizes (gzip): ${Object.entries(scripts).map(([k, v]) => `${k} ${v} B`).join(", ")}`,
    ];
    console.log(lines.join("\n"));
    mkdirSync(path.join(root, "bench-results"), { recursive: true });
    writeFileSync(
      path.join(root, "bench-results/storefront.json"),
      JSON.stringify({ at: new Date().toISOString(), lighthouse: lighthouseVersion(), runs: RUNS, budget: BUDGET, mainThread: { medianMs: mainThreadMs, runsMs: mainThread, perScriptMedianMs: scriptsMs, threadMedianMs: median(threadTime), threadRunsMs: threadTime }, impact, addedTbt, maxAddedTbt, rows, scripts, samples }, null, 2) + "\n",
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await browser.close();
    await shop.stop();
    await server.stop();
    await database.drop();
    removeDir(dir);
  }
}

/** The extension's scripts as the fixture's CDN serves them (widget.js, wish-cards.js, basket scripts). */
const APP_SCRIPT = /\/cdn\/extension-assets\//;

/**
 * One load of `url` at 4× CPU throttling (CDP Emulation.setCPUThrottlingRate) under a performance
 * trace, until every heart is bound; returns the main-thread milliseconds of the app's scripts: every
 * top-level script event of the renderer's main thread attributed to one of them (compile, evaluate,
 * function calls from timers, frames, events, observers and microtasks, with the style and layout
 * they force), nested events counted once.
 */
async function appMainThread(browser: Browser, url: string): Promise<{ total: number; cpu: number; byScript: Record<string, number> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "disabled-by-default-v8.compile"] });
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll(".wish-heart[aria-pressed]").length === 24, undefined, { timeout: 30_000 });
  // Let the last frame's work (the hearts' batch, widget.js's marks) finish inside the trace.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
  await context.close();
  const events = trace.traceEvents;
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && events.some((f) => f.pid === e.pid && f.tid === e.tid && f.name === "EvaluateScript" && APP_SCRIPT.test(urlOf(f))));
  if (!main) throw new Error("no renderer main thread running the app's scripts in the trace");
  const ours = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && typeof e.dur === "number" && SCRIPT_EVENTS.has(e.name) && APP_SCRIPT.test(urlOf(e)))
    .sort((a, b) => a.ts - b.ts);
  let total = 0;
  let end = 0;
  for (const e of ours) {
    if (e.ts >= end) {
      total += e.dur!;
      end = e.ts + e.dur!;
    } else if (e.ts + e.dur! > end) {
      total += e.ts + e.dur! - end;
      end = e.ts + e.dur!;
    }
  }
  const byScript: Record<string, number> = {};
  let cpu = 0;
  for (const e of ours) {
    // Top-level events only (not inside another of ours), per script file.
    if (ours.some((o) => o !== e && o.ts <= e.ts && e.ts + e.dur! <= o.ts + o.dur! && !(o.ts === e.ts && o.dur === e.dur && ours.indexOf(o) > ours.indexOf(e)))) continue;
    const file = urlOf(e).split("/").pop()!;
    byScript[file] = (byScript[file] ?? 0) + e.dur! / 1000;
    cpu += (e.tdur ?? e.dur!) / 1000;
  }
  return { total: total / 1000, cpu, byScript };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: what the thread itself ran, without the moments another process had the core. */
  tdur?: number;
  args?: { name?: string; data?: { url?: string; scriptName?: string }; url?: string; fileName?: string };
}
const SCRIPT_EVENTS = new Set(["EvaluateScript", "v8.compile", "v8.compileModule", "FunctionCall", "v8.evaluateModule"]);
const urlOf = (e: TraceEvent) => e.args?.data?.url ?? e.args?.data?.scriptName ?? e.args?.url ?? e.args?.fileName ?? "";

function lighthouseVersion(): string {
  return JSON.parse(readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")).version;
}

/** One Lighthouse performance run of `url` in the browser listening on `port`. */
async function measure(url: string, port: number): Promise<Sample> {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
  const lhr = result?.lhr;
  if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr?.runtimeError?.message ?? "no result"}`);
  const score = lhr.categories.performance?.score;
  if (typeof score !== "number") throw new Error(`Lighthouse gave no performance score for ${url}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  // The app's own main-thread time (Lighthouse's per-script bootup audit; it lists scripts above its small threshold only).
  const bootup = (lhr.audits["bootup-time"]?.details as { items?: Array<{ url: string; total: number }> } | undefined)?.items ?? [];
  const appMs = bootup.filter((i) => /\/sdk\/v1\/|\/cdn\/extension-assets\//.test(i.url)).reduce((sum, i) => sum + i.total, 0);
  return {
    appMs,
    score: Math.round(score * 100),
    tbt: audit("total-blocking-time"),
    lcp: audit("largest-contentful-paint"),
    cls: audit("cumulative-layout-shift"),
    fcp: audit("first-contentful-paint"),
    si: audit("speed-index"),
  };
}

await main();
