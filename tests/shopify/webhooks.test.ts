// Shopify webhooks (docs/shopify.md "Shopify webhooks", SPEC 6.2): the built server with
// Shopify credentials, real webhook requests over HTTP signed with the app
// secret (the library's own getHmac), effects read from the database and API.
import { randomUUID } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, wish, type Api, jsonOrNull } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { flatPng } from "../support/images.ts";
import { sql } from "../support/sql.ts";
import { queuedWebhooksDone } from "../support/shopify.ts";
import { until } from "../support/wait.ts";

const SECRET = "shpss_webhook_test_secret";
let server: TestServer;
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
/** A product image host that answers only when the test lets it (a slow CDN). */
let images: Server;
let imageHost: string;
const heldImages: ServerResponse[] = [];

beforeAll(async () => {
  images = createServer((_req, res) => void heldImages.push(res));
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", () => resolve()));
  imageHost = `127.0.0.1:${(images.address() as AddressInfo).port}`;
  server = await startServer({ SHOPIFY_API_KEY: "test-client-id", SHOPIFY_API_SECRET: SECRET, FETCH_TEST_ALLOW_HOSTS: imageHost, OUTBOX_POLL_MS: "100" });
  api = await apiFor(server);
  p = await provisioner(server);
  // A delivery id from long ago: forgotten once the first delivery of this server prunes.
  const { db: prisma } = await import("~/db.server");
  await prisma.processedWebhook.create({ data: { webhookId: "ancient", topic: "shop/update", shopDomain: "x.myshopify.com", processedAt: new Date(Date.now() - 31 * 86_400_000) } });
  await prisma.processedWebhook.create({ data: { webhookId: "recent", topic: "shop/update", shopDomain: "x.myshopify.com", processedAt: new Date(Date.now() - 3 * 86_400_000) } });
});
afterAll(async () => {
  await server?.stop();
  images?.closeAllConnections();
  await new Promise((resolve) => images?.close(resolve));
});

const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server.databaseUrl, text, params);
const truthy = (v: unknown) => v === true || v === 1 || v === "1";
/** A boolean parameter as the database kind binds it. */
const bool = (v: boolean) => (server.databaseUrl.startsWith("file:") ? Number(v) : v);

interface Delivery {
  id?: string;
  secret?: string;
  /** Raw body instead of JSON.stringify(payload). */
  raw?: string;
  omit?: string[];
}

/** POSTs a webhook as Shopify does: raw JSON body, HMAC-SHA256 of it (base64) and the X-Shopify-* headers. */
async function deliver(path: string, topic: string, shop: string, payload: unknown, opts: Delivery = {}) {
  const body = opts.raw ?? JSON.stringify(payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-shopify-topic": topic,
    "x-shopify-hmac-sha256": getHmac(body, opts.secret ?? SECRET),
    "x-shopify-shop-domain": shop,
    "x-shopify-webhook-id": opts.id ?? randomUUID(),
    "x-shopify-api-version": "2025-10",
    "x-shopify-event-id": randomUUID(),
    "x-shopify-triggered-at": new Date().toISOString(),
  };
  for (const name of opts.omit ?? []) delete headers[name];
  const res = await fetch(`${server.url}/webhooks/${path}`, { method: "POST", headers, body });
  const text = await res.text();
  // Product and order topics are processed after the answer: the assertions read their effects.
  if (res.status === 200) await queuedWebhooksDone(server.databaseUrl);
  const json = jsonOrNull(text);
  return { status: res.status, body: json, text };
}

const suffix = () => Math.random().toString(36).slice(2, 10);

/** A shop installed through the app: partner, platform shop (primary domain, currency), live key for both hosts, a session, a basket. */
async function installedShop(opts: { currency?: string } = {}) {
  const partner = await p.partner();
  const domain = `store-${suffix()}.myshopify.com`;
  const primary = `www.brand-${suffix()}.example`;
  const shop = await p.shop(partner.id, { domain });
  const { db: prisma } = await import("~/db.server");
  await prisma.platformShop.update({
    where: { id: shop.id },
    data: { primaryDomain: primary, currency: opts.currency ?? "EUR", name: "Brand Store", email: "owner@brand.example" },
  });
  const key = await p.key(partner.id, { env: "live", domains: [domain, primary] });
  await prisma.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: "shpat_test" } });
  const { createBasketConfig } = await import("~/domains/baskets/baskets.server");
  await createBasketConfig(partner.id, {}, { shopId: shop.id });
  return { partner, shop, domain, primary, key };
}

const init = (key: string, origin: string) => api.post("/widget/init", { body: { origin }, headers: { authorization: `Bearer ${key}` } });

