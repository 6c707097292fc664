// A peak-load wave of Shopify webhooks (the scenario): 1,000 signed
// products/update deliveries, with duplicates (the same webhook id again, the
// same body under another id) and out of order (a product's newer update may
// be taken before its older one), at 200 concurrent requests against a
// running server. Reports the answer times (p50/p99 of every answer, and of
// the 200s), the statuses (503s are retried after their Retry-After, as
// Shopify retries, and counted), and — once the queue has drained, when the
// server's database is given — that each event was processed exactly once
// and every product shows its newest update.
//
//   npx tsx tests/bench/webhook-burst.ts
//     WEBHOOK_BENCH_URL      a started server (default: start one here on a fresh database)
//     SHOPIFY_API_SECRET     its app secret (the deliveries are signed with it)
//     DATABASE_URL           its database (creates the shop, checks processing; optional with a URL given)
//     BENCH_DATABASE_URL     with no URL: a postgresql:// server to create the fresh database on (default SQLite)
//     BENCH_KEEP=1           with no URL: keep the started server's directory (its log)
//     WEBHOOK_BENCH_DELIVERIES, WEBHOOK_BENCH_CONCURRENCY   instead of 1000 and 200
//
// `runWebhookBurst` is the export `npm run bench:peak` calls.
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { sql } from "../support/sql.ts";
import { freshDatabase, makeTempDir, percentile, removeDir, root, startServer } from "./harness.ts";

export interface WebhookBurstOptions {
  /** The server's address, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** SHOPIFY_API_SECRET of that server. */
  secret: string;
  /** The server's database: the shop is created in it, and the processing is checked in it. Without it only the answers are measured. */
  databaseUrl?: string;
  /** An installed shop's myshopify domain; created (with its partner) when omitted and databaseUrl is given. */
  shop?: string;
  deliveries?: number;
  concurrency?: number;
  /** How long to wait for the queue to drain (ms). */
  drainTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface WebhookBurstResult {
  deliveries: number;
  concurrency: number;
  /** Distinct events among the deliveries (the rest are duplicates). */
  events: number;
  /** Every HTTP answer, 503s included (ms). */
  answerMs: { p50: number; p99: number; max: number };
  /** Answers with 200 only (ms). */
  acceptedMs: { p50: number; p99: number; max: number };
  /** Count of answers by status (a 503 retried counts once per answer). */
  statuses: Record<string, number>;
  /** Deliveries that needed a retry after a 503 with Retry-After. */
  retried: number;
  /** 200 answers that accepted an event / that recognised a duplicate. */
  accepted: number;
  duplicates: number;
  /** Wall time of the wave (first request to last answer), ms. */
  waveMs: number;
  /** After the queue drained (null without databaseUrl). */
  processing: null | {
    drainMs: number;
    /** Queued messages of this run by status, and how many ran more than one attempt. */
    queued: Record<string, number>;
    retriedJobs: number;
    /** Events processed exactly once: each accepted event has one queued message, sent on its first attempt. */
    processedOnce: boolean;
    /** Products showing their newest update's price. */
    productsNewest: number;
    products: number;
  };
}

const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function wish(databaseUrl: string, appUrl: string, args: string[]): Promise<any> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(root, "app/cli/wish.mjs"), ...args], {
    cwd: root,
    // The CLI needs no Shopify credentials (a lone SHOPIFY_API_SECRET from this run's environment is a configuration error).
    env: { ...process.env, SHOPIFY_API_KEY: "", SHOPIFY_API_SECRET: "", DATABASE_URL: databaseUrl, APP_URL: appUrl, LOG_LEVEL: "warn" },
  });
  return JSON.parse(stdout);
}

