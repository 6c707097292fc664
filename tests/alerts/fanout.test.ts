// The alert fan-out at volume (docs/alerts.md "Fan-out"): a price drop on a
// product thousands saved, through a signed products/update webhook to the
// built servers, with a real SMTP server and the fake Admin API in this
// process. The savers are written straight into the database
// (support/savers.ts: the save and opt-in paths are alerts.test.ts's); what is
// under test starts at the webhook: detection, the batches, the send slots,
// the outbox and the mail server. Assertions are on counts and order; the one
// about time is a lower bound (a slow machine only makes it easier to meet).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisioner } from "../support/provision.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { logLines, startServer, type TestServer } from "../support/server.ts";
import { FakeAdminApi, fakeAdminForServer, webhookRequest } from "../support/shopify.ts";
import { saverEmail, seedSavers } from "../support/savers.ts";
import { emailsSettled, startMailSink, type MailSink } from "../support/smtp.ts";
import { failWrites, sql } from "../support/sql.ts";
import { pause, until } from "../support/wait.ts";

const SECRET = "shpss_fanout_test_secret";
const VARIANT = 111;

let smtp: MailSink;
let admin: FakeAdminApi;
let fakeAdmin: Awaited<ReturnType<typeof fakeAdminForServer>>;
// One database for the file: this process's app modules (Prisma, the drainer) bind to the first one they see.
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  smtp = await startMailSink();
  admin = new FakeAdminApi();
  fakeAdmin = await fakeAdminForServer(admin);
});

afterAll(async () => {
  await fakeAdmin?.stop();
  await smtp?.close();
});

const tag = (label: string) => `${label}${randomBytes(4).toString("hex")}`;

const serverEnv = (perMinute: number) => ({
  ...fakeAdmin.env,
  SHOPIFY_API_KEY: "test-client-id",
  SHOPIFY_API_SECRET: SECRET,
  // Pooled SMTP connections (nodemailer reads the URL's options) and 20 e-mail slots: the sink here answers a message in tens of ms.
  SMTP_URL: `${smtp.url}?pool=true&maxConnections=20`,
  OUTBOX_POLL_MS: "50",
  OUTBOX_BACKOFF_SCALE: "0.001",
  OUTBOX_CONCURRENCY: "24",
  OUTBOX_CONCURRENCY_PER_TARGET: "20",
  ALERT_EMAILS_PER_SHOP_PER_MINUTE: String(perMinute),
  // Batches of 100 (500 in production): the chain of batches with a tenth of the e-mails.
  ALERT_FANOUT_BATCH: "100",
  // A server that stops hands the outbox to the other quickly (a clean stop releases the lease; the other tries every TTL / 3).
  JOB_LEASE_TTL_MS: "900",
});