/** A shopper's public list holding products at `urls`; returns the list token, owner and item ids. */
async function shopperList(urls: string[]) {
  const owner = await api.anonymousUser();
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Birthday" } });
  expect(created.status).toBe(200);
  const itemIds: number[] = [];
  for (const url of urls) {
    const saved = await api.post("/hosted/save", {
      token: owner.accessToken,
      body: { wishlistId: created.body.list.db_id, product: { url, title: "Lamp", price: 4900, currency: "EUR", marketCode: "de-DE" } },
    });
    expect(saved.status).toBe(200);
    itemIds.push(saved.body.item_id);
  }
  const shared = await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } });
  expect(shared.status).toBe(200);
  return { token: created.body.token as string, owner, itemIds, dbId: created.body.list.db_id as number };
}

const processedCount = async (id: string) => (await db(`SELECT "webhookId" FROM "ProcessedWebhook" WHERE "webhookId" = ?`, [id])).length;

describe("verification", () => {
  it("wrong HMAC → 401 unauthorized and nothing processed; missing headers → 400; GET → 405", async () => {
    const s = await installedShop();
    const id = randomUUID();
    const forged = await deliver("app/uninstalled", "app/uninstalled", s.domain, { id: 1 }, { id, secret: "not-the-secret" });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: "unauthorized" });
    expect(await processedCount(id)).toBe(0);
    const [row] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(row!.active)).toBe(true);
    expect(await db(`SELECT id FROM "Session" WHERE shop = ?`, [s.domain])).toHaveLength(1);

    // A body changed after signing is as good as a wrong secret.
    const body = JSON.stringify({ id: 1 });
    const tampered = await fetch(`${server.url}/webhooks/app/uninstalled`, {
      method: "POST",
      headers: {
        "x-shopify-topic": "app/uninstalled",
        "x-shopify-hmac-sha256": getHmac(body, SECRET),
        "x-shopify-shop-domain": s.domain,
        "x-shopify-webhook-id": randomUUID(),
        "x-shopify-api-version": "2025-10",
      },
      body: JSON.stringify({ id: 2 }),
    });
    expect(tampered.status).toBe(401);

    const missing = await deliver("app/uninstalled", "app/uninstalled", s.domain, {}, { omit: ["x-shopify-webhook-id"] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: "invalid_webhook" });

    const get = await fetch(`${server.url}/webhooks/orders/create`);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ error: "method_not_allowed" });

    // Signed, but not JSON; and a topic delivered to another topic's address.
    const notJson = await deliver("orders/create", "orders/create", s.domain, null, { raw: "{not json" });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: "invalid_payload" });
    const wrongTopic = await deliver("compliance", "orders/create", s.domain, { id: 5 });
    expect(wrongTopic.status).toBe(400);
    expect(wrongTopic.body).toMatchObject({ error: "invalid_topic" });

    const [after] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(after!.active)).toBe(true);
  });

  it("a correctly signed delivery whose shop header is not a <store>.myshopify.com domain → 400 invalid_webhook, nothing processed", async () => {
    const s = await installedShop();
    for (const shop of ["evil.example", "store.myshopify.com.evil.example", "admin.shopify.com", `${s.domain}.evil.example`]) {
      const id = randomUUID();
      const res = await deliver("app/uninstalled", "app/uninstalled", shop, { id: 1, domain: s.primary }, { id });
      expect(res.status, `${shop}: ${res.text}`).toBe(400);
      expect(res.body, shop).toMatchObject({ error: "invalid_webhook" });
      expect(await processedCount(id), shop).toBe(0);
    }
    const [row] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(row!.active)).toBe(true);
    // The same delivery for the shop's own domain goes through.
    const ok = await deliver("app/uninstalled", "app/uninstalled", s.domain, { id: 1, domain: s.primary });
    expect(ok.status, ok.text).toBe(200);
  });

  it("a signed body resent under a new webhook id (the id header is not signed) is a duplicate: processed once", async () => {
    const s = await installedShop();
    const payload = { id: 77, domain: s.primary, updated_at: new Date().toISOString() };
    const first = await deliver("app/uninstalled", "app/uninstalled", s.domain, payload);
    expect(first.body).toEqual({ ok: true });
    // Reinstalled, then someone replays the captured delivery with fresh ids (and another shop's header).
    await db(`UPDATE "PlatformShop" SET active = ?, "uninstalledAt" = NULL WHERE id = ?`, [bool(true), s.shop.id]);
    const replayId = randomUUID();
    const replay = await deliver("app/uninstalled", "app/uninstalled", s.domain, payload, { id: replayId });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ok: true, duplicate: true });
    const other = await installedShop();
    const elsewhere = await deliver("app/uninstalled", "app/uninstalled", other.domain, payload);
    expect(elsewhere.body).toEqual({ ok: true, duplicate: true });
    expect(await processedCount(replayId)).toBe(0);
    for (const id of [s.shop.id, other.shop.id]) {
      const [row] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [id]);
      expect(truthy(row!.active)).toBe(true);
    }
    // A different body (a later uninstall) is a new delivery.
    const later = await deliver("app/uninstalled", "app/uninstalled", s.domain, { ...payload, updated_at: new Date(Date.now() + 1000).toISOString() });
    expect(later.body).toEqual({ ok: true });
    const [after] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(after!.active)).toBe(false);
  });

  it("a signed body replayed under another topic (the topic header is not signed either) is a duplicate, with its webhook id or a new one", async () => {
    const s = await installedShop();
    // shop/update and app/uninstalled both carry the Shop resource: a captured shop/update body is a valid app/uninstalled body.
    const payload = { id: 78, name: "Brand", domain: s.primary, updated_at: new Date().toISOString() };
    const id = randomUUID();
    expect((await deliver("shop/update", "shop/update", s.domain, payload, { id })).body).toEqual({ ok: true });
    for (const replayId of [id, randomUUID()]) {
      const replay = await deliver("app/uninstalled", "app/uninstalled", s.domain, payload, { id: replayId });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.body, replayId === id ? "same webhook id" : "new webhook id").toEqual({ ok: true, duplicate: true });
    }
    const [row] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(row!.active)).toBe(true);
    // The same holds between any two topics: a product body replayed as the other product topic is processed once.
    const product = { id: 9_300_001, title: "Lamp", handle: `lamp-${suffix()}`, status: "active", updated_at: new Date().toISOString(), variants: [] };
    expect((await deliver("products/create", "products/create", s.domain, product)).body).toEqual({ ok: true });
    expect((await deliver("products/update", "products/update", s.domain, product)).body).toEqual({ ok: true, duplicate: true });
  });

  it("a body over WEBHOOK_MAX_BODY_BYTES (5 MiB) is refused 413 before the HMAC check, even correctly signed; just under it is processed", async () => {
    const s = await installedShop();
    const padded = (bytes: number) => {
      const head = JSON.stringify({ id: 1, name: "Padded Store", note: "" });
      return head.replace(`"note":""`, `"note":"${"n".repeat(bytes - head.length)}"`);
    };
    const id = randomUUID();
    const over = await deliver("shop/update", "shop/update", s.domain, null, { id, raw: padded(5 * 1024 * 1024 + 1) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: "payload_too_large", message: "Request body exceeds 5242880 bytes" });
    expect(await processedCount(id)).toBe(0);
    const [row] = await db<{ name: string }>(`SELECT name FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(row!.name).toBe("Brand Store");

    const under = await deliver("shop/update", "shop/update", s.domain, null, { raw: padded(5 * 1024 * 1024) });
    expect(under.status).toBe(200);
    const [updated] = await db<{ name: string }>(`SELECT name FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(updated!.name).toBe("Padded Store");
  });

  it("answers 404 not_found while the Shopify app is off (no SHOPIFY_API_KEY/SECRET)", async () => {
    const { inject } = await import("vitest");
    const shared = inject("server");
    const res = await fetch(`${shared.url}/webhooks/orders/create`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });
});