/** A product's update `version` (1 older, 2 newer): price 10.0v EUR, its own `updated_at`. */
const productPayload = (id: number, version: number) => ({
  id,
  title: `Bench lamp ${id}`,
  handle: `bench-lamp-${id}`,
  status: "active",
  vendor: "Bench",
  updated_at: new Date(Date.UTC(2026, 10, 1, 12, version)).toISOString(),
  variants: [{ id: id * 10, price: ((1000 + version) / 100).toFixed(2), currency: "EUR", inventory_management: null }],
});

interface Delivery {
  body: string;
  webhookId: string;
}

/**
 * 1,000 deliveries: 200 products × 2 updates = 400 events, each sent once,
 * 40 % of them once more under the same webhook id and 20 % under a new id
 * with the same body (a second subscription's copy), topped up with further
 * same-id copies; all shuffled, so duplicates and updates arrive out of order.
 */
function wave(total: number): { deliveries: Delivery[]; events: number; productIds: number[] } {
  const products = Math.max(1, Math.round(total / 5));
  const base = 8_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
  const productIds = Array.from({ length: products }, (_, i) => base + i);
  const events = productIds.flatMap((id) => [1, 2].map((v) => ({ body: JSON.stringify(productPayload(id, v)), webhookId: randomUUID() })));
  const deliveries: Delivery[] = [...events];
  events.forEach((e, i) => {
    if (i % 5 < 2) deliveries.push({ ...e });
    if (i % 5 === 2) deliveries.push({ body: e.body, webhookId: randomUUID() });
  });
  for (let i = 0; deliveries.length < total; i++) deliveries.push({ ...events[i % events.length]! });
  deliveries.length = total;
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }
  return { deliveries, events: new Set(deliveries.map((d) => d.body)).size, productIds };
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN) };
};

export async function runWebhookBurst(opts: WebhookBurstOptions): Promise<WebhookBurstResult> {
  const total = opts.deliveries ?? 1000;
  const concurrency = opts.concurrency ?? 200;
  const log = opts.log ?? (() => {});
  let shop = opts.shop;
  if (!shop) {
    if (!opts.databaseUrl) throw new Error("runWebhookBurst needs shop or databaseUrl");
    shop = `bench-${randomBytes(4).toString("hex")}.myshopify.com`;
    const { partner } = await wish(opts.databaseUrl, opts.baseUrl, ["partner", "create", "--name", "Bench shop", "--email", "bench@shop.example", "--plan", "growth"]);
    await wish(opts.databaseUrl, opts.baseUrl, ["shop", "create", "--partner", String(partner.partner_id), "--domain", shop]);
  }
  const { deliveries, events, productIds } = wave(total);
  log(`${total} products/update deliveries (${events} events) to ${opts.baseUrl} for ${shop}, ${concurrency} at once`);

  const answerMs: number[] = [];
  const acceptedMs: number[] = [];
  const statuses: Record<string, number> = {};
  let retried = 0;
  let accepted = 0;
  let duplicates = 0;

  const send = async (d: Delivery) => {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const res = await fetch(`${opts.baseUrl}/webhooks/products/update`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-shopify-topic": "products/update",
          "x-shopify-shop-domain": shop!,
          "x-shopify-hmac-sha256": getHmac(d.body, opts.secret),
          "x-shopify-webhook-id": d.webhookId,
          "x-shopify-event-id": d.webhookId,
          "x-shopify-api-version": "2026-01",
          "x-shopify-triggered-at": new Date().toISOString(),
        },
        body: d.body,
      });
      const text = await res.text();
      const ms = performance.now() - started;
      answerMs.push(ms);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const retryAfter = Number(res.headers.get("retry-after"));
      if (res.status === 503 && retryAfter > 0 && attempt < 10) {
        if (attempt === 1) retried++;
        await sleep(retryAfter * 1000); // as Shopify would come back later
        continue;
      }
      if (res.status === 200) {
        acceptedMs.push(ms);
        if ((JSON.parse(text) as { duplicate?: boolean }).duplicate) duplicates++;
        else accepted++;
      }
      return;
    }
  };

  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, deliveries.length) }, async () => {
      while (next < deliveries.length) await send(deliveries[next++]!);
    }),
  );
  const waveMs = Math.round(performance.now() - started);
  log(`answered in ${waveMs} ms: ${JSON.stringify(statuses)}, ${retried} retried after a 503`);

  let processing: WebhookBurstResult["processing"] = null;
  if (opts.databaseUrl) {
    const db = <T>(text: string, params: unknown[] = []) => sql<T>(opts.databaseUrl!, text, params);
    const lane = `product:${shop}:%`;
    const drainStarted = performance.now();
    const deadline = Date.now() + (opts.drainTimeoutMs ?? 180_000);
    let rows: Array<{ status: string; attempts: number | string }> = [];
    for (;;) {
      rows = await db(`SELECT "status", "attempts" FROM "OutboxMessage" WHERE "kind" = 'platform-webhook' AND "topic" LIKE ?`, [lane]);
      if (rows.every((r) => r.status !== "pending")) break;
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    const drainMs = Math.round(performance.now() - drainStarted);
    const queued: Record<string, number> = {};
    for (const r of rows) queued[r.status] = (queued[r.status] ?? 0) + 1;
    const retriedJobs = rows.filter((r) => Number(r.attempts) > 1).length;
    const shown = await db<{ rawProductId: string; priceMinor: number | string }>(
      `SELECT p."rawProductId", l."priceMinor" FROM "Product" p JOIN "ProductLocalization" l ON l."productId" = p."id" WHERE p."rawProductId" IN (${productIds.map(() => "?").join(", ")})`,
      productIds.map(String),
    );
    processing = {
      drainMs,
      queued,
      retriedJobs,
      processedOnce: rows.length === events && accepted === events && queued.sent === events && retriedJobs === 0,
      productsNewest: shown.filter((r) => Number(r.priceMinor) === 1002).length,
      products: productIds.length,
    };
    log(`queue drained ${drainMs} ms after the last answer: ${JSON.stringify(processing)}`);
  }

  return {
    deliveries: total,
    concurrency,
    events,
    answerMs: summary(answerMs),
    acceptedMs: summary(acceptedMs),
    statuses,
    retried,
    accepted,
    duplicates,
    waveMs,
    processing,
  };
}