/** The test's handle on one database: its servers, the provisioner and Prisma in this process. */
async function world(databaseUrl: string, first: TestServer) {
  const p = await provisioner(first);
  const { db } = await import("~/db.server");
  const suffix = () => randomBytes(4).toString("hex");

  /** An installed shop with an offline session (so an Admin API call per shopper would be possible) and the fake Admin API's shop. */
  async function installedShop(label: string) {
    const partner = await p.partner("starter");
    const domain = `${label}-${suffix()}.myshopify.com`;
    const primary = `www.${label}-${suffix()}.example`;
    const shop = await p.shop(partner.id, { domain });
    await db.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: primary, currency: "EUR", name: `${label} Store` } });
    await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: `shpat_${label}`, scope: "read_products" } });
    admin.addShop(domain, { primaryHost: primary });
    return { id: shop.id, domain, primary };
  }

  /** A products/update webhook as Shopify signs it, to `server`. */
  async function productUpdate(server: TestServer, shop: { domain: string }, productId: number, handle: string, price: string) {
    const payload = {
      id: productId,
      title: "Oak Lamp",
      handle,
      status: "active",
      updated_at: new Date().toISOString(),
      variants: [{ id: VARIANT, price, inventory_item_id: VARIANT + 900_000, inventory_management: "shopify", inventory_policy: "deny", inventory_quantity: 10 }],
    };
    const res = await fetch(webhookRequest("products/update", shop.domain, payload, { appUrl: server.url, secret: SECRET }));
    expect(res.status).toBe(200);
  }

  /** A shop's product at 30.00, as its first webhook records it, with `count` savers of its variant. */
  async function savedProduct(server: TestServer, shop: { domain: string; primary: string }, label: string, count: number, mix = { unconfirmedEvery: 0, noConsentEvery: 0 }) {
    const handle = `lamp-${suffix()}`;
    const shopifyId = 7_200_000_000 + Math.floor(Math.random() * 1_000_000);
    await productUpdate(server, shop, shopifyId, handle, "30.00");
    // The webhook is answered once recorded; the product is written after the answer.
    const [product] = await until(
      "the product its first webhook writes",
      () => sql<{ id: number }>(databaseUrl, `SELECT id FROM "Product" WHERE "canonicalUrl" = ?`, [`https://${shop.primary}/products/${handle}`]),
      (rows) => rows.length === 1,
    );
    const seed = { tag: tag(label), count, productId: product!.id, variantId: String(VARIANT), ...mix };
    const optedIn = await seedSavers(databaseUrl, seed);
    return { seed, optedIn, handle, shopifyId, productId: product!.id, drop: (to: TestServer, price = "25.00") => productUpdate(to, shop, shopifyId, handle, price) };
  }

  return { db, installedShop, savedProduct };
}

const mailsOf = (addresses: Set<string>) => smtp.received.filter((m) => addresses.has(m.to));