describe("app/uninstalled", () => {
  it("turns the shop inactive, deletes its sessions, stops its key at init; shoppers' lists stay; a duplicate changes nothing", async () => {
    const s = await installedShop();
    const list = await shopperList([`https://${s.primary}/products/lamp`]);
    expect((await init(s.key.key, `https://${s.primary}`)).status).toBe(200);

    const id = randomUUID();
    const first = await deliver("app/uninstalled", "app/uninstalled", s.domain, { id: 1, domain: s.primary }, { id });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true });
    const [shop] = await db<{ active: unknown; uninstalledAt: unknown }>(`SELECT active, "uninstalledAt" FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(shop!.active)).toBe(false);
    expect(shop!.uninstalledAt).not.toBeNull();
    expect(await db(`SELECT id FROM "Session" WHERE shop = ?`, [s.domain])).toHaveLength(0);

    const refused = await init(s.key.key, `https://${s.primary}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("unknown_key");

    const items = await api.get(`/hosted/public/lists/${list.token}/items`);
    expect(items.status).toBe(200);
    expect(items.body.products.map((x: any) => x.item_id)).toEqual(list.itemIds);

    // Reinstalled (install flow reactivates the row), then Shopify retries the old delivery: processed once only.
    await db(`UPDATE "PlatformShop" SET active = ?, "uninstalledAt" = NULL WHERE id = ?`, [bool(true), s.shop.id]);
    const again = await deliver("app/uninstalled", "app/uninstalled", s.domain, { id: 1 }, { id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ok: true, duplicate: true });
    const [still] = await db<{ active: unknown }>(`SELECT active FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(truthy(still!.active)).toBe(true);
    // The row was changed behind the server's back (as by another instance): init sees it once the
    // server's cached key configuration expires (CONFIG_CACHE_TTL_MS, 2 s).
    await expect.poll(async () => (await init(s.key.key, `https://${s.primary}`)).status, { timeout: 5_000, interval: 100 }).toBe(200);
    expect(await processedCount(id)).toBe(1);
  });
});

