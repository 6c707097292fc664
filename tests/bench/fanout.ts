// The peak-load benchmark of the alert fan-out (docs/alerts.md "Fan-out"):
// a price drop on a product 50,000 shoppers saved. Against the built server
// (`npm run build` first) with a real SMTP server and the fake Admin API in
// this process, it seeds the savers straight into the database (one
// INSERT … SELECT per table, tests/support/savers.ts), sends the drop as a
// signed products/update webhook and reports:
// - queue time: from the webhook to all 50,000 e-mails queued (the webhook's
//   own answer time beside it: it queues one batch);
// - the send rate of the shop against ALERT_EMAILS_PER_SHOP_PER_MINUTE, over a
//   capped window (BENCH_FANOUT_SEND_SECONDS, default 30): the rest of the
//   backlog is left queued, the queue figures are complete;
// - another shop's alert sent during the backlog, and how long it took;
// - duplicates: addresses that received two e-mails, outbox messages
//   attempted more than once (both 0), and Admin API calls (0).
//
// Standalone: `npx tsx tests/bench/fanout.ts` (BENCH_DATABASE_URL or
// DATABASE_URL a postgresql:// server URL; default the local one): a fresh
// database is created there and dropped after. `benchFanout({databaseUrl})`
// runs on a database given (the server migrates it). Writes
// bench-results/fanout.json when run standalone.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { FakeAdminApi, fakeAdminForServer, webhookRequest } from "../support/shopify.ts";
import { saverEmail, seedSavers } from "../support/savers.ts";
import { startMailSink } from "../support/smtp.ts";
import { sql } from "../support/sql.ts";
import { freshDatabase, makeTempDir, removeDir, root, sleep, startServer } from "./harness.ts";

const SECRET = "shpss_fanout_bench_secret";
const VARIANT = 111;

export interface FanoutBenchOptions {
  databaseUrl: string;
  /** Shoppers who saved the product (all opted in); default 50,000. */
  savers?: number;
  /** ALERT_EMAILS_PER_SHOP_PER_MINUTE of the server; default 6,000 (100 a second, so the window shows the pacing). */
  perMinute?: number;
  /** How long the sending is watched; default 30 s. */
  sendSeconds?: number;
  /** How long queueing may take before the bench gives up; default 180 s. */
  queueTimeoutSeconds?: number;
}

export interface FanoutBenchResult {
  savers: number;
  database: "sqlite" | "postgresql";
  /** The drop's webhook answer (it queues the first batch). */
  webhookMs: number;
  /** From sending the drop's webhook to every e-mail queued. */
  queueMs: number;
  queuedPerSecond: number;
  /** E-mails of the big shop sent in the window, and their rate against the configured one. */
  sendWindowSeconds: number;
  sent: number;
  sendRatePerMinute: number;
  configuredPerMinute: number;
  /** The other shop's one alert: from its webhook to the SMTP server, during the backlog. */
  otherShopMs: number | null;
  duplicateRecipients: number;
  messagesAttemptedTwice: number;
  adminApiCalls: number;
}

const count = async (databaseUrl: string, text: string, params: unknown[] = []) => Number((await sql<{ n: number }>(databaseUrl, text, params))[0]!.n);

