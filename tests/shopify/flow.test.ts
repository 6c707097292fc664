// Shopify Flow (docs/shopify.md "Shopify Flow"): the four triggers reach the
// fake Admin API's flowTriggerReceive with the documented payload, through the
// outbox and the app's real Shopify wiring (background.server.ts, the shop's
// offline session), only for a shop whose lifecycle callback said it uses the
// trigger; the lifecycle callback and the action request are signed as
// Shopify signs them (base64 HMAC-SHA256 of the raw body with the app's
// secret in X-Shopify-Hmac-Sha256) and refused with a wrong signature; the
// action adds the product to the customer's default list and meters the save.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/server.ts";
import { API_KEY, API_SECRET, APP_URL, FakeAdminApi, shopifyTestApp, type FakeShop } from "../support/shopify.ts";
import { until } from "../support/wait.ts";

const root = path.resolve(import.meta.dirname, "../..");
const HANDLES = ["wishlist-product-added", "wishlist-price-dropped", "wishlist-back-in-stock", "wishlist-shared"] as const;

let api: FakeAdminApi;
let databaseUrl: string;
let db: Awaited<typeof import("~/db.server")>["db"];
let worker: typeof import("~/domains/outbox/worker.server");
let flow: typeof import("~/domains/flow/triggers.server");
let saveProduct: typeof import("~/domains/lists/save.server")["saveProduct"];
let lifecycleRoute: typeof import("~/routes/flow.lifecycle");
let actionRoute: typeof import("~/routes/flow.actions.add-to-wishlist");

interface TestShop {
  id: number;
  partnerId: number;
  domain: string;
  host: string;
  fake: FakeShop;
  /** Catalogue products of the shop: Product.id and Shopify's id. */
  products: Array<{ id: number; shopifyId: string; handle: string; url: string }>;
}
let flowShop: TestShop;
let quietShop: TestShop;
const customer = "7001234567";

async function installShop(label: string): Promise<TestShop> {
  const { createPartner } = await import("~/domains/partners/partners.server");
  const { createPlatformShop } = await import("~/domains/shops/shops.server");
  const partner = await createPartner({ name: label, email: `owner@${label}.example` });
  const domain = `${label}-${randomBytes(4).toString("hex")}.myshopify.com`;
  const host = `www.${domain.split(".")[0]}.example`;
  const shop = await createPlatformShop(partner.id, { domain });
  await db.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: host } });
  const fake = api.addShop(domain, { primaryHost: host });
  await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: "shpat_flow", scope: "read_products" } });
  const products = [];
  for (const [i, handle] of ["linen-shirt", "wool-scarf", "rain-coat"].entries()) {
    const shopifyId = String(8_100_000_000_000 + shop.id * 10 + i);
    const url = `https://${host}/products/${handle}`;
    // As the products webhooks leave it: the shop's own entry with Shopify's id and a price in EUR.
    const product = await db.product.create({
      data: {
        canonicalUrl: url,
        rawProductId: shopifyId,
        sourceShopId: shop.id,
        sourcePartnerId: partner.id,
        sourceDomain: host,
        localizations: { create: { market: "", title: handle.replace("-", " "), priceMinor: 2490 + i * 1000, currency: "EUR" } },
      },
    });
    products.push({ id: product.id, shopifyId, handle, url });
  }
  return { id: shop.id, partnerId: partner.id, domain, host, fake, products };
}

/** A lifecycle callback as Flow sends it; another `secret` makes a wrong signature. */
function lifecycleRequest(shop: TestShop, handle: string, enabled: boolean, timestamp: Date, opts: { secret?: string | null; method?: string } = {}) {
  const body = JSON.stringify({
    flow_trigger_definition_id: handle,
    has_enabled_flow: enabled,
    shop_id: 690933842,
    shopify_domain: shop.domain,
    timestamp: timestamp.toISOString(),
  });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.secret !== null) headers["x-shopify-hmac-sha256"] = getHmac(body, opts.secret ?? API_SECRET);
  const method = opts.method ?? "POST";
  return new Request(`${APP_URL}/flow/lifecycle`, { method, headers, ...(method === "POST" ? { body } : {}) });
}

