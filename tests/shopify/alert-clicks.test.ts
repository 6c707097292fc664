// Alert click-through and refunds in the wishlist revenue (docs/alerts.md
// "Clicks", docs/revenue.md "Refunds"), end to end: the built server with
// Shopify on and SMTP_URL pointed at a real SMTP server in this process;
// products/update, orders/create and refunds/create signed as Shopify signs
// them; the alert e-mail's Buy-now link as the SMTP server received it,
// followed over HTTP; the revenue page (Polaris, laid out in Chromium) and the
// CSV export rendered by their route modules over the same database.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startAlertServer, type AlertServer } from "../support/alert-server.ts";
import type { TestServer } from "../support/server.ts";
import { adminRequest, API_KEY, API_SECRET, FakeAdminApi, queuedWebhooksDone, shopifyTestApp } from "../support/shopify.ts";
import { launchBrowser, seriousA11yViolations } from "../support/browser.ts";
import { emailsSettled, type MailSink } from "../support/smtp.ts";
import { until } from "../support/wait.ts";

const current = vi.hoisted(() => ({ data: undefined as unknown }));
vi.mock("@remix-run/react", async (original) => (await import("../support/remix-stand-in.ts")).remixStandIn(original, current));

let alert: AlertServer;
let smtp: MailSink;
let server: TestServer;
let api: FakeAdminApi;
let db: typeof import("~/db.server").db;
let home: typeof import("~/routes/app._index");
let revenuePage: typeof import("~/routes/app.revenue");
let exportRoute: typeof import("~/routes/app.revenue.export");
let refs: typeof import("~/domains/lists/wish-ref.server");

beforeAll(async () => {
  // The same keys as the admin's route modules in this worker (shopifyTestApp).
  alert = await startAlertServer({ apiKey: API_KEY, secret: API_SECRET });
  ({ server, mail: smtp } = alert);
  // The admin's route modules in this worker, on the server's database, with the same app secret.
  ({ api } = await shopifyTestApp(server.databaseUrl));
  ({ db } = await import("~/db.server"));
  home = await import("~/routes/app._index");
  revenuePage = await import("~/routes/app.revenue");
  exportRoute = await import("~/routes/app.revenue.export");
  refs = await import("~/domains/lists/wish-ref.server");
}, 60_000);

afterAll(() => alert?.stop());

