// A wave of products/update deliveries (docs/shopify.md "Shopify webhooks",
// "Queued topics"): the built server with Shopify on, deliveries signed as
// Shopify signs them, sent at high concurrency with duplicates (the same
// webhook id again, the same body under another id) and out of order (an
// older update after a newer one). The answer path must do no product work:
// the test holds the "background" lease itself, so the server answers every
// delivery while nothing may process them; product rows appear only once
// the test lets the lease go. Then each event's effect is counted.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/database.ts";
import { provisioner } from "../support/provision.ts";
import { logLines, startServer, type TestServer } from "../support/server.ts";
import { webhookRequest } from "../support/shopify.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

const SECRET = "shpss_webhook_burst_secret";
const PRODUCTS = 40;
const CONCURRENCY = 200;
const BLOCKER = "test-holds-the-background-lease";

let server: TestServer;
let p: Awaited<ReturnType<typeof provisioner>>;

const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server.databaseUrl, text, params);

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl();
  // Held before the server starts, with the clock format takeLease compares (job-lease.server.ts): the server may not run the outbox.
  await sql(
    databaseUrl,
    databaseUrl.startsWith("file:")
      ? `INSERT INTO "JobLease" ("name", "holder", "expiresAt") VALUES ('background', ?, strftime('%Y-%m-%d %H:%M:%f', 'now', '+3600 seconds'))`
      : `INSERT INTO "JobLease" ("name", "holder", "expiresAt") VALUES ('background', ?, (now() AT TIME ZONE 'UTC') + interval '1 hour')`,
    [BLOCKER],
  );
  server = await startServer({
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: "test-client-id",
    SHOPIFY_API_SECRET: SECRET,
    OUTBOX_POLL_MS: "100",
    JOB_LEASE_TTL_MS: "900",
  });
  p = await provisioner(server);
});

afterAll(async () => {
  await server?.stop();
});

const suffix = () => Math.random().toString(36).slice(2, 10);

async function installedShop() {
  const partner = await p.partner("growth");
  const domain = `burst-${suffix()}.myshopify.com`;
  const primary = `www.burst-${suffix()}.example`;
  const shop = await p.shop(partner.id, { domain });
  const { db: prisma } = await import("~/db.server");
  await prisma.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: primary, currency: "EUR", name: "Burst Store" } });
  return { shop, domain, primary };
}

/** products/update as Shopify sends it; `version` sets the price (in cents: 1000 + version) and `updated_at`. */
const productPayload = (id: number, version: number) => ({
  id,
  title: `Lamp ${id}`,
  handle: `lamp-${id}`,
  status: "active",
  updated_at: new Date(Date.UTC(2026, 10, 1, 12, version)).toISOString(),
  variants: [{ id: id * 10, price: ((1000 + version) / 100).toFixed(2), inventory_management: null }],
});

interface Sent {
  status: number;
  duplicate: boolean;
  /** 503 answers with Retry-After before this delivery was taken. */
  refused: number;
}

/** Sends one delivery, again while the server sheds it (503 with Retry-After, as Shopify would retry). */
async function send(domain: string, payload: unknown, webhookId: string): Promise<Sent> {
  let refused = 0;
  for (;;) {
    const res = await fetch(webhookRequest("products/update", domain, payload, { appUrl: server.url, secret: SECRET, webhookId }));
    const body = (await res.json()) as { ok?: boolean; duplicate?: boolean };
    if (res.status === 503 && res.headers.get("retry-after") && refused < 50) {
      refused++;
      continue;
    }
    return { status: res.status, duplicate: body.duplicate === true, refused };
  }
}