async function lifecycle(shop: TestShop, handle: string, enabled: boolean, timestamp: Date, opts: { secret?: string | null; method?: string } = {}) {
  const request = lifecycleRequest(shop, handle, enabled, timestamp, opts);
  const response = opts.method === "GET" ? await lifecycleRoute.loader({ request, params: {}, context: {} }) : await lifecycleRoute.action({ request, params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An action request as Flow sends it to the runtime URL. */
async function flowAction(shop: TestShop, properties: Record<string, unknown>, opts: { secret?: string; runId?: string } = {}) {
  const body = JSON.stringify({
    shop_id: "1",
    shopify_domain: shop.domain,
    action_run_id: opts.runId ?? randomUUID(),
    action_definition_id: "Add product to customer wishlist",
    handle: "wishlist-add-product",
    properties,
  });
  const request = new Request(`${APP_URL}/flow/actions/add-to-wishlist`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-hmac-sha256": getHmac(body, opts.secret ?? API_SECRET) },
    body,
  });
  const response = await actionRoute.action({ request, params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const flowMessages = (shop: TestShop) => db.outboxMessage.findMany({ where: { kind: "flow_trigger", topic: `flow:${shop.id}` }, orderBy: { id: "asc" } });

/** Runs the outbox until none of the shop's trigger messages is pending. */
async function deliver(shop: TestShop) {
  await worker.runOutboxOnce();
  return until("flow triggers delivered", () => flowMessages(shop), (rows) => rows.every((r) => r.status !== "pending"));
}

async function shopperWithList(shop: TestShop, customerId: string | null) {
  const { shopperOfCustomer } = await import("~/domains/shop-customers/shop-customers.server");
  const userId = customerId ? (await shopperOfCustomer(shop.id, customerId)).userId : (await db.user.create({ data: { id: randomUUID(), isAnonymous: true } })).id;
  const list = await db.wishlist.create({ data: { shareToken: randomBytes(18).toString("base64url"), ownerId: userId, name: "Birthday" } });
  return { userId, listId: list.id, token: list.shareToken };
}

async function save(shop: TestShop, saver: { userId: string; listId: number }, product: TestShop["products"][number]) {
  const body = { wishlistId: saver.listId, product: { url: product.url, title: product.handle } } as unknown as Parameters<typeof saveProduct>[1];
  return saveProduct({ userId: saver.userId, address: "0.0.0.0" }, body, {
    kind: "widget",
    widgetOrigin: `https://${shop.host}`,
    partnerId: shop.partnerId,
    shopId: shop.id,
    domain: shop.host,
  });
}

beforeAll(async () => {
  ({ api, databaseUrl } = await shopifyTestApp());
  ({ db } = await import("~/db.server"));
  await import("~/background.server");
  worker = await import("~/domains/outbox/worker.server");
  flow = await import("~/domains/flow/triggers.server");
  ({ saveProduct } = await import("~/domains/lists/save.server"));
  lifecycleRoute = await import("~/routes/flow.lifecycle");
  actionRoute = await import("~/routes/flow.actions.add-to-wishlist");
  flowShop = await installShop("flow");
  quietShop = await installShop("quiet");
  // Flow on at one shop: a workflow for each trigger was switched on.
  for (const handle of HANDLES) expect((await lifecycle(flowShop, handle, true, new Date())).body).toEqual({ ok: true, recorded: true });
});

describe("trigger lifecycle callback", () => {
  it("the built server answers both addresses as Shopify calls them", async () => {
    // Before any trigger is queued: this server's outbox would otherwise send them to the real Shopify.
    const server = await startServer({ DATABASE_URL: databaseUrl, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET });
    try {
      const shop = await installShop("http");
      const post = (path: string, body: string, secret: string) =>
        fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-shopify-hmac-sha256": getHmac(body, secret) }, body });
      const callback = JSON.stringify({ flow_trigger_definition_id: "wishlist-shared", has_enabled_flow: true, shop_id: 1, shopify_domain: shop.domain, timestamp: new Date().toISOString() });
      const wrong = await post("/flow/lifecycle", callback, "not-the-app-secret");
      expect([wrong.status, await wrong.json()]).toEqual([401, { error: "unauthorized", message: expect.any(String) }]);
      const ok = await post("/flow/lifecycle", callback, API_SECRET);
      expect([ok.status, await ok.json()]).toEqual([200, { ok: true, recorded: true }]);
      expect(await db.flowTriggerUse.findUnique({ where: { shopId_handle: { shopId: shop.id, handle: "wishlist-shared" } } })).toMatchObject({ enabled: true });
      const action = JSON.stringify({ shopify_domain: shop.domain, handle: "wishlist-add-product", properties: { customer_id: "1", product_id: "1" } });
      const refused = await post("/flow/actions/add-to-wishlist", action, "not-the-app-secret");
      expect([refused.status, await refused.json()]).toEqual([401, { error: "unauthorized", message: expect.any(String) }]);
    } finally {
      await server.stop();
    }
  });

  it("refuses a wrong or missing signature (401) and anything but POST (405), recording nothing", async () => {
    const at = new Date(Date.now() + 60_000);
    const wrong = await lifecycle(quietShop, HANDLES[0], true, at, { secret: "not-the-app-secret" });
    expect(wrong).toEqual({ status: 401, body: { error: "unauthorized", message: expect.any(String) } });
    expect((await lifecycle(quietShop, HANDLES[0], true, at, { secret: null })).status).toBe(401);
    expect((await lifecycle(quietShop, HANDLES[0], true, at, { method: "GET" })).status).toBe(405);
    expect(await db.flowTriggerUse.count({ where: { shopId: quietShop.id } })).toBe(0);
  });

  it("answers a signed body that is not a callback with 400, and one for an unknown shop or trigger with 200 without recording", async () => {
    const signed = (body: string) =>
      lifecycleRoute.action({
        request: new Request(`${APP_URL}/flow/lifecycle`, { method: "POST", headers: { "x-shopify-hmac-sha256": getHmac(body, API_SECRET) }, body }),
        params: {},
        context: {},
      });
    const notJson = await signed("not json");
    expect([notJson.status, await notJson.json()]).toEqual([400, { error: "invalid_payload", message: expect.any(String) }]);
    const noFields = await signed(JSON.stringify({ has_enabled_flow: "yes" }));
    expect([noFields.status, (await noFields.json()).error]).toEqual([400, "invalid_payload"]);
    const unknownShop = { ...quietShop, domain: "nobody.myshopify.com" };
    expect(await lifecycle(unknownShop, HANDLES[0], true, new Date())).toEqual({ status: 200, body: { ok: true, recorded: false } });
    expect(await lifecycle(quietShop, "someone-elses-trigger", true, new Date())).toEqual({ status: 200, body: { ok: true, recorded: false } });
    expect(await db.flowTriggerUse.count({ where: { shopId: quietShop.id } })).toBe(0);
  });

  it("records per shop and trigger; an older callback does not overwrite a newer one", async () => {
    const shop = await installShop("order");
    const t = Date.now();
    const state = () => db.flowTriggerUse.findUniqueOrThrow({ where: { shopId_handle: { shopId: shop.id, handle: "wishlist-shared" } } });
    await lifecycle(shop, "wishlist-shared", true, new Date(t));
    expect((await lifecycle(shop, "wishlist-shared", false, new Date(t - 1000))).body).toEqual({ ok: true, recorded: false });
    expect((await state()).enabled).toBe(true);
    await lifecycle(shop, "wishlist-shared", false, new Date(t + 1000));
    expect(await state()).toMatchObject({ enabled: false, changedAt: new Date(t + 1000) });
    // Flow's older definitions name the trigger by its title.
    await lifecycle(shop, "Wishlist shared", true, new Date(t + 2000));
    expect((await state()).enabled).toBe(true);
  });
});

describe("triggers", () => {
  it("the extensions declare every payload key the app sends", () => {
    const sent: Record<string, string[]> = {
      "wishlist-product-added": ["product_id", "customer_id", "List name", "Product title", "Product URL", "Price", "Currency"],
      "wishlist-price-dropped": ["product_id", "customer_id", "Product title", "Product URL", "Price", "Previous price", "Currency"],
      "wishlist-back-in-stock": ["product_id", "customer_id", "Product title", "Product URL"],
      "wishlist-shared": ["product_id", "customer_id", "List name", "Share URL", "Saved products"],
    };
    const dirs = { "wishlist-product-added": "flow-product-added", "wishlist-price-dropped": "flow-price-dropped", "wishlist-back-in-stock": "flow-back-in-stock", "wishlist-shared": "flow-wishlist-shared" };
    for (const handle of HANDLES) {
      const toml = readFileSync(path.join(root, "extensions", dirs[handle], "shopify.extension.toml"), "utf8");
      expect(toml).toContain(`type = "flow_trigger"\nhandle = "${handle}"`);
      const keys = [...toml.matchAll(/^key = "([^"]+)"$/gm)].map((m) => m[1]);
      const refs = [...toml.matchAll(/^type = "(\w+)_reference"$/gm)].map((m) => `${m[1]}_id`);
      expect([...refs, ...keys], handle).toEqual(sent[handle]);
    }
  });

  it("Product added to wishlist: the documented payload to a shop using it, nothing to a shop without; a re-save sends nothing more", async () => {
    const shopper = await shopperWithList(flowShop, customer);
    const [shirt] = flowShop.products;
    const saved = await save(flowShop, shopper, shirt!);
    await deliver(flowShop);
    expect(flowShop.fake.flowTriggers).toEqual([
      {
        handle: "wishlist-product-added",
        payload: {
          product_id: Number(shirt!.shopifyId),
          customer_id: Number(customer),
          "List name": "Birthday",
          "Product title": "linen-shirt",
          "Product URL": shirt!.url,
          Price: 24.9,
          Currency: "EUR",
        },
      },
    ]);
    expect((await flowMessages(flowShop)).map((m) => m.dedupKey)).toEqual([`flow:added:${saved.item_id}`]);
    await save(flowShop, shopper, shirt!);
    await deliver(flowShop);
    expect(flowShop.fake.flowTriggers).toHaveLength(1);

    const quietShopper = await shopperWithList(quietShop, customer);
    await save(quietShop, quietShopper, quietShop.products[0]!);
    // Another shop's product saved through this shop's widget is no product of this shop.
    await save(flowShop, shopper, quietShop.products[1]!);
    await worker.runOutboxOnce();
    expect(await flowMessages(quietShop)).toEqual([]);
    expect(await flowMessages(flowShop)).toHaveLength(1);
    expect(api.callsTo(quietShop.domain, "flowTriggerReceive")).toEqual([]);
  });

  it("Wishlist shared: sharing a list with the shop's products, once per share", async () => {
    const { updateList } = await import("~/domains/lists/lists.server");
    const shopper = await shopperWithList(flowShop, null);
    await save(flowShop, shopper, flowShop.products[1]!);
    await save(flowShop, shopper, flowShop.products[2]!);
    const before = flowShop.fake.flowTriggers.length;
    await updateList(shopper.token, shopper.userId, { share_public: true });
    await updateList(shopper.token, shopper.userId, { share_public: true });
    await deliver(flowShop);
    const shared = flowShop.fake.flowTriggers.slice(before).filter((t) => t.handle === "wishlist-shared");
    // An anonymous shopper: no customer reference.
    expect(shared).toEqual([
      {
        handle: "wishlist-shared",
        payload: {
          product_id: Number(flowShop.products[2]!.shopifyId),
          "List name": "Birthday",
          "Share URL": `${APP_URL}/en/list/${encodeURIComponent(shopper.token)}`,
          "Saved products": 2,
        },
      },
    ]);

    const quietShopper = await shopperWithList(quietShop, null);
    await save(quietShop, quietShopper, quietShop.products[1]!);
    await updateList(quietShopper.token, quietShopper.userId, { share_public: true });
    expect(await flowMessages(quietShop)).toEqual([]);
  });

  it("price dropped and back in stock: one trigger per shopper who saved the product, queued once per change", async () => {
    const scarf = flowShop.products[1]!;
    const linked = await shopperWithList(flowShop, "7009999999");
    await save(flowShop, linked, scarf);
    // The Wishlist shared test's shopper saved the scarf too, anonymously.
    const changedAt = new Date();
    const before = flowShop.fake.flowTriggers.length;
    const drop = { kind: "price_drop" as const, productId: scarf.id, priceMinor: 1990, previousPriceMinor: 3490, currency: "EUR", changedAt };
    expect(await flow.fireWishlistedProductChange(flowShop.id, drop)).toEqual({ queued: 2 });
    expect(await flow.fireWishlistedProductChange(flowShop.id, drop)).toEqual({ queued: 0 });
    expect(await flow.fireWishlistedProductChange(flowShop.id, { kind: "back_in_stock", productId: scarf.id, changedAt })).toEqual({ queued: 2 });
    await deliver(flowShop);
    const sent = flowShop.fake.flowTriggers.slice(before);
    const common = { product_id: Number(scarf.shopifyId), "Product title": "wool scarf", "Product URL": scarf.url };
    const dropped = { ...common, Price: 19.9, "Previous price": 34.9, Currency: "EUR" };
    expect(sent.filter((t) => t.handle === "wishlist-price-dropped").map((t) => t.payload)).toEqual(
      expect.arrayContaining([dropped, { ...dropped, customer_id: 7009999999 }]),
    );
    expect(sent.filter((t) => t.handle === "wishlist-price-dropped")).toHaveLength(2);
    expect(sent.filter((t) => t.handle === "wishlist-back-in-stock").map((t) => t.payload)).toEqual(
      expect.arrayContaining([common, { ...common, customer_id: 7009999999 }]),
    );
    expect(sent.filter((t) => t.handle === "wishlist-back-in-stock")).toHaveLength(2);

    // A shop without Flow gets nothing.
    const quietShopper = await shopperWithList(quietShop, null);
    await save(quietShop, quietShopper, quietShop.products[2]!);
    expect(await flow.fireWishlistedProductChange(quietShop.id, { ...drop, productId: quietShop.products[2]!.id })).toEqual({ queued: 0 });
    // Nor does a shop about another shop's product.
    expect(await flow.fireWishlistedProductChange(flowShop.id, { ...drop, productId: quietShop.products[2]!.id })).toEqual({ queued: 0 });
  });

  it("a throttled send is retried and sent once; an attempt interrupted mid-call is not sent again", async () => {
    const shopper = await shopperWithList(flowShop, null);
    flowShop.fake.throttleFlowTriggers = 1;
    const before = flowShop.fake.flowTriggers.length;
    const saved = await save(flowShop, shopper, flowShop.products[0]!);
    await worker.runOutboxOnce();
    const byKey = () => db.outboxMessage.findUniqueOrThrow({ where: { dedupKey: `flow:added:${saved.item_id}` } });
    const failed = await until("first attempt recorded", byKey, (m) => m.attempts === 1 && m.lastError !== null);
    expect(failed).toMatchObject({ status: "pending", lastError: expect.stringContaining("flowTriggerReceive failed: Throttled") });
    await db.outboxMessage.update({ where: { id: failed.id }, data: { nextAttemptAt: new Date() } });
    await deliver(flowShop);
    expect(await byKey()).toMatchObject({ status: "sent", attempts: 2 });
    expect(flowShop.fake.flowTriggers.slice(before)).toHaveLength(1);

    // A crash after the claim: attempts counted, no outcome recorded.
    const other = await shopperWithList(flowShop, null);
    const second = await save(flowShop, other, flowShop.products[0]!);
    const message = await db.outboxMessage.findUniqueOrThrow({ where: { dedupKey: `flow:added:${second.item_id}` } });
    await db.outboxMessage.update({ where: { id: message.id }, data: { attempts: 1, nextAttemptAt: new Date() } });
    await deliver(flowShop);
    expect(await db.outboxMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ status: "failed", lastError: expect.stringContaining("interrupted") });
    expect(flowShop.fake.flowTriggers.slice(before)).toHaveLength(1);
  });
});

describe("action: Add product to customer wishlist", () => {
  it("refuses a wrong signature with 401 and adds nothing", async () => {
    const product = flowShop.products[2]!;
    flowShop.fake.products.set(product.shopifyId, { handle: product.handle, title: "Rain coat", price: "44.90", currency: "EUR" });
    const items = await db.listItem.count();
    const wrong = await flowAction(flowShop, { customer_id: "7005550001", product_id: product.shopifyId }, { secret: "not-the-app-secret" });
    expect(wrong).toEqual({ status: 401, body: { error: "unauthorized", message: expect.any(String) } });
    expect(await db.listItem.count()).toBe(items);
    expect(await db.shopCustomer.count({ where: { shopId: flowShop.id, customerId: "7005550001" } })).toBe(0);
  });

  it("adds the product to a new customer's default list, meters the save, and answers 200; a repeated run adds nothing", async () => {
    const product = flowShop.products[2]!;
    const usage = () => db.usageCounter.aggregate({ where: { partnerId: flowShop.partnerId }, _sum: { saves: true } });
    const savesBefore = (await usage())._sum.saves ?? 0;
    const runId = randomUUID();
    const answer = await flowAction(flowShop, { customer_id: "7005550001", product_id: `gid://shopify/Product/${product.shopifyId}` }, { runId });
    expect(answer).toEqual({ status: 200, body: { ok: true, item_id: expect.any(Number) } });
    const link = await db.shopCustomer.findUniqueOrThrow({ where: { shopId_customerId: { shopId: flowShop.id, customerId: "7005550001" } } });
    const item = await db.listItem.findUniqueOrThrow({
      where: { id: answer.body.item_id as number },
      select: { sourceShopId: true, wishlist: { select: { ownerId: true, defaultKey: true } }, product: { select: { id: true } } },
    });
    expect(item).toEqual({ sourceShopId: flowShop.id, wishlist: { ownerId: link.userId, defaultKey: "default" }, product: { id: product.id } });
    expect((await usage())._sum.saves).toBe(savesBefore + 1);
    // The new item is a "Product added to wishlist" for this customer.
    const queued = await db.outboxMessage.findUniqueOrThrow({ where: { dedupKey: `flow:added:${answer.body.item_id}` } });
    expect(queued.payload).toMatchObject({ customer_id: "7005550001", body: { customer_id: 7005550001, product_id: Number(product.shopifyId) } });

    const again = await flowAction(flowShop, { customer_id: "7005550001", product_id: product.shopifyId }, { runId });
    expect(again).toEqual({ status: 200, body: { ok: true, item_id: answer.body.item_id } });
    expect(await db.listItem.count({ where: { wishlist: { ownerId: link.userId } } })).toBe(1);
  });

  it("saves the shop's price in minor units of its own currency (JPY none, KWD three decimals)", async () => {
    const cases = [
      { handle: "tea-bowl", price: "1500", currency: "JPY", minor: 1500 },
      { handle: "dallah", price: "12.345", currency: "KWD", minor: 12345 },
      { handle: "watch-strap", price: "49.90", currency: "CHF", minor: 4990 },
      { handle: "field-cap", price: "19.99", currency: "USD", minor: 1999 },
    ];
    for (const [i, c] of cases.entries()) {
      const shopifyId = String(8_200_000_000_000 + flowShop.id * 10 + i);
      flowShop.fake.products.set(shopifyId, { handle: c.handle, title: c.handle, price: c.price, currency: c.currency });
      const answer = await flowAction(flowShop, { customer_id: "7005550002", product_id: shopifyId });
      expect(answer.status).toBe(200);
      const item = await db.listItem.findUniqueOrThrow({ where: { id: answer.body.item_id as number }, select: { ownPriceMinor: true, ownCurrency: true } });
      expect(item, c.currency).toEqual({ ownPriceMinor: c.minor, ownCurrency: c.currency });
    }
  });

  it("a product the shop does not have, or a shop without the app's session, answers 404", async () => {
    const answer = await flowAction(flowShop, { customer_id: "7005550001", product_id: "1" });
    expect(answer).toEqual({ status: 404, body: { error: "unknown_product", message: expect.any(String) } });
    const gone = await installShop("gone");
    await db.session.deleteMany({ where: { shop: gone.domain } });
    const noSession = await flowAction(gone, { customer_id: "7005550001", product_id: gone.products[0]!.shopifyId });
    expect(noSession).toEqual({ status: 404, body: { error: "unknown_shop", message: expect.any(String) } });
  });
});

describe("privacy", () => {
  it("customers/redact deletes the customer's trigger messages; data requests list them", async () => {
    const { customerDataRequested, customerRedacted } = await import("~/flows/compliance.server");
    const hook = (topic: string, payload: unknown) => ({ topic, shop: flowShop.domain, webhookId: randomUUID(), payloadDigest: randomUUID(), payload });
    const named = async () => (await flowMessages(flowShop)).filter((m) => (m.payload as { customer_id?: string }).customer_id === customer);
    expect((await named()).length).toBeGreaterThan(0);
    await customerDataRequested(hook("customers/data_request", { customer: { id: Number(customer) }, data_request: { id: 1 } }));
    const request = await db.complianceRequest.findFirstOrThrow({ where: { shopDomain: flowShop.domain, topic: "customers/data_request" } });
    expect((request.data as { flow_triggers: unknown[] }).flow_triggers).toEqual(
      (await named()).map((m) => ({ handle: "wishlist-product-added", status: m.status, queued_at: m.createdAt.toISOString(), sent_at: m.sentAt?.toISOString() ?? null })),
    );
    await customerRedacted(hook("customers/redact", { customer: { id: Number(customer) }, orders_to_redact: [] }));
    expect(await named()).toEqual([]);
    expect((await flowMessages(flowShop)).length).toBeGreaterThan(0);
  });

  it("shop/redact deletes the shop's trigger messages and lifecycle records", async () => {
    const { shopRedacted } = await import("~/flows/compliance.server");
    await shopRedacted({ topic: "shop/redact", shop: flowShop.domain, webhookId: randomUUID(), payloadDigest: randomUUID(), payload: { shop_domain: flowShop.domain } });
    expect(await flowMessages(flowShop)).toEqual([]);
    expect(await db.flowTriggerUse.count({ where: { shopId: flowShop.id } })).toBe(0);
  });
});
