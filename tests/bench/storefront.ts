// The storefront budget (part of `npm run bench`; alone: `npm run bench:storefront`):
// Lighthouse's performance score of a fixture Online Store 2.0 store
// (tests/support/theme-fixture.ts: home, product, a 24-card collection) without
// the app and with the app embed as a merchant switches it on (widget.js,
// hearts on every card, the header link with its count, the basket drawer's
// scripts), in Debian's Chromium with the test suite's flags. Lighthouse's
// default mobile run (simulated throttling), as Shopify measures stores.
// Each page and variant runs BENCH_STOREFRONT_RUNS times (default 5), the two
// variants alternating; the medians are weighted 17/40/43 (home/product/
// collection) like Shopify's store speed score. Budget: at most 2 points of
// impact and at most 50 ms of added total blocking time. Writes
// bench-results/storefront.json; exits non-zero when over budget or on a
// failed Lighthouse run.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/browser.ts";
import { freePort } from "../support/net.ts";
import { FIXTURE_PATHS, renderEmbed, startThemeShop } from "../support/theme-fixture.ts";
import { freshDatabase, makeTempDir, median, removeDir, root, startServer, wishCli } from "./harness.ts";

type FixturePage = "home" | "product" | "collection";
const PAGES: FixturePage[] = ["home", "product", "collection"];
const BUDGET = { points: 2, tbtMs: 50 };
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

    const ok = impact <= BUDGET.points && addedTbt <= BUDGET.tbtMs && maxAddedTbt <= BUDGET.tbtMs;
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
      `script sizes (gzip): ${Object.entries(scripts).map(([k, v]) => `${k} ${v} B`).join(", ")}`,
    ];
    console.log(lines.join("\n"));
    mkdirSync(path.join(root, "bench-results"), { recursive: true });
    writeFileSync(
      path.join(root, "bench-results/storefront.json"),
      JSON.stringify({ at: new Date().toISOString(), lighthouse: lighthouseVersion(), runs: RUNS, budget: BUDGET, impact, addedTbt, maxAddedTbt, rows, scripts, samples }, null, 2) + "\n",
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