describe("alert fan-out: a price drop on a product thousands saved", () => {
  let first: TestServer;
  let second: TestServer;
  let w: Awaited<ReturnType<typeof world>>;
  let drainer: typeof import("~/domains/outbox/worker.server");

  beforeAll(async () => {
    const env = serverEnv(60_000);
    // The first server takes the deployment's job lease (outbox, fan-out jobs); the second waits for it.
    first = await startServer({ ...env, DATABASE_URL: databaseUrl });
    second = await startServer({ ...env, DATABASE_URL: databaseUrl });
    // This process drains the same outbox at once, as a lease holder stalled past its expiry would beside its successor.
    Object.assign(process.env, { SMTP_URL: env.SMTP_URL, ALERT_EMAILS_PER_SHOP_PER_MINUTE: "60000", ALERT_FANOUT_BATCH: "100", OUTBOX_CONCURRENCY: "24", OUTBOX_CONCURRENCY_PER_TARGET: "20", LOG_LEVEL: "warn" });
    w = await world(databaseUrl, first);
    drainer = await import("~/domains/outbox/worker.server");
    const { alertFanoutJob } = await import("~/domains/alerts/alerts.server");
    const { queuedWebhookJob } = await import("~/webhooks/queued.server");
    const { renderMail } = await import("~/pages/emails");
    // What the servers' outbox runs: the e-mails' templates, the fan-out's batches and the webhooks answered before their work.
    drainer.registerMailRenderer(renderMail);
    drainer.registerOutboxJob(alertFanoutJob);
    drainer.registerOutboxJob(queuedWebhookJob);
  }, 60_000);

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  it("one e-mail per opted-in shopper, queued in batches without an Admin API call per shopper; another shop's alert goes out before the backlog ends; two servers and a third drainer send each once", async () => {
    const big = await w.installedShop("big");
    const small = await w.installedShop("small");
    // 900 savers: a third asked but never confirmed, a third never asked: 300 to tell, in three full batches.
    const bigProduct = await w.savedProduct(first, big, "big", 900, { unconfirmedEvery: 3, noConsentEvery: 3 });
    const smallProduct = await w.savedProduct(first, small, "small", 1);
    expect(bigProduct.optedIn).toHaveLength(300);
    const bigAddresses = new Set(bigProduct.optedIn);
    const smallAddress = saverEmail(smallProduct.seed.tag, 1);
    const adminCallsBefore = admin.calls.length;

    let draining = true;
    const drains = (async () => {
      while (draining) {
        await drainer.runOutboxOnce();
        // The poll of a worker (as OUTBOX_POLL_MS): a tighter loop would starve this process's SMTP server.
        await pause(20, "this drainer's poll interval, as OUTBOX_POLL_MS is a worker's");
      }
    })();
    try {
      // The drop reaches both servers at once (two deliveries of the change, as two product updates): each may see it.
      await Promise.all([bigProduct.drop(first), bigProduct.drop(second)]);
      // Another shop's drop while the big one is queued and drains.
      await smallProduct.drop(second);
      // The lease holder stops mid-drain (a clean stop: it finishes what it started); the second server takes over.
      await first.stop();
      await until("the second server holds the lease", () => logLines(second, "job lease taken").length > 0);
      const bigAtHandover = mailsOf(bigAddresses).length;
      expect(bigAtHandover).toBeLessThan(300);
      // The other shop's e-mail goes before the backlog ends: not behind 300 due e-mails.
      const smallMail = await until("the small shop's alert", () => smtp.to(smallAddress)[0]);
      const bigBeforeSmall = mailsOf(bigAddresses).filter((m) => m.receivedAt! <= smallMail.receivedAt!).length;
      expect(bigBeforeSmall).toBeLessThan(300);
      await until("300 e-mails", () => mailsOf(bigAddresses).length, (n) => n >= 300, { timeoutMs: 90_000 });
      await emailsSettled(databaseUrl);
    } finally {
      draining = false;
      await drains;
    }

    // Exactly one per opted-in shopper, none to the others, each message attempted once.
    const got = mailsOf(bigAddresses);
    expect(got).toHaveLength(300);
    expect(new Set(got.map((m) => m.to)).size).toBe(300);
    const stray = smtp.received.filter((m) => m.to.startsWith(`${bigProduct.seed.tag}-`) && !bigAddresses.has(m.to));
    expect(stray).toEqual([]);
    expect(got[0]!.subject).toBe("Price drop: Oak Lamp now €25.00");
    expect(smtp.to(smallAddress)).toHaveLength(1);
    const outbox = await sql<{ n: number; attempts: number }>(
      databaseUrl,
      `SELECT COUNT(*) AS n, MAX(attempts) AS attempts FROM "OutboxMessage" WHERE kind = 'email' AND status = 'sent' AND "dedupKey" LIKE ?`,
      [`alert:price_drop:${bigProduct.seed.tag}-%`],
    );
    expect(Number(outbox[0]!.n)).toBe(300);
    expect(Number(outbox[0]!.attempts)).toBe(1);
    // The batches after the first were the job's: a chain of steps of at most 100, each run once.
    const jobs = await sql<{ status: string; attempts: number }>(databaseUrl, `SELECT status, attempts FROM "OutboxMessage" WHERE kind = 'alert_fanout' AND topic = ?`, [`alert-fanout:shop:${big.id}`]);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.every((j) => j.status === "sent" && Number(j.attempts) === 1)).toBe(true);
    // Nothing asked Shopify per shopper (or at all) to queue or send them.
    expect(admin.calls.slice(adminCallsBefore).filter((c) => c.shop === big.domain)).toEqual([]);
  }, 150_000);
});