const args = (request: Request) => ({ request, params: {}, context: {} });
const unique = () => Math.random().toString(36).slice(2, 10);
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** A webhook as Shopify sends it to the built server: raw JSON body, its HMAC-SHA256 (base64) with the app secret, the X-Shopify-* headers. */
async function deliver(topic: string, shop: string, payload: unknown, webhookId = `wh-${unique()}`, address = topic) {
  const body = JSON.stringify(payload);
  const res = await fetch(`${server.url}/webhooks/${address}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-hmac-sha256": getHmac(body, API_SECRET),
      "x-shopify-shop-domain": shop,
      "x-shopify-webhook-id": webhookId,
      "x-shopify-api-version": "2026-01",
      "x-shopify-event-id": webhookId,
      "x-shopify-triggered-at": new Date().toISOString(),
    },
    body,
  });
  expect(res.status).toBe(200);
  // Order topics are processed after the answer (docs/shopify.md): the assertions read their effects.
  await queuedWebhooksDone(server.databaseUrl);
  return (await res.json()) as { ok: boolean; duplicate?: boolean };
}

const outboxSettled = () => emailsSettled(server.databaseUrl);

const product = (id: number, handle: string, qty: number) => ({
  id,
  title: "Oak Lamp",
  handle,
  status: "active",
  updated_at: new Date().toISOString(),
  variants: [{ id: id * 10, price: "40.00", inventory_item_id: id * 10 + 1, inventory_management: "shopify", inventory_policy: "deny", inventory_quantity: qty }],
});

/** A shopper who confirmed alerts (the opt-in itself is tests/alerts') and saved the product's variant. */
async function shopper(productId: number, variantId: string, lang: "de" | "en") {
  const email = `${unique()}@shopper.test`;
  const user = await db.user.create({ data: { id: `u_${unique()}`, email, isAnonymous: false } });
  await db.alertConsent.create({ data: { userId: user.id, email, lang, confirmedAt: new Date() } });
  const list = await db.wishlist.create({ data: { shareToken: `t_${unique()}${unique()}`, ownerId: user.id, name: "Mine" } });
  const item = await db.listItem.create({ data: { wishlistId: list.id, productId, addedByUserId: user.id, variantId } });
  return { email, userId: user.id, itemId: item.id };
}

async function render(mod: { default: () => ReactNode; loader: (a: ReturnType<typeof args>) => Promise<unknown> }, shop: string, at: string) {
  const loaded = await mod.loader(args(await adminRequest(shop, at)));
  current.data = loaded instanceof Response ? await loaded.json() : loaded;
  const { AppProvider } = await import("@shopify/polaris");
  const en = (await import("@shopify/polaris/locales/en.json")).default;
  return { data: current.data as any, html: renderToString(createElement(AppProvider, { i18n: en }, createElement(mod.default))).replace(/<!-- -->/g, "") };
}

async function csv(shop: string, query: string) {
  const res = await exportRoute.loader(args(await adminRequest(shop, `/app/revenue/export${query}`)));
  return { status: res.status, text: await res.text(), disposition: res.headers.get("content-disposition") };
}

describe("alert clicks and refunds", () => {
  it("counts one click per alert e-mail, redirects only to the alert's product with its wish_ref, and the revenue page and CSV show sent, clicked and bought net of a refund applied once", async () => {
    // An installed shop (the first admin load provisions it, on Free: back-in-stock alerts).
    const fake = api.addShop(`clicks-${unique()}.myshopify.com`);
    await home.loader(args(await adminRequest(fake.domain, "/app")));
    const shop = await db.platformShop.update({ where: { domain: fake.domain }, data: { primaryDomain: fake.primaryHost, currency: "USD" } });

    // The product, out of stock; two shoppers saved its variant.
    const productId = 9_100_000 + Math.floor(Math.random() * 100_000);
    const handle = `oak-${unique()}`;
    await deliver("products/create", fake.domain, product(productId, handle, 0));
    const entry = await db.product.findUniqueOrThrow({ where: { canonicalUrl: `https://${fake.primaryHost}/products/${handle}` } });
    const variant = String(productId * 10);
    const clicker = await shopper(entry.id, variant, "en");
    const idle = await shopper(entry.id, variant, "de");

    // Back in stock: one e-mail each.
    await deliver("products/update", fake.domain, product(productId, handle, 5));
    await outboxSettled();
    const mail = (await until("alert e-mail", () => smtp.to(clicker.email)[0]))!;
    expect(smtp.to(idle.email)).toHaveLength(1);

    // The Buy-now link is our click-through, not the shop's page.
    const link = /Buy now: (\S+)/.exec(mail.text)![1]!;
    expect(link).toMatch(new RegExp(`^${server.url}/alerts/buy\\?token=[A-Za-z0-9_-]{22}&lang=en$`));
    expect(mail.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`);
    expect(mail.html + mail.text).not.toContain("wish_ref");

    const alertOf = (userId: string) => db.alertSent.findFirstOrThrow({ where: { userId }, select: { id: true, kind: true, clickedAt: true } });
    const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: "manual", ...init, headers: { "user-agent": BROWSER, ...(init.headers ?? {}) } });

    // A HEAD (a link check) and a mail gateway that names itself redirect without counting.
    const head = await get(link, { method: "HEAD" });
    expect(head.status).toBe(302);
    const scanned = await get(link, { headers: { "user-agent": "Mozilla/5.0 (compatible; Barracuda Sentinel link scanner)" } });
    expect(scanned.status).toBe(302);
    expect((await alertOf(clicker.userId)).clickedAt).toBeNull();

    // The shopper clicks three times: the same product page with the variant and the alert's signed reference, one click counted.
    const locations: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(link);
      expect(res.status).toBe(302);
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      locations.push(res.headers.get("location")!);
      if (i === 0) expect((await alertOf(clicker.userId)).clickedAt).not.toBeNull();
    }
    expect(new Set(locations).size).toBe(1);
    const target = new URL(locations[0]!);
    expect(`${target.origin}${target.pathname}`).toBe(`https://${fake.primaryHost}/products/${handle}`);
    expect(target.searchParams.get("variant")).toBe(variant);
    const ref = target.searchParams.get("wish_ref")!;
    expect(await refs.readWishRef(ref)).toEqual({ itemId: clicker.itemId, source: "alert_back_in_stock" });
    const first = (await alertOf(clicker.userId)).clickedAt!;
    expect((await alertOf(clicker.userId)).clickedAt).toEqual(first); // the later clicks changed nothing
    expect(await db.alertSent.count({ where: { shopId: shop.id } })).toBe(2);
    expect(await db.alertSent.count({ where: { shopId: shop.id, clickedAt: { not: null } } })).toBe(1);

    // A forged or altered token leads nowhere, whatever else the address says; the page speaks the link's language.
    const evil = "https://evil.example/phish";
    for (const forged of [
      `${server.url}/alerts/buy?token=${"A".repeat(22)}&lang=en`,
      `${server.url}/alerts/buy?token=${"A".repeat(22)}&lang=en&url=${encodeURIComponent(evil)}&next=${encodeURIComponent(evil)}`,
      `${server.url}/alerts/buy?token=${encodeURIComponent(evil)}`,
      `${server.url}/alerts/buy`,
    ]) {
      const res = await get(forged);
      expect(res.status).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      const body = await res.text();
      expect(body).toContain("This link is invalid or no longer valid.");
      expect(body).not.toContain("evil.example/phish\"");
    }
    const german = await get(`${server.url}/alerts/buy?token=${"B".repeat(22)}&lang=de`);
    expect(german.status).toBe(404);
    expect(await german.text()).toContain("Dieser Link ist ungültig oder nicht mehr gültig.");

    // The shopper buys two lamps through the link (the reference on the order's landing URL) and a gift card.
    const orderId = 8_900_000_000 + Math.floor(Math.random() * 1_000_000);
    const line = (id: number, product: number, title: string, price: string, quantity: number) => ({
      id,
      product_id: product,
      title,
      quantity,
      price,
      price_set: { shop_money: { amount: price, currency_code: "USD" }, presentment_money: { amount: price, currency_code: "USD" } },
      discount_allocations: [],
      properties: [],
    });
    await deliver("orders/create", fake.domain, {
      id: orderId,
      created_at: new Date().toISOString(),
      currency: "USD",
      customer: null,
      landing_site: `${target.pathname}${target.search}`,
      note_attributes: [],
      line_items: [line(1, productId, "Oak Lamp", "40.00", 2), line(2, 999, "Gift card", "25.00", 1)],
    });
    await until("order attributed", () => db.attributedOrder.findFirst({ where: { shopId: shop.id, orderId: String(orderId) } }));

    // One lamp is refunded (40.00 in shop money; the buyer paid in another currency), and the gift card; Shopify retries.
    const refund = {
      id: 7_700_000_000 + Math.floor(Math.random() * 1_000_000),
      order_id: orderId,
      created_at: new Date().toISOString(),
      refund_line_items: [
        { id: 1, line_item_id: 1, quantity: 1, subtotal: 40, subtotal_set: { shop_money: { amount: "40.00", currency_code: "USD" }, presentment_money: { amount: "37.00", currency_code: "EUR" } } },
        { id: 2, line_item_id: 2, quantity: 1, subtotal: 25, subtotal_set: { shop_money: { amount: "25.00", currency_code: "USD" }, presentment_money: { amount: "23.00", currency_code: "EUR" } } },
      ],
      transactions: [],
      order_adjustments: [],
    };
    const deliveryId = `wh-refund-${unique()}`;
    expect(await deliver("refunds/create", fake.domain, refund, deliveryId)).toEqual({ ok: true });
    expect(await deliver("refunds/create", fake.domain, refund, deliveryId)).toMatchObject({ duplicate: true });
    // The same refund resent under a new delivery id, with a body that differs: the refund id stops it.
    expect(await deliver("refunds/create", fake.domain, { ...refund, note: "resent" })).toEqual({ ok: true });
    // A refund of an order that is not the wishlist's changes nothing.
    expect(await deliver("refunds/create", fake.domain, { ...refund, id: refund.id + 1, order_id: orderId + 1 })).toEqual({ ok: true });
    // Odd field types read as missing (nothing subtracted, 200); another topic at this address is refused.
    expect(await deliver("refunds/create", fake.domain, { id: { x: 1 }, order_id: orderId, refund_line_items: "all" })).toEqual({ ok: true });
    expect(await deliver("refunds/create", fake.domain, { id: refund.id + 2, order_id: String(orderId), refund_line_items: [{ line_item_id: [1], subtotal: "lots" }, null, 7] })).toEqual({ ok: true });
    const misrouted = await fetch(`${server.url}/webhooks/refunds/create`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-topic": "orders/create", "x-shopify-hmac-sha256": getHmac("{}", API_SECRET), "x-shopify-shop-domain": fake.domain, "x-shopify-webhook-id": `wh-${unique()}`, "x-shopify-api-version": "2026-01" },
      body: "{}",
    });
    expect(misrouted.status).toBe(400);
    expect(await misrouted.json()).toMatchObject({ error: "invalid_topic" });
    const attributed = await db.attributedOrder.findFirstOrThrow({ where: { shopId: shop.id, orderId: String(orderId) }, include: { lines: true, refunds: true } });
    expect({ revenue: attributed.revenueMinor, refunded: attributed.refundedMinor }).toEqual({ revenue: 4000, refunded: 4000 });
    expect(attributed.lines.map((l) => [l.lineId, l.source, l.quantity, l.revenueMinor, l.refundedMinor])).toEqual([["1", "alert_back_in_stock", 2, 4000, 4000]]);
    expect(attributed.refunds.map((r) => [r.refundId, r.refundedMinor])).toEqual([[String(refund.id), 4000]]);

    // The revenue page: net revenue, and for the alert kind 2 sent, 1 clicked (50%), 1 order (50% of sent).
    const page = await render(revenuePage, fake.domain, "/app/revenue");
    expect(page.data.report.revenue).toEqual([{ currency: "USD", revenueMinor: 4000 }]);
    expect(page.data.report.refunded).toEqual([{ currency: "USD", refundedMinor: 4000 }]);
    expect(page.data.report.sources.map((x: any) => [x.source, x.alertsSent, x.alertsClicked, x.clickRate, x.orders, x.boughtRate, x.units, x.revenueMinor])).toEqual([
      ["alert_back_in_stock", 2, 1, 0.5, 1, 0.5, 2, 4000],
    ]);
    for (const text of ["Alert e-mails", "Alerts sent", "Clicked", "Back in stock", "Alert: back in stock", "1 (50.0%)", "$40.00", "Net of $40.00 refunded", "Export sources CSV"]) expect(page.html).toContain(text);
    // The home card says the same.
    expect((await render(home, fake.domain, "/app")).html).toContain("Net of $40.00 refunded");

    // The CSV: the line net of the refund, and the by-source table with sent, clicked and the conversions.
    const today = new Date().toISOString().slice(0, 10);
    const lines = await csv(fake.domain, "");
    expect(lines.text.split("\r\n")).toEqual([
      "day,order_id,line_id,product_id,title,quantity,revenue,refunded,currency,source",
      `${today},${orderId},1,${productId},Oak Lamp,2,40.00,40.00,USD,alert_back_in_stock`,
      "",
    ]);
    const sources = await csv(fake.domain, `?from=${today}&to=${today}&table=sources`);
    expect(sources.status).toBe(200);
    expect(sources.disposition).toBe(`attachment; filename="wishlist-revenue-sources-${today}-${today}.csv"`);
    expect(sources.text.split("\r\n")).toEqual([
      "source,currency,alerts_sent,clicked,click_rate,orders,bought_rate,items,revenue",
      "alert_back_in_stock,USD,2,1,0.5000,1,0.5000,2,40.00",
      "",
    ]);
    expect((await csv(fake.domain, "?table=everything")).status).toBe(400);

    // The revenue page with alert rows, laid out in Chromium at 375 and 1280 px: no overflow, axe-clean.
    const css = readFileSync(path.resolve("node_modules/@shopify/polaris/build/esm/styles.css"), "utf8");
    const shots = path.resolve("tests/screenshots");
    mkdirSync(shots, { recursive: true });
    const { html } = await render(revenuePage, fake.domain, "/app/revenue");
    const browser = await launchBrowser();
    try {
      for (const width of [375, 1280]) {
        const view = await browser.newPage({ viewport: { width, height: 900 } });
        await view.setContent(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Wishlist</title><style>${css}</style></head><body>${html}</body></html>`,
        );
        expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await seriousA11yViolations(view)).toEqual([]);
        await view.screenshot({ path: path.join(shots, `admin-revenue-alerts-${width}.png`), fullPage: true });
        await view.close();
      }
    } finally {
      await browser.close();
    }

    // The click is the shopper's data: the data request lists it, and unsubscribing deletes it with the alert.
    await db.shopCustomer.create({ data: { shopId: shop.id, customerId: "5150", userId: clicker.userId } });
    await deliver("customers/data_request", fake.domain, { shop_domain: fake.domain, customer: { id: 5150 }, data_request: { id: 1 } }, undefined, "compliance");
    const request = await db.complianceRequest.findFirstOrThrow({ where: { shopDomain: fake.domain, topic: "customers/data_request" } });
    expect((request.data as any).shop_customer.alerts.alerts_sent).toEqual([
      { kind: "back_in_stock", title: "Oak Lamp", price_minor: 4000, currency: "USD", sent_at: expect.any(String), clicked_at: first.toISOString() },
    ]);
    const { unsubscribeAlerts } = await import("~/domains/alerts/consent.server");
    const token = new URL(/Unsubscribe: (\S+)/.exec(mail.text)![1]!).searchParams.get("token")!;
    expect(await unsubscribeAlerts(token)).toBe("unsubscribed");
    expect(await db.alertSent.count({ where: { userId: clicker.userId } })).toBe(0);
    // Its link now names no alert.
    expect((await get(link)).status).toBe(404);

  }, 120_000);
});
