// Wishlist revenue (docs/revenue.md): orders/create deliveries signed as
// Shopify signs them, with and without signed item references, inside and
// outside the attribution window, delivered twice; the figures the admin home,
// the revenue page (rendered in Polaris) and the CSV export show for them; the
// compliance webhooks over the attributed orders.
import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { adminRequest, APP_URL, FakeAdminApi, shopifyTestApp, webhookRequest } from "../support/shopify.ts";
import { launchBrowser, seriousA11yViolations } from "../support/browser.ts";
import { until } from "../support/wait.ts";

const current = vi.hoisted(() => ({ data: undefined as unknown }));
vi.mock("@remix-run/react", async (original) => (await import("../support/remix-stand-in.ts")).remixStandIn(original, current));


let api: FakeAdminApi;
let db: typeof import("~/db.server").db;
let orders: typeof import("~/routes/webhooks.orders.create");
let products: typeof import("~/routes/webhooks.products.create");
let compliance: typeof import("~/routes/webhooks.compliance");
let home: typeof import("~/routes/app._index");
let revenuePage: typeof import("~/routes/app.revenue");
let exportRoute: typeof import("~/routes/app.revenue.export");
let alertsPage: typeof import("~/routes/app.alerts");
let refs: typeof import("~/domains/lists/wish-ref.server");
let worker: typeof import("~/domains/outbox/worker.server");

beforeAll(async () => {
  ({ api } = await shopifyTestApp());
  ({ db } = await import("~/db.server"));
  orders = await import("~/routes/webhooks.orders.create");
  products = await import("~/routes/webhooks.products.create");
  compliance = await import("~/routes/webhooks.compliance");
  home = await import("~/routes/app._index");
  revenuePage = await import("~/routes/app.revenue");
  exportRoute = await import("~/routes/app.revenue.export");
  alertsPage = await import("~/routes/app.alerts");
  refs = await import("~/domains/lists/wish-ref.server");
  // The outbox jobs the server registers, the queued webhooks' among them (run below by drainQueued).
  await import("~/background.server");
  worker = await import("~/domains/outbox/worker.server");
});

const args = (request: Request) => ({ request, params: {}, context: {} });
const DAY = 86_400_000;
const unique = () => Math.random().toString(36).slice(2, 9);

/** Runs the outbox here (no server runs it) until the queued webhooks' work is done: products and orders are processed after the answer. */
async function drainQueued() {
  await until(
    "queued webhooks processed",
    async () => {
      await worker.runOutboxOnce();
      return db.outboxMessage.count({ where: { kind: "platform-webhook", status: "pending" } });
    },
    (pending) => pending === 0,
  );
}