describe("alert fan-out: the per-shop rate", () => {
  it("a shop's e-mails leave no faster than ALERT_EMAILS_PER_SHOP_PER_MINUTE, and another shop's alert goes out beside them", async () => {
    const PER_MINUTE = 600; // one every 100 ms
    // The same database as above (its servers have stopped): this process's Prisma points there.
    const server = await startServer({ ...serverEnv(PER_MINUTE), DATABASE_URL: databaseUrl });
    try {
      const w = await world(databaseUrl, server);
      const paced = await w.installedShop("paced");
      const other = await w.installedShop("other");
      const pacedProduct = await w.savedProduct(server, paced, "paced", 50);
      const otherProduct = await w.savedProduct(server, other, "other", 1);
      const pacedAddresses = new Set(pacedProduct.optedIn);

      // Both drops at once: the paced shop's 50 slots span 4.9 s, the other shop's one is due when its webhook is done.
      const dropSent = Date.now();
      await Promise.all([pacedProduct.drop(server), otherProduct.drop(server)]);
      await until("50 e-mails", () => mailsOf(pacedAddresses).length, (n) => n >= 50, { timeoutMs: 30_000 });
      await emailsSettled(databaseUrl);

      const times = mailsOf(pacedAddresses).map((m) => m.receivedAt!).sort((a, b) => a - b);
      expect(times).toHaveLength(50);
      // The k-th e-mail (from 0) cannot leave before its slot, k × 100 ms after the slots began (which was after the drop was sent).
      const early = times.map((t, k) => ({ k, ms: t - dropSent })).filter(({ k, ms }) => ms < k * (60_000 / PER_MINUTE) - 2);
      expect(early).toEqual([]);
      // The other shop's e-mail did not wait for the paced backlog.
      const otherMail = smtp.to(saverEmail(otherProduct.seed.tag, 1));
      expect(otherMail).toHaveLength(1);
      expect(otherMail[0]!.receivedAt!).toBeLessThan(times[times.length - 1]!);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("refuses a rate outside 1 to 60,000 a minute at boot", async () => {
    for (const value of ["0", "60001", "ten"]) {
      const started = await startServer({ ALERT_EMAILS_PER_SHOP_PER_MINUTE: value }).then(
        (server) => server.stop().then(() => null),
        (err: Error) => err,
      );
      expect(started?.message).toMatch(/ALERT_EMAILS_PER_SHOP_PER_MINUTE/);
    }
  }, 60_000);
});

describe("alert fan-out: a batch that fails", () => {
  it("rolls back whole, and its job runs again from the same cursor: every shopper queued once", async () => {
    // Last in the file: its e-mails are left to drain (what is checked here is the queue).
    const server = await startServer({ ...serverEnv(60_000), DATABASE_URL: databaseUrl });
    try {
      const w = await world(databaseUrl, server);
      const shop = await w.installedShop("resumed");
      const product = await w.savedProduct(server, shop, "resumed", 120);
      // A shopper of the second batch (the job's) whose alert record cannot be written: that batch's transaction fails.
      const [victim] = await sql<{ ownerId: string }>(
        databaseUrl,
        `SELECT w."ownerId" FROM "ListItem" li JOIN "Wishlist" w ON w.id = li."wishlistId" WHERE li."productId" = ? ORDER BY li.id LIMIT 1 OFFSET 109`,
        [product.productId],
      );
      const heal = await failWrites(databaseUrl, "AlertSent", "INSERT", "userId", victim!.ownerId);
      const jobOf = () => sql<{ status: string; attempts: number; lastError: string | null }>(databaseUrl, `SELECT status, attempts, "lastError" FROM "OutboxMessage" WHERE kind = 'alert_fanout' AND topic = ?`, [`alert-fanout:shop:${shop.id}`]);
      const queued = async () => Number((await sql<{ n: number }>(databaseUrl, `SELECT COUNT(*) AS n FROM "OutboxMessage" WHERE kind = 'email' AND "dedupKey" LIKE ?`, [`alert:price_drop:${product.seed.tag}-%`]))[0]!.n);
      try {
        await product.drop(server);
        // The webhook's batch (100) committed; the job's failed, and left nothing of itself behind.
        const [failed] = await until("the job failed once", jobOf, (rows) => rows.length === 1 && rows[0]!.lastError !== null);
        expect(failed!.status).toBe("pending");
        expect(await queued()).toBe(100);
      } finally {
        await heal();
      }
      const [done] = await until("the job done", jobOf, (rows) => rows[0]?.status === "sent");
      expect(Number(done!.attempts)).toBeGreaterThanOrEqual(2);
      expect(await queued()).toBe(120);
      const records = await sql<{ n: number; users: number }>(
        databaseUrl,
        `SELECT COUNT(*) AS n, COUNT(DISTINCT "userId") AS users FROM "AlertSent" WHERE "listItemId" IN (SELECT id FROM "ListItem" WHERE "productId" = ?)`,
        [product.productId],
      );
      expect({ n: Number(records[0]!.n), users: Number(records[0]!.users) }).toEqual({ n: 120, users: 120 });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