export async function benchFanout(opts: FanoutBenchOptions): Promise<FanoutBenchResult> {
  if (!existsSync(path.join(root, "build/node/server.mjs"))) throw new Error("no build: run `npm run build` first");
  const savers = opts.savers ?? 50_000;
  const perMinute = opts.perMinute ?? 6000;
  const sendSeconds = opts.sendSeconds ?? 30;
  const { databaseUrl } = opts;
  const dir = makeTempDir();
  const smtp = await startMailSink();
  const admin = new FakeAdminApi();
  const fakeAdmin = await fakeAdminForServer(admin);
  const server = await startServer(databaseUrl, dir, {
    ...fakeAdmin.env,
    SHOPIFY_API_KEY: "bench-client-id",
    SHOPIFY_API_SECRET: SECRET,
    SMTP_URL: `${smtp.url}?pool=true&maxConnections=10`,
    OUTBOX_POLL_MS: "100",
    OUTBOX_CONCURRENCY: "20",
    OUTBOX_CONCURRENCY_PER_TARGET: "10",
    ALERT_EMAILS_PER_SHOP_PER_MINUTE: String(perMinute),
    LOG_LEVEL: "warn",
  });
  try {
    // Shops are arranged in this process through the domain functions the CLI uses (tests/support/provision.ts).
    Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_URL: server.url, LOG_LEVEL: "error" });
    const partners = await import("~/domains/partners/partners.server");
    const shops = await import("~/domains/shops/shops.server");
    const { db } = await import("~/db.server");

    async function shopWithProduct(label: string, n: number) {
      const partner = await partners.createPartner({ name: `${label} bench`, email: `owner@${label}.bench`, plan: "growth" });
      const domain = `${label}-${randomBytes(4).toString("hex")}.myshopify.com`;
      const primary = `www.${label}-${randomBytes(4).toString("hex")}.example`;
      const shop = await shops.createPlatformShop(partner.id, { domain });
      await db.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: primary, currency: "EUR", name: `${label} Store` } });
      await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: `shpat_${label}`, scope: "read_products" } });
      admin.addShop(domain, { primaryHost: primary });
      const handle = `lamp-${randomBytes(3).toString("hex")}`;
      const shopifyId = 7_300_000_000 + Math.floor(Math.random() * 1_000_000);
      const update = async (price: string) => {
        const payload = {
          id: shopifyId,
          title: "Oak Lamp",
          handle,
          status: "active",
          updated_at: new Date().toISOString(),
          variants: [{ id: VARIANT, price, inventory_item_id: VARIANT + 900_000, inventory_management: "shopify", inventory_policy: "deny", inventory_quantity: 10 }],
        };
        const res = await fetch(webhookRequest("products/update", domain, payload, { appUrl: server.url, secret: SECRET }));
        if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
      };
      await update("30.00");
      // The webhook is answered once recorded; the product is written after the answer.
      let product: { id: number } | undefined;
      for (const deadline = Date.now() + 60_000; !product; await sleep(100)) {
        [product] = await sql<{ id: number }>(databaseUrl, `SELECT id FROM "Product" WHERE "canonicalUrl" = ?`, [`https://${primary}/products/${handle}`]);
        if (!product && Date.now() > deadline) throw new Error("the product's first webhook was not processed within 60 s");
      }
      const tag = `${label}${randomBytes(4).toString("hex")}`;
      const emails = await seedSavers(databaseUrl, { tag, count: n, productId: product!.id, variantId: String(VARIANT) });
      return { shopId: shop.id, domain, productId: product!.id, tag, emails, drop: () => update("25.00") };
    }

    const big = await shopWithProduct("big", savers);
    const other = await shopWithProduct("other", 1);
    const bigEmails = new Set(big.emails);
    const adminCallsBefore = admin.calls.length;
    const alertsOf = (productId: number) => count(databaseUrl, `SELECT COUNT(*) AS n FROM "AlertSent" WHERE "listItemId" IN (SELECT id FROM "ListItem" WHERE "productId" = ?)`, [productId]);
    const pendingJobs = () => count(databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'alert_fanout' AND status = 'pending'`);

    const dropAt = performance.now();
    await big.drop();
    const webhookMs = performance.now() - dropAt;
    // Another shop's drop while the backlog is queued and drains.
    const otherAt = Date.now();
    await other.drop();

    const deadline = performance.now() + (opts.queueTimeoutSeconds ?? 180) * 1000;
    for (;;) {
      if ((await alertsOf(big.productId)) >= savers && (await pendingJobs()) === 0) break;
      if (performance.now() > deadline) throw new Error(`not all ${savers} e-mails queued in time (${await alertsOf(big.productId)})`);
      await sleep(100);
    }
    const queueMs = performance.now() - dropAt;
    const queuedEmails = await count(databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'email' AND "dedupKey" LIKE ?`, [`alert:price_drop:${big.tag}-%`]);
    if (queuedEmails !== savers) throw new Error(`${queuedEmails} e-mails queued for ${savers} savers`);

    // The send window: counted from the first e-mail of the big shop at the SMTP server.
    const bigMails = () => smtp.received.filter((m) => bigEmails.has(m.to));
    const firstDeadline = performance.now() + 60_000;
    while (bigMails().length === 0 && performance.now() < firstDeadline) await sleep(50);
    const firstAt = bigMails()[0]?.receivedAt ?? Date.now();
    await sleep(Math.max(0, firstAt + sendSeconds * 1000 - Date.now()));
    const windowEnd = firstAt + sendSeconds * 1000;
    const sent = bigMails().filter((m) => m.receivedAt! <= windowEnd).length;
    const otherMail = smtp.to(saverEmail(other.tag, 1))[0];

    const byAddress = new Map<string, number>();
    for (const m of smtp.received) byAddress.set(m.to, (byAddress.get(m.to) ?? 0) + 1);
    const duplicateRecipients = [...byAddress.values()].filter((n) => n > 1).length;
    const messagesAttemptedTwice = await count(databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'email' AND status = 'sent' AND attempts > 1`);
    return {
      savers,
      database: databaseUrl.startsWith("file:") ? "sqlite" : "postgresql",
      webhookMs: Math.round(webhookMs),
      queueMs: Math.round(queueMs),
      queuedPerSecond: Math.round(savers / (queueMs / 1000)),
      sendWindowSeconds: sendSeconds,
      sent,
      sendRatePerMinute: Math.round((sent / sendSeconds) * 60),
      configuredPerMinute: perMinute,
      otherShopMs: otherMail?.receivedAt ? otherMail.receivedAt - otherAt : null,
      duplicateRecipients,
      messagesAttemptedTwice,
      adminApiCalls: admin.calls.length - adminCallsBefore,
    };
  } finally {
    await server.stop();
    await fakeAdmin.stop();
    await smtp.close();
    removeDir(dir);
  }
}

async function main() {
  const target = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const dir = makeTempDir();
  const database = await freshDatabase(dir, target.startsWith("file:") ? undefined : target);
  try {
    const result = await benchFanout({
      databaseUrl: database.url,
      ...(process.env.BENCH_FANOUT_SAVERS ? { savers: Number(process.env.BENCH_FANOUT_SAVERS) } : {}),
      ...(process.env.BENCH_FANOUT_SEND_SECONDS ? { sendSeconds: Number(process.env.BENCH_FANOUT_SEND_SECONDS) } : {}),
      ...(process.env.BENCH_FANOUT_PER_MINUTE ? { perMinute: Number(process.env.BENCH_FANOUT_PER_MINUTE) } : {}),
    });
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(path.join(root, "bench-results"), { recursive: true });
    writeFileSync(path.join(root, "bench-results/fanout.json"), JSON.stringify(result, null, 2) + "\n");
    const bad = result.duplicateRecipients > 0 || result.messagesAttemptedTwice > 0 || result.adminApiCalls > 0 || result.sendRatePerMinute > result.configuredPerMinute * 1.05;
    if (bad) {
      console.error("fan-out bench: duplicates, Admin API calls or a rate over the configured one");
      process.exitCode = 1;
    }
  } finally {
    await database.drop();
    removeDir(dir);
    // The app modules imported for provisioning keep database pools open.
    setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