/** Delivers a webhook to its route as Shopify would (HMAC of the raw body with the app secret). */
async function deliver(route: { action: (a: ReturnType<typeof args>) => Promise<Response> }, topic: string, shop: string, payload: unknown, webhookId?: string) {
  const res = await route.action(args(webhookRequest(topic, shop, payload, webhookId ? { webhookId } : {})));
  if (res.status === 200) await drainQueued();
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** An installed shop (first admin load provisions it) with a shopper linked to customer `customerId`. */
async function installedShop(customerId: string, currency = "USD") {
  const fake = api.addShop(`rev-${unique()}.myshopify.com`);
  await home.loader(args(await adminRequest(fake.domain, "/app")));
  // What shop/update reports: the storefront's primary domain and the shop currency.
  const shop = await db.platformShop.update({ where: { domain: fake.domain }, data: { primaryDomain: fake.primaryHost, currency } });
  const user = await db.user.create({ data: { id: `u_${unique()}`, isAnonymous: true } });
  const list = await db.wishlist.create({ data: { shareToken: `t_${unique()}${unique()}`, ownerId: user.id, name: "Mine" } });
  await db.shopCustomer.create({ data: { shopId: shop.id, customerId, userId: user.id } });
  return { domain: fake.domain, host: fake.primaryHost, shop, user, list };
}

type Shop = Awaited<ReturnType<typeof installedShop>>;

/** The shop's product (products/create, which gives the catalogue its Shopify id), saved by the shop's shopper `daysAgo` days ago. */
async function saved(s: Shop, productId: number, handle: string, title: string, daysAgo = 0) {
  expect((await deliver(products, "products/create", s.domain, { id: productId, handle, title, status: "active", variants: [{ id: productId * 10, price: "1.00" }] })).status).toBe(200);
  const product = await db.product.findUniqueOrThrow({ where: { canonicalUrl: `https://${s.host}/products/${handle}` } });
  expect(product.rawProductId).toBe(String(productId));
  const item = await db.listItem.create({
    data: { wishlistId: s.list.id, productId: product.id, addedByUserId: s.user.id, sourceShopId: s.shop.id, addedAt: new Date(Date.now() - daysAgo * DAY) },
  });
  return item.id;
}

/** A line as orders/create carries it: shop and presentment money, a discount allocation, properties. */
function line(id: number, productId: number, title: string, price: string, quantity: number, opts: { discount?: string; ref?: string; currency?: string } = {}) {
  const currency = opts.currency ?? "USD";
  return {
    id,
    product_id: productId,
    title,
    quantity,
    price,
    price_set: { shop_money: { amount: price, currency_code: currency }, presentment_money: { amount: (Number(price) * 0.9).toFixed(2), currency_code: "EUR" } },
    discount_allocations: opts.discount
      ? [{ amount: opts.discount, amount_set: { shop_money: { amount: opts.discount, currency_code: currency }, presentment_money: { amount: "0.01", currency_code: "EUR" } } }]
      : [],
    properties: opts.ref ? [{ name: "_wish_ref", value: opts.ref }] : [],
  };
}

let nextOrder = 8_800_000_000;
function order(customerId: string | null, lines: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: nextOrder++,
    created_at: new Date().toISOString(),
    currency: "USD",
    presentment_currency: "EUR",
    customer: customerId ? { id: Number(customerId) } : null,
    landing_site: "/",
    note_attributes: [],
    line_items: lines,
    ...extra,
  };
}

/** A reference signed before references carried their source (the item id alone). */
async function unsourcedRef(itemId: number) {
  const { getWishRefKey } = await import("~/domains/secrets/secrets.server");
  return `${itemId}.${createHmac("sha256", await getWishRefKey()).update(`wish-ref:${itemId}`).digest().subarray(0, 16).toString("base64url")}`;
}

async function render(mod: { default: () => ReactNode; loader: (a: ReturnType<typeof args>) => Promise<unknown> }, shop: string, path: string) {
  const loaded = await mod.loader(args(await adminRequest(shop, path)));
  current.data = loaded instanceof Response ? await loaded.json() : loaded;
  const { AppProvider } = await import("@shopify/polaris");
  const en = (await import("@shopify/polaris/locales/en.json")).default;
  return { data: current.data as any, html: renderToString(createElement(AppProvider, { i18n: en }, createElement(mod.default))).replace(/<!-- -->/g, "") };
}

async function csv(shop: string, query = "") {
  const res = await exportRoute.loader(args(await adminRequest(shop, `/app/revenue/export${query}`)));
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text(), headers: res.headers };
}