describe("shop/update", () => {
  it("updates name, e-mail, currency and primary domain; the key's allow-list follows the new primary domain", async () => {
    const s = await installedShop();
    const other = await p.key(s.partner.id, { env: "live", domains: ["blog.unrelated.example"] });
    const next = `shop-${suffix()}.example`;
    const res = await deliver("shop/update", "shop/update", s.domain, {
      id: 123,
      name: "Brand Store Renamed",
      email: "new-owner@brand.example",
      domain: next,
      myshopify_domain: s.domain,
      currency: "chf",
    });
    expect(res.status).toBe(200);
    const [shop] = await db(`SELECT name, email, currency, "primaryDomain" FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(shop).toEqual({ name: "Brand Store Renamed", email: "new-owner@brand.example", currency: "CHF", primaryDomain: next });

    const keys = await wish(server.databaseUrl, ["key", "list", "--partner", String(s.partner.id)]);
    const byId = new Map(keys.keys.map((k: any) => [k.id, k.allowed_domains]));
    expect([...(byId.get(s.key.id) as string[])].sort()).toEqual([next, s.domain].sort());
    expect(byId.get(other.id)).toEqual(["blog.unrelated.example"]);

    expect((await init(s.key.key, `https://${next}`)).status).toBe(200);
    expect((await init(s.key.key, `https://${s.domain}`)).status).toBe(200);
    const old = await init(s.key.key, `https://${s.primary}`);
    expect(old.status).toBe(403);
    expect(old.body.error).toBe("origin_not_allowed");
  });
});

describe("products/create, products/update, products/delete", () => {
  const product = (handle: string, over: Record<string, unknown> = {}) => ({
    id: 7_000_000_000 + Math.floor(Math.random() * 1_000_000),
    title: "Oak Lamp",
    handle,
    status: "active",
    vendor: "Brand",
    product_type: "Lighting",
    tags: "oak, lamp",
    image: { src: "https://cdn.shopify.invalid/s/files/oak-lamp.png" },
    variants: [{ id: 1, price: "24.90", compare_at_price: "29.90", inventory_management: "shopify", inventory_policy: "deny", inventory_quantity: 3 }],
    ...over,
  });

  it("create writes the catalogue entry on the primary domain: title, image, price in minor units and currency, availability, a price point", async () => {
    const s = await installedShop();
    const payload = product("oak-lamp");
    const res = await deliver("products/create", "products/create", s.domain, payload);
    expect(res.status).toBe(200);
    const [row] = await db<{ id: number; available: unknown; rawProductId: string; brand: string }>(
      `SELECT id, available, "rawProductId", brand FROM "Product" WHERE "canonicalUrl" = ?`,
      [`https://${s.primary}/products/oak-lamp`],
    );
    expect(row).toBeDefined();
    expect(truthy(row!.available)).toBe(true);
    expect(row!.rawProductId).toBe(String(payload.id));
    expect(row!.brand).toBe("Brand");
    const [loc] = await db(`SELECT market, title, "originalImageUrl", "priceMinor", currency, "compareAtPriceMinor" FROM "ProductLocalization" WHERE "productId" = ?`, [row!.id]);
    expect(loc).toEqual({
      market: "",
      title: "Oak Lamp",
      originalImageUrl: "https://cdn.shopify.invalid/s/files/oak-lamp.png",
      priceMinor: 2490,
      currency: "EUR",
      compareAtPriceMinor: 2990,
    });
    const points = await db(`SELECT "priceMinor", currency FROM "PricePoint" WHERE "productId" = ?`, [row!.id]);
    expect(points).toEqual([{ priceMinor: 2490, currency: "EUR" }]);
  });

  it("answers at once while the product's image host is slow; the image is copied after the answer, once", async () => {
    const s = await installedShop();
    const handle = `slow-image-${suffix()}`;
    const imageUrl = `http://${imageHost}/files/${handle}.png`;
    const res = await deliver("products/update", "products/update", s.domain, product(handle, { image: { src: imageUrl } }));
    // Answered while the image host has not answered (or not even been asked) yet.
    expect(res.status).toBe(200);
    expect(heldImages.length).toBeLessThanOrEqual(1);
    const localization = async () =>
      (await db<{ imageUrl: string | null; originalImageUrl: string }>(
        `SELECT l."imageUrl", l."originalImageUrl" FROM "ProductLocalization" l JOIN "Product" p ON p.id = l."productId" WHERE p."canonicalUrl" = ?`,
        [`https://${s.primary}/products/${handle}`],
      ))[0];
    expect(await localization()).toEqual({ imageUrl: null, originalImageUrl: imageUrl });
    // The same delivery again (Shopify's retry) queues no second copy.
    await deliver("products/update", "products/update", s.domain, product(handle, { image: { src: imageUrl } }));
    await until("the copy asks the image host", async () => heldImages.length, (n) => n === 1);
    const png = await flatPng(40, 40, [200, 120, 40]);
    heldImages.shift()!.writeHead(200, { "content-type": "image/png", "content-length": png.length }).end(png);
    const copied = await until("image copied", localization, (l) => l?.imageUrl !== null);
    expect(copied!.imageUrl).not.toBe(imageUrl);
    const [row] = await db<{ id: number }>(`SELECT id FROM "Product" WHERE "canonicalUrl" = ?`, [`https://${s.primary}/products/${handle}`]);
    const copies = await db<{ status: string }>(`SELECT status FROM "OutboxMessage" WHERE kind = 'product-image' AND "dedupKey" LIKE ?`, [`product-image:${row!.id}:%`]);
    expect(copies).toEqual([{ status: "sent" }]);
    expect(heldImages).toHaveLength(0);
  });

  it("update refreshes the entries shoppers saved (primary and myshopify host) in the shop's currency, records a price point; sold out → unavailable; delete → unavailable", async () => {
    const s = await installedShop({ currency: "JPY" });
    const handle = `kettle-${suffix()}`;
    const primaryUrl = `https://${s.primary}/products/${handle}`;
    const myshopifyUrl = `https://${s.domain}/products/${handle}`;
    await shopperList([primaryUrl, myshopifyUrl]);
    const ids = async () =>
      Object.fromEntries(
        (await db<{ id: number; canonicalUrl: string }>(`SELECT id, "canonicalUrl" FROM "Product" WHERE "canonicalUrl" IN (?, ?)`, [primaryUrl, myshopifyUrl])).map((r) => [r.canonicalUrl, r.id]),
      );
    const before = await ids();
    const sources = async () =>
      (await db<{ canonicalUrl: string; sourcePartnerId: number | null; sourceShopId: number | null; sourceDomain: string | null }>(
        `SELECT "canonicalUrl", "sourcePartnerId", "sourceShopId", "sourceDomain" FROM "Product" WHERE "canonicalUrl" IN (?, ?) ORDER BY "canonicalUrl"`,
        [primaryUrl, myshopifyUrl],
      )).map((r) => [r.canonicalUrl, r.sourcePartnerId === null ? null : Number(r.sourcePartnerId), r.sourceShopId === null ? null : Number(r.sourceShopId), r.sourceDomain]);
    // Shoppers' saves make no product the shop's; its platform claims the entries below.
    expect(await sources()).toEqual([primaryUrl, myshopifyUrl].sort().map((u) => [u, null, null, null]));
    // The primary entry is already shown in a German market, priced in EUR (a page scrape).
    const { db: prisma } = await import("~/db.server");
    await prisma.productLocalization.create({ data: { productId: before[primaryUrl]!, market: "de-DE", title: "Kessel", priceMinor: 990, currency: "EUR" } });

    // A JPY shop: prices have no minor digits.
    const payload = product(handle, { title: "Iron Kettle", variants: [{ price: "1500", inventory_management: "shopify", inventory_policy: "deny", inventory_quantity: 0 }] });
    expect((await deliver("products/update", "products/update", s.domain, payload)).status).toBe(200);
    expect(await ids()).toEqual(before); // no new entries: both are updated
    expect(await sources()).toEqual([[primaryUrl, s.primary], [myshopifyUrl, s.domain]].sort().map(([u, host]) => [u, s.partner.id, s.shop.id, host]));

    const locs = (id: number) =>
      db<{ market: string; title: string; priceMinor: number; currency: string }>(
        `SELECT market, title, "priceMinor", currency FROM "ProductLocalization" WHERE "productId" = ? ORDER BY market`,
        [id],
      );
    expect(await locs(before[primaryUrl]!)).toEqual([
      { market: "", title: "Iron Kettle", priceMinor: 1500, currency: "JPY" },
      { market: "de-DE", title: "Iron Kettle", priceMinor: 990, currency: "EUR" },
    ]);
    expect(await locs(before[myshopifyUrl]!)).toEqual([{ market: "", title: "Iron Kettle", priceMinor: 1500, currency: "JPY" }]);
    for (const id of Object.values(before)) {
      const points = await db<{ priceMinor: number; currency: string }>(`SELECT "priceMinor", currency FROM "PricePoint" WHERE "productId" = ?`, [id]);
      expect(points).toEqual([{ priceMinor: 1500, currency: "JPY" }]);
      const [row] = await db<{ available: unknown }>(`SELECT available FROM "Product" WHERE id = ?`, [id]);
      expect(truthy(row!.available)).toBe(false); // active, but no stock and no overselling
    }

    // Back in stock, then deleted.
    const restocked = { ...payload, variants: [{ price: "1500", inventory_management: "shopify", inventory_policy: "deny", inventory_quantity: 4 }] };
    expect((await deliver("products/update", "products/update", s.domain, restocked)).status).toBe(200);
    const available = async () =>
      (await db<{ available: unknown }>(`SELECT available FROM "Product" WHERE id IN (?, ?)`, Object.values(before))).map((r) => truthy(r.available));
    expect(await available()).toEqual([true, true]);
    expect((await deliver("products/delete", "products/delete", s.domain, { id: payload.id })).status).toBe(200);
    expect(await available()).toEqual([false, false]);
  });

  it("odd payloads never fail the request and change nothing they cannot describe", async () => {
    const s = await installedShop();
    for (const payload of [[], "text", { id: "x" }, { id: 1, handle: 5, variants: "nope" }, { id: 2, handle: "odd", variants: [null, { price: "abc" }], image: 7, status: "draft" }]) {
      for (const topic of ["products/create", "products/update", "products/delete", "orders/create", "shop/update"]) {
        const res = await deliver(topic, topic, s.domain, payload);
        expect(res.status, `${topic} ${JSON.stringify(payload)}`).toBe(200);
      }
    }
    const [odd] = await db<{ id: number; available: unknown }>(`SELECT id, available FROM "Product" WHERE "canonicalUrl" = ?`, [`https://${s.primary}/products/odd`]);
    expect(truthy(odd!.available)).toBe(false); // a draft
    expect(await db(`SELECT id FROM "PricePoint" WHERE "productId" = ?`, [odd!.id])).toHaveLength(0);
    const [shop] = await db(`SELECT name, "primaryDomain", currency FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(shop).toEqual({ name: "Brand Store", primaryDomain: s.primary, currency: "EUR" });
  });

  it("a duplicate product delivery records one price point", async () => {
    const s = await installedShop();
    const id = randomUUID();
    const payload = product("twice");
    expect((await deliver("products/update", "products/update", s.domain, payload, { id })).body).toEqual({ ok: true });
    expect((await deliver("products/update", "products/update", s.domain, payload, { id })).body).toEqual({ ok: true, duplicate: true });
    const points = await db(
      `SELECT pp.id FROM "PricePoint" pp JOIN "Product" pr ON pr.id = pp."productId" WHERE pr."canonicalUrl" = ?`,
      [`https://${s.primary}/products/twice`],
    );
    expect(points).toHaveLength(1);
    // Ids older than 30 days were pruned by the first processed delivery; younger ones stay.
    expect(await processedCount("ancient")).toBe(0);
    expect(await processedCount("recent")).toBe(1);
  });
});

/** The share page's product links (HTML as served), `&amp;` decoded. */
async function shareLinks(token: string): Promise<string[]> {
  const res = await fetch(`${server.url}/en/list/${token}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  return [...html.matchAll(/<a href="(https?:[^"]+)"[^>]*target="_blank"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
}

const itemRow = async (id: number) =>
  (await db<{ purchased: unknown; purchaseConfirmed: unknown }>(`SELECT purchased, "purchaseConfirmed" FROM "ListItem" WHERE id = ?`, [id]))[0]!;

describe("orders/create", () => {
  it("an order from a share-page link marks the item purchased and confirmed; forged and other shops' references change nothing", async () => {
    const s = await installedShop();
    const elsewhere = await installedShop();
    const list = await shopperList([
      `https://${s.primary}/products/vase`,
      `https://shop.example.com/products/not-a-platform-shop`,
      `https://${s.primary}/products/bowl`,
      `https://${elsewhere.primary}/products/cup`,
    ]);
    const [vase, plain, bowl, cup] = list.itemIds as [number, number, number, number];
    const links = await shareLinks(list.token);
    const vaseLink = links.find((l) => l.includes("/products/vase"))!;
    const cupLink = links.find((l) => l.includes("/products/cup"))!;
    expect(new URL(vaseLink).searchParams.get("wish_ref")).toMatch(new RegExp(`^${vase}\\.[\\w-]{22}$`));
    // Links to sites without the app carry no reference.
    expect(links.find((l) => l.includes("not-a-platform-shop"))).toBe("https://shop.example.com/products/not-a-platform-shop");

    const landing = new URL(vaseLink);
    const order = (refs: { landing?: string; properties?: string[]; note?: string }) => ({
      id: 5_500_000_000 + Math.floor(Math.random() * 1_000_000),
      customer: { id: 9_100_000, email: "buyer@example.com" },
      landing_site: refs.landing ?? "/",
      note_attributes: refs.note ? [{ name: "wish_ref", value: refs.note }] : [],
      line_items: [{ id: 1, title: "Vase", quantity: 1, properties: (refs.properties ?? []).map((value) => ({ name: "_wish_ref", value })) }],
    });

    // Forged: the vase's id with a made-up signature, a bowl ref signed for another id, garbage; and the cup's genuine
    // reference in an order of a shop that does not sell the cup.
    const forgedRef = `${bowl}.${"A".repeat(22)}`;
    const reused = new URL(vaseLink).searchParams.get("wish_ref")!.replace(/^\d+/, String(bowl));
    const forged = await deliver("orders/create", "orders/create", s.domain, order({ properties: [forgedRef, reused, "hello", `${plain}.`], note: "1.x" }));
    expect(forged.status).toBe(200);
    const cupRef = new URL(cupLink).searchParams.get("wish_ref")!;
    expect((await deliver("orders/create", "orders/create", s.domain, order({ landing: `/products/cup?wish_ref=${cupRef}` }))).status).toBe(200);
    for (const id of [vase, plain, bowl, cup]) expect(truthy((await itemRow(id)).purchased)).toBe(false);
    expect(await db(`SELECT id FROM "PurchaseConfirmation" WHERE "shopDomain" = ?`, [s.domain])).toHaveLength(0);

    // The genuine order: the buyer landed on the vase link's page.
    const genuine = order({ landing: `${landing.pathname}${landing.search}` });
    expect((await deliver("orders/create", "orders/create", s.domain, genuine)).status).toBe(200);
    expect(await itemRow(vase)).toMatchObject({ purchased: expect.anything() });
    expect(truthy((await itemRow(vase)).purchased)).toBe(true);
    expect(truthy((await itemRow(vase)).purchaseConfirmed)).toBe(true);
    expect(truthy((await itemRow(bowl)).purchased)).toBe(false);
    const items = await api.get(`/hosted/public/lists/${list.token}/items`);
    expect(items.body.products.find((x: any) => x.item_id === vase).purchased).toBe(true);
    const confirmations = await db(`SELECT "shopDomain", "listItemId", "orderId", "customerId" FROM "PurchaseConfirmation" WHERE "listItemId" IN (?, ?, ?, ?)`, [vase, plain, bowl, cup]);
    expect(confirmations).toEqual([{ shopDomain: s.domain, listItemId: vase, orderId: String(genuine.id), customerId: "9100000" }]);

    // The same order delivered again under a new webhook id (Shopify resends): still one confirmation.
    expect((await deliver("orders/create", "orders/create", s.domain, genuine)).status).toBe(200);
    expect(await db(`SELECT id FROM "PurchaseConfirmation" WHERE "shopDomain" = ?`, [s.domain])).toHaveLength(1);
  });

  it("the basket drawer's saved products carry the reference; a cart line property with it confirms the purchase", async () => {
    const s = await installedShop();
    const list = await shopperList([`https://${s.primary}/products/candle`]);
    const initRes = await init(s.key.key, `https://${s.primary}`);
    expect(initRes.status).toBe(200);
    const saved = await api.get("/widget/saved-products", {
      token: list.owner.accessToken,
      headers: { "x-widget-token": initRes.body.token },
    });
    expect(saved.status).toBe(200);
    const ref: string = saved.body.products[0].wish_ref;
    expect(ref).toMatch(new RegExp(`^${list.itemIds[0]}\\.[\\w-]{22}$`));

    // What basket-integration.js makes of the drawer's cart line (app/sdk/cart.ts).
    const { fillCartUrl } = await import("../../app/sdk/cart.ts");
    const cartUrl = fillCartUrl(`https://${s.primary}/cart/add?id={variant_id}&quantity={quantity}`, { variantId: "4711", quantity: 2, ref });
    const property = new URL(cartUrl).searchParams.get("properties[_wish_ref]");
    expect(property).toBe(ref);
    // An explicit placeholder is filled instead; anything not shaped like a reference is left out.
    expect(fillCartUrl("/cart/add?id={variant_id}&ref={wish_ref}", { variantId: 1, ref })).toBe(`/cart/add?id=1&ref=${ref}`);
    expect(fillCartUrl("/cart/add?id={variant_id}", { variantId: 1, ref: "1.<script>" })).toBe("/cart/add?id=1");

    const order = { id: 6_600_000_001, customer: { id: 42 }, line_items: [{ id: 1, properties: [{ name: "_wish_ref", value: property }] }] };
    expect((await deliver("orders/create", "orders/create", s.domain, order)).status).toBe(200);
    expect(truthy((await itemRow(list.itemIds[0]!)).purchaseConfirmed)).toBe(true);
  });
});