const envInt = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

async function main() {
  const sizes = { deliveries: envInt("WEBHOOK_BENCH_DELIVERIES"), concurrency: envInt("WEBHOOK_BENCH_CONCURRENCY") };
  const progress = (line: string) => process.stderr.write(`[webhook-burst] ${line}\n`);
  const given = process.env.WEBHOOK_BENCH_URL;
  if (given) {
    const secret = process.env.SHOPIFY_API_SECRET;
    if (!secret) throw new Error("SHOPIFY_API_SECRET: the secret of the server at WEBHOOK_BENCH_URL");
    const result = await runWebhookBurst({ baseUrl: given.replace(/\/$/, ""), secret, databaseUrl: process.env.DATABASE_URL, shop: process.env.WEBHOOK_BENCH_SHOP, log: progress, ...sizes });
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  // No server given: the built app (npm run build) on a fresh database, as `npm start` runs it.
  const dir = makeTempDir();
  const database = await freshDatabase(dir, process.env.BENCH_DATABASE_URL);
  const secret = `shpss_bench_${randomBytes(8).toString("hex")}`;
  const server = await startServer(database.url, dir, { SHOPIFY_API_KEY: "bench-client-id", SHOPIFY_API_SECRET: secret });
  try {
    const result = await runWebhookBurst({ baseUrl: server.url, secret, databaseUrl: database.url, log: progress, ...sizes });
    console.log(JSON.stringify({ database: database.kind, ...result }, null, 2));
  } finally {
    await server.stop();
    await database.drop();
    if (process.env.BENCH_KEEP) progress(`kept ${dir} (server.log)`);
    else removeDir(dir);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