describe("wishlist revenue", () => {
  it.each([
    { currency: "JPY", price: "1500", discount: "100", revenue: "2900", none: "0", shown: "¥2,900" },
    { currency: "KWD", price: "12.345", discount: "0.690", revenue: "24.000", none: "0.000", shown: "KWD\u00a024.000" },
  ])("keeps $currency amounts in its own minor unit: the CSV's decimals and the revenue page", async (t) => {
    const s = await installedShop("7101", t.currency);
    const productId = 300 + Math.floor(Math.random() * 1000);
    const bowl = await saved(s, productId, `bowl-${unique()}`, "Tea bowl");
    const ref = await (await refs.wishRefSigner("drawer"))(bowl);
    // 2 × price − discount, in the shop currency's own decimals.
    const o = order(null, [line(1, productId, "Tea bowl", t.price, 2, { discount: t.discount, ref, currency: t.currency })], { currency: t.currency, presentment_currency: t.currency });
    expect((await deliver(orders, "orders/create", s.domain, o)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect((await csv(s.domain)).text.split("\r\n")).toEqual([
      "day,order_id,line_id,product_id,title,quantity,revenue,refunded,currency,source",
      `${today},${o.id},1,${productId},Tea bowl,2,${t.revenue},${t.none},${t.currency},drawer`,
      "",
    ]);
    expect((await render(revenuePage, s.domain, "/app/revenue")).html).toContain(t.shown);
  });

  it("attributes referenced and saved products, once per order, and the admin home, the revenue page and the CSV show the same figures", async () => {
    const s = await installedShop("7001");
    const vase = await saved(s, 101, "vase", 'Vase "Deluxe", blue');
    const bowl = await saved(s, 102, "bowl", "Bowl");
    const lamp = await saved(s, 103, "lamp", "=Lamp", 10);
    const old = await saved(s, 104, "chair", "Chair", 40);
    const alerted = await saved(s, 105, "rug", "Rug");
    await saved(s, 106, "mirror", "Mirror"); // saved, never bought

    const sign = async (source: import("~/domains/lists/wish-ref.server").WishRefSource, item: number) => (await refs.wishRefSigner(source))(item);
    // Every reference keeps the one shape the SDK and carts know, and names its source.
    const drawerRef = await sign("drawer", vase);
    expect(drawerRef).toMatch(new RegExp(`^${vase}\\.[\\w-]{22}$`));
    expect(await refs.readWishRef(drawerRef)).toEqual({ itemId: vase, source: "drawer" });
    expect(await refs.readWishRef(await unsourcedRef(vase))).toEqual({ itemId: vase, source: null });
    expect(await refs.readWishRef(drawerRef.replace(/^\d+/, String(bowl)))).toBeNull();

    // A: the drawer's line property; 2 × 24.90 − 5.00 = 44.80 in the shop currency (USD), whatever the buyer paid in EUR. The other line is not the wishlist's.
    const a = order(null, [line(1, 101, 'Vase "Deluxe", blue', "24.90", 2, { discount: "5.00", ref: drawerRef }), line(2, 999, "Gift card", "50.00", 1)]);
    expect((await deliver(orders, "orders/create", s.domain, a, `wh-a-${unique()}`)).status).toBe(200);
    // Shopify retries: the same delivery id, and the same order under a new id, still count once.
    const retryId = `wh-retry-${unique()}`;
    expect((await deliver(orders, "orders/create", s.domain, { ...a, note: "resent" }, retryId)).status).toBe(200);
    expect((await deliver(orders, "orders/create", s.domain, { ...a, note: "resent" }, retryId)).body).toMatchObject({ duplicate: true });
    // B: a share page's link, signed before references carried a source: the landing URL says where it came from.
    const b = order(null, [line(1, 102, "Bowl", "10.00", 1)], { landing_site: `/products/bowl?wish_ref=${await unsourcedRef(bowl)}` });
    expect((await deliver(orders, "orders/create", s.domain, b)).status).toBe(200);
    // C: no reference; the linked customer saved the lamp 10 days ago (inside the 30-day window).
    const c = order("7001", [line(1, 103, "=Lamp", "30.00", 1)]);
    expect((await deliver(orders, "orders/create", s.domain, c)).status).toBe(200);
    // D: the chair was saved 40 days ago: outside the window, not attributed.
    const d = order("7001", [line(1, 104, "Chair", "80.00", 1)]);
    expect((await deliver(orders, "orders/create", s.domain, d)).status).toBe(200);
    // E: a price-drop alert's signed link (what the alert e-mails will carry).
    const e = order(null, [line(1, 105, "Rug", "15.00", 3, { ref: await sign("alert_price_drop", alerted) })]);
    expect((await deliver(orders, "orders/create", s.domain, e)).status).toBe(200);
    // F: another customer, no reference; and G: a forged reference. Neither counts.
    expect((await deliver(orders, "orders/create", s.domain, order("7999", [line(1, 103, "=Lamp", "30.00", 1)]))).status).toBe(200);
    const forged = order(null, [line(1, 102, "Bowl", "10.00", 1, { ref: `${bowl}.${"A".repeat(22)}` })]);
    expect((await deliver(orders, "orders/create", s.domain, forged)).status).toBe(200);

    const rows = await db.attributedOrder.findMany({ where: { shopId: s.shop.id }, include: { lines: true }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.orderId, r.currency, r.revenueMinor, r.lines.map((l) => [l.lineId, l.source, l.quantity, l.revenueMinor, l.listItemId])])).toEqual([
      [String(a.id), "USD", 4480, [["1", "drawer", 2, 4480, vase]]],
      [String(b.id), "USD", 1000, [["1", "share_page", 1, 1000, bowl]]],
      [String(c.id), "USD", 3000, [["1", "saved", 1, 3000, lamp]]],
      [String(e.id), "USD", 4500, [["1", "alert_price_drop", 3, 4500, alerted]]],
    ]);
    // The buyer's confirmation beside it (lists): the referenced item is purchased.
    expect((await db.listItem.findUniqueOrThrow({ where: { id: vase } })).purchaseConfirmed).toBe(true);

    // The admin home: the last 30 days. 44.80 + 10.00 + 30.00 + 45.00 = 129.80; 4 orders; of the 5 saves of
    // these days (the chair is older) 4 were bought.
    const homePage = await render(home, s.domain, "/app");
    expect(homePage.data.revenue).toMatchObject({ currency: "USD", orders: 4, revenue: [{ currency: "USD", revenueMinor: 12980 }], conversion: { saves: 5, bought: 4 } });
    expect(homePage.data.revenue.daily).toHaveLength(30);
    expect(homePage.data.revenue.daily.at(-1)).toMatchObject({ orders: 4, revenueMinor: 12980 });
    for (const text of ["Wishlist revenue, last 30 days", "$129.80", ">4<", "80.0%", "4 of 5 saves", 'role="img"']) expect(homePage.html).toContain(text);

    // Alert e-mails sent: four price drops in the range (one of them bought, above), one long before, two low-stock alerts that sold nothing.
    const sentAt = (days: number) => new Date(Date.now() - days * 86_400_000);
    for (const [kind, days, n] of [["price_drop", 1, 4], ["price_drop", 60, 1], ["low_stock", 2, 2]] as const) {
      for (let i = 0; i < n; i++) {
        await db.alertSent.create({ data: { dedupKey: `rev-${s.shop.id}-${kind}-${days}-${i}`, shopId: s.shop.id, userId: `u-${i}`, listItemId: 1, kind, title: "Rug", createdAt: sentAt(days) } });
      }
    }

    // The revenue page: the same figures, by source (with the alerts sent and clicked of each alert kind) and by product.
    // One of the price-drop alerts had its link clicked (alert-clicks.test.ts follows real links).
    await db.alertSent.update({ where: { dedupKey: `rev-${s.shop.id}-price_drop-1-0` }, data: { clickedAt: new Date() } });
    const page = await render(revenuePage, s.domain, "/app/revenue");
    expect(page.data.report.sources.map((x: any) => [x.source, x.alertsSent, x.alertsClicked, x.clickRate, x.orders, x.boughtRate, x.units, x.revenueMinor])).toEqual([
      ["alert_price_drop", 4, 1, 0.25, 1, 0.25, 3, 4500],
      ["drawer", null, null, null, 1, null, 2, 4480],
      ["saved", null, null, null, 1, null, 1, 3000],
      ["share_page", null, null, null, 1, null, 1, 1000],
      ["alert_low_stock", 2, 0, 0, 0, 0, 0, 0],
    ]);
    for (const text of ["Alert e-mails", "Alerts sent", "Clicked", "Price drop", "1 (25.0%)", "0 (0.0%)"]) expect(page.html).toContain(text);
    expect(page.data.report.products.map((x: any) => [x.title, x.revenueMinor])).toEqual([
      ["Rug", 4500],
      ['Vase "Deluxe", blue', 4480],
      ["=Lamp", 3000],
      ["Bowl", 1000],
    ]);
    for (const text of ["Wishlist revenue", "$129.80", "Alert: price drop", "Wishlist drawer", "Saved by the buyer", "Share page", "Vase &quot;Deluxe&quot;, blue", "$45.00", "Export CSV"]) {
      expect(page.html).toContain(text);
    }
    expect(page.html).toContain('value="30"'); // the attribution window field

    // The CSV export: one row per attributed line, escaped, amounts as decimals.
    const today = new Date().toISOString().slice(0, 10);
    const exported = await csv(s.domain);
    expect(exported.status).toBe(200);
    expect(exported.type).toBe("text/csv; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename="wishlist-revenue-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(exported.text.split("\r\n")).toEqual([
      "day,order_id,line_id,product_id,title,quantity,revenue,refunded,currency,source",
      `${today},${a.id},1,101,"Vase ""Deluxe"", blue",2,44.80,0.00,USD,drawer`,
      `${today},${b.id},1,102,Bowl,1,10.00,0.00,USD,share_page`,
      `${today},${c.id},1,103,'=Lamp,1,30.00,0.00,USD,saved`,
      `${today},${e.id},1,105,Rug,3,45.00,0.00,USD,alert_price_drop`,
      "",
    ]);
    // The by-source table: alert kinds with sent, clicked and the conversions; other sources leave those empty.
    expect((await csv(s.domain, "?table=sources")).text.split("\r\n")).toEqual([
      "source,currency,alerts_sent,clicked,click_rate,orders,bought_rate,items,revenue",
      "alert_price_drop,USD,4,1,0.2500,1,0.2500,3,45.00",
      "drawer,USD,,,,1,,2,44.80",
      "saved,USD,,,,1,,1,30.00",
      "share_page,USD,,,,1,,1,10.00",
      "alert_low_stock,USD,2,0,0.0000,0,0.0000,0,0.00",
      "",
    ]);
    // A range without these days has only the header; a wrong range is a 400 with the error body.
    expect((await csv(s.domain, "?from=2020-01-01&to=2020-01-31")).text).toBe("day,order_id,line_id,product_id,title,quantity,revenue,refunded,currency,source\r\n");
    const wrong = await csv(s.domain, "?from=2026-02-30&to=2026-03-01");
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.text)).toMatchObject({ error: "invalid_range" });
    expect((await csv(s.domain, `?from=${today}&to=2020-01-01`)).status).toBe(400);
    // Without App Bridge's session token there is no export.
    const anonymous = await exportRoute.loader(args(new Request(`${APP_URL}/app/revenue/export?shop=${s.domain}`))).catch((thrown: unknown) => thrown as Response);
    expect(anonymous.headers.get("content-type") ?? "").not.toContain("text/csv");
    expect(anonymous.status).not.toBe(200);

    // Another shop sees none of it.
    const other = await installedShop("7001");
    expect((await csv(other.domain)).text.split("\r\n")).toHaveLength(2);
    expect((await render(home, other.domain, "/app")).data.revenue).toMatchObject({ orders: 0, revenue: [] });

    // The window is the shop's: 60 days count the chair's next order; a window outside 1–90 is refused.
    const setWindow = async (days: string) => {
      const res = await revenuePage.action(args(await adminRequest(s.domain, "/app/revenue", { method: "POST", form: { days } })));
      return { status: res.status, body: await res.json() };
    };
    expect(await setWindow("0")).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining("1 to 90") } });
    expect(await setWindow("60")).toMatchObject({ status: 200, body: { ok: true, attributionWindowDays: 60 } });
    const d2 = order("7001", [line(1, 104, "Chair", "80.00", 1)]);
    expect((await deliver(orders, "orders/create", s.domain, d2)).status).toBe(200);
    expect(await db.attributedLine.findMany({ where: { listItemId: old }, select: { source: true, revenueMinor: true } })).toEqual([{ source: "saved", revenueMinor: 8000 }]);

    // Compliance: a data request lists the customer's attributed orders; a redaction unlinks them and the figures stay.
    const dataRequest = { shop_id: 1, shop_domain: s.domain, customer: { id: 7001 }, orders_requested: [], data_request: { id: 55 } };
    expect((await deliver(compliance, "customers/data_request", s.domain, dataRequest)).status).toBe(200);
    const recorded = await db.complianceRequest.findFirstOrThrow({ where: { shopDomain: s.domain, topic: "customers/data_request" } });
    const listed = (recorded.data as any).attributed_orders;
    expect(listed.map((o: any) => [o.order_id, o.customer_id, o.revenue_minor, o.lines.map((l: any) => l.source)])).toEqual([
      [String(c.id), "7001", 3000, ["saved"]],
      [String(d2.id), "7001", 8000, ["saved"]],
    ]);
    expect((await deliver(compliance, "customers/redact", s.domain, { shop_domain: s.domain, customer: { id: 7001 }, orders_to_redact: [] })).status).toBe(200);
    expect(await db.attributedOrder.count({ where: { shopId: s.shop.id, customerId: "7001" } })).toBe(0);
    expect(await db.attributedLine.count({ where: { shopId: s.shop.id, listItemId: { in: [lamp, old] } } })).toBe(0);
    expect((await db.complianceRequest.findFirstOrThrow({ where: { shopDomain: s.domain, topic: "customers/redact" } })).data).toMatchObject({ attributed_orders_unlinked: 2 });
    expect((await render(home, s.domain, "/app")).data.revenue.revenue).toEqual([{ currency: "USD", revenueMinor: 12980 + 8000 }]);
    // shop/redact: the shop's attributed orders go.
    expect((await deliver(compliance, "shop/redact", s.domain, { shop_id: 1, shop_domain: s.domain })).status).toBe(200);
    expect(await db.attributedOrder.count({ where: { shopId: s.shop.id } })).toBe(0);
    expect(await db.attributedLine.count({ where: { shopId: s.shop.id } })).toBe(0);
  });

  it("the home card, the revenue page and the alerts page with its e-mail preview lay out in Polaris at 375 and 1280 px without overflow, axe-clean (screenshots in tests/screenshots/)", async () => {
    const s = await installedShop("7100");
    const vase = await saved(s, 201, "vase", "Stoneware vase with a rather long product title, hand glazed");
    await saved(s, 202, "bowl", "Bowl", 3);
    const ref = (await refs.wishRefSigner("drawer"))(vase);
    await deliver(orders, "orders/create", s.domain, order(null, [line(1, 201, "Stoneware vase with a rather long product title, hand glazed", "1249.00", 2, { ref })]));
    await deliver(orders, "orders/create", s.domain, order("7100", [line(1, 202, "Bowl", "19.90", 1)]));
    const css = readFileSync(path.resolve("node_modules/@shopify/polaris/build/esm/styles.css"), "utf8");
    const shots = path.resolve("tests/screenshots");
    mkdirSync(shots, { recursive: true });
    const browser = await launchBrowser();
    try {
      for (const [name, mod, at] of [
        ["admin-home", home, "/app"],
        ["admin-revenue", revenuePage, "/app/revenue"],
        ["admin-alerts", alertsPage, "/app/alerts?preview=price_drop&lang=de"],
        ["admin-alerts-reminder", alertsPage, "/app/alerts?preview=reminder&lang=en"],
      ] as const) {
        const { html } = await render(mod as never, s.domain, at);
        const expected: Record<string, string> = { "admin-alerts": "Preissenkung: Bowl jetzt", "admin-alerts-reminder": "Still on your list: 2 saved items" };
        expect(html).toContain(expected[name] ?? "$2,517.90");
        for (const width of [375, 1280]) {
          const page = await browser.newPage({ viewport: { width, height: 900 } });
          await page.setContent(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Wishlist</title><style>${css}</style></head><body>${html}</body></html>`,
          );
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          expect(await seriousA11yViolations(page)).toEqual([]);
          await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
          // A full-page shot leaves the sandboxed preview frame blank: the e-mail gets its own.
          if (name.startsWith("admin-alerts")) await page.locator("iframe").screenshot({ path: path.join(shots, `${name}-email-${width}.png`) });
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});