describe("compliance webhooks", () => {
  async function purchased(s: Awaited<ReturnType<typeof installedShop>>, customerId: number) {
    const list = await shopperList([`https://${s.primary}/products/gift-${suffix()}`]);
    const [link] = (await shareLinks(list.token)).filter((l) => l.includes("wish_ref"));
    const url = new URL(link!);
    const orderId = 7_700_000_000 + Math.floor(Math.random() * 1_000_000);
    const res = await deliver("orders/create", "orders/create", s.domain, {
      id: orderId,
      customer: { id: customerId },
      landing_site: `${url.pathname}${url.search}`,
    });
    expect(res.status).toBe(200);
    return { list, orderId: String(orderId), itemId: list.itemIds[0]! };
  }

  it("bad HMAC → 401 and nothing recorded", async () => {
    const s = await installedShop();
    const res = await deliver("compliance", "customers/data_request", s.domain, { shop_domain: s.domain, customer: { id: 1 } }, { secret: "wrong" });
    expect(res.status).toBe(401);
    expect(await db(`SELECT id FROM "ComplianceRequest" WHERE "shopDomain" = ?`, [s.domain])).toHaveLength(0);
  });

  it("customers/data_request records the request with the customer's data, readable with `wish shop data-requests`", async () => {
    const s = await installedShop();
    const mine = await purchased(s, 31);
    await purchased(s, 32); // another customer's order
    const res = await deliver("compliance", "customers/data_request", s.domain, {
      shop_id: 1,
      shop_domain: s.domain,
      orders_requested: [],
      customer: { id: 31, email: "c31@example.com" },
      data_request: { id: 9999 },
    });
    expect(res.status).toBe(200);
    const out = await wish(server.databaseUrl, ["shop", "data-requests", "--domain", s.domain]);
    expect(out.data_requests).toHaveLength(1);
    expect(out.data_requests[0]).toMatchObject({
      shop_domain: s.domain,
      customer_id: "31",
      data: {
        data_request_id: "9999",
        purchase_confirmations: [{ order_id: mine.orderId, customer_id: "31", list_item_id: mine.itemId, confirmed_at: expect.any(String) }],
      },
    });
  });

  it("customers/redact deletes that customer's confirmations (the items stay purchased) and earlier data-request copies", async () => {
    const s = await installedShop();
    const a = await purchased(s, 51);
    const b = await purchased(s, 52);
    await deliver("compliance", "customers/data_request", s.domain, { shop_domain: s.domain, customer: { id: 51 } });
    const res = await deliver("compliance", "customers/redact", s.domain, {
      shop_id: 1,
      shop_domain: s.domain,
      customer: { id: 51, email: "c51@example.com" },
      orders_to_redact: [Number(a.orderId)],
    });
    expect(res.status).toBe(200);
    const left = await db<{ orderId: string }>(`SELECT "orderId" FROM "PurchaseConfirmation" WHERE "shopDomain" = ?`, [s.domain]);
    expect(left.map((r) => r.orderId)).toEqual([b.orderId]);
    expect(truthy((await itemRow(a.itemId)).purchased)).toBe(true);
    expect((await wish(server.databaseUrl, ["shop", "data-requests", "--domain", s.domain])).data_requests).toEqual([]);
  });

  it("shop/redact deletes keys, baskets, usage, sessions, confirmations and the shop's PII, and keeps shoppers' lists", async () => {
    const s = await installedShop();
    const bought = await purchased(s, 61);
    expect((await init(s.key.key, `https://${s.primary}`)).status).toBe(200);
    await db(`INSERT INTO "UsageCounter" ("partnerId", period, saves, total) VALUES (?, '2020-01', 3, 3)`, [s.partner.id]);
    const res = await deliver("compliance", "shop/redact", s.domain, { shop_id: 1, shop_domain: s.domain });
    expect(res.status).toBe(200);

    expect(await db(`SELECT id FROM "ApiKey" WHERE "partnerId" = ?`, [s.partner.id])).toHaveLength(0);
    expect(await db(`SELECT id FROM "BasketConfig" WHERE "partnerId" = ?`, [s.partner.id])).toHaveLength(0);
    expect(await db(`SELECT period FROM "UsageCounter" WHERE "partnerId" = ?`, [s.partner.id])).toHaveLength(0);
    expect(await db(`SELECT id FROM "Session" WHERE shop = ?`, [s.domain])).toHaveLength(0);
    expect(await db(`SELECT id FROM "PurchaseConfirmation" WHERE "shopDomain" = ?`, [s.domain])).toHaveLength(0);
    const [shop] = await db(`SELECT name, email, "primaryDomain" FROM "PlatformShop" WHERE id = ?`, [s.shop.id]);
    expect(shop).toEqual({ name: null, email: null, primaryDomain: null });

    const items = await api.get(`/hosted/public/lists/${bought.list.token}/items`);
    expect(items.status).toBe(200);
    expect(items.body.products.map((x: any) => [x.item_id, x.purchased])).toEqual([[bought.itemId, true]]);
    expect((await init(s.key.key, `https://${s.primary}`)).body.error).toBe("unknown_key");
  });
});