/** Runs the sends `CONCURRENCY` at a time, in the (shuffled) order given. */
async function wave(sends: Array<() => Promise<Sent>>): Promise<Sent[]> {
  const results: Sent[] = new Array(sends.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, sends.length) }, async () => {
      while (next < sends.length) {
        const i = next++;
        results[i] = await sends[i]!();
      }
    }),
  );
  return results;
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("a wave of products/update deliveries", () => {
  it("answers every delivery without product work, then processes each event once, an older update never over a newer", async () => {
    const s = await installedShop();
    const ids = Array.from({ length: PRODUCTS }, (_, i) => 7_000_000 + i);
    const events = ids.map((id) => ({
      id,
      // v0 is older than v1 and v2 but arrives last.
      v0: { payload: productPayload(id, 0), webhookId: randomUUID() },
      v1: { payload: productPayload(id, 1), webhookId: randomUUID() },
      v2: { payload: productPayload(id, 2), webhookId: randomUUID() },
    }));
    const to = (e: { payload: unknown; webhookId: string }, webhookId = e.webhookId) => () => send(s.domain, e.payload, webhookId);

    // Stage 1: each product's first update. Stage 2: its newer update, interleaved with copies of the
    // first (its webhook id again, and its body under another id: a second subscription's delivery).
    // Stage 3: the older update, more copies of both. Each stage at up to CONCURRENCY requests at once.
    const first = await wave(events.map((e) => to(e.v1)));
    const second = await wave(shuffled(events.flatMap((e) => [to(e.v2), to(e.v2), to(e.v1), to(e.v1), to(e.v1, randomUUID())])));
    const third = await wave(shuffled(events.flatMap((e) => [to(e.v0), to(e.v0), to(e.v2), to(e.v1)])));
    const all = [...first, ...second, ...third];
    expect(all).toHaveLength(PRODUCTS * 10);

    expect(all.filter((r) => r.status !== 200)).toEqual([]);
    // One acceptance per event (v0, v1, v2 of each product); every other delivery is a duplicate.
    expect(all.filter((r) => !r.duplicate)).toHaveLength(PRODUCTS * 3);
    expect(first.every((r) => !r.duplicate)).toBe(true);
    const refused = all.reduce((sum, r) => sum + r.refused, 0);
    console.log(`webhook burst: ${all.length} deliveries, ${refused} answered 503 with Retry-After first, then taken on a retry`);

    // Answered, and nothing processed: the server cannot run the outbox while the test holds the lease.
    const productRows = () => db<{ n: number | string }>(`SELECT COUNT(*) AS n FROM "Product" WHERE "sourceShopId" = ?`, [s.shop.id]);
    expect(Number((await productRows())[0]!.n)).toBe(0);
    const queued = () =>
      db<{ status: string; attempts: number | string }>(`SELECT "status", "attempts" FROM "OutboxMessage" WHERE "kind" = 'platform-webhook' AND "topic" LIKE ?`, [
        `product:${s.domain}:%`,
      ]);
    expect((await queued()).map((m) => m.status)).toEqual(Array(PRODUCTS * 3).fill("pending"));
    const recorded = await db(`SELECT "webhookId" FROM "ProcessedWebhook" WHERE "shopDomain" = ?`, [s.domain]);
    expect(recorded).toHaveLength(PRODUCTS * 3);

    // The server takes the lease at its next try and works through the queue.
    await sql(server.databaseUrl, `DELETE FROM "JobLease" WHERE "holder" = ?`, [BLOCKER]);
    const done = await until("queued deliveries processed", queued, (rows) => rows.every((m) => m.status !== "pending"), { timeoutMs: 60_000 });
    expect(done.map((m) => [m.status, Number(m.attempts)])).toEqual(Array(PRODUCTS * 3).fill(["sent", 1]));

    // Effects, counted: one catalogue entry per product, one price point per applied event
    // (v1 then v2; v0 is older than what was applied and changes nothing), the newest price shown.
    expect(Number((await productRows())[0]!.n)).toBe(PRODUCTS);
    const points = await db<{ rawProductId: string; priceMinor: number | string }>(
      `SELECT p."rawProductId", pp."priceMinor" FROM "PricePoint" pp JOIN "Product" p ON p."id" = pp."productId" WHERE p."sourceShopId" = ? ORDER BY pp."id"`,
      [s.shop.id],
    );
    const byProduct = new Map<string, number[]>();
    for (const pt of points) byProduct.set(pt.rawProductId, [...(byProduct.get(pt.rawProductId) ?? []), Number(pt.priceMinor)]);
    expect([...byProduct.keys()].sort()).toEqual(ids.map(String).sort());
    for (const prices of byProduct.values()) expect(prices).toEqual([1001, 1002]);
    const shown = await db<{ priceMinor: number | string }>(
      `SELECT l."priceMinor" FROM "ProductLocalization" l JOIN "Product" p ON p."id" = l."productId" WHERE p."sourceShopId" = ?`,
      [s.shop.id],
    );
    expect(shown.map((l) => Number(l.priceMinor))).toEqual(Array(PRODUCTS).fill(1002));
    const applied = await db<{ platformUpdatedAt: unknown }>(`SELECT "platformUpdatedAt" FROM "Product" WHERE "sourceShopId" = ?`, [s.shop.id]);
    for (const row of applied) {
      // PostgreSQL hands back a Date, SQLite the ISO text Prisma stores.
      const at = row.platformUpdatedAt instanceof Date ? row.platformUpdatedAt : new Date(row.platformUpdatedAt as string);
      expect(at.toISOString()).toBe(productPayload(1, 2).updated_at);
    }
    expect(logLines(server, "product webhook older than applied facts, skipped").filter((l) => l.shop === s.domain)).toHaveLength(PRODUCTS);

    // A copy arriving after the work is done is still recognised and queues nothing.
    const late = await send(s.domain, events[0]!.v2.payload, events[0]!.v2.webhookId);
    expect(late).toMatchObject({ status: 200, duplicate: true });
    expect(await queued()).toHaveLength(PRODUCTS * 3);
  }, 120_000);
});
