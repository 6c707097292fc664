// Alerts on saved products (docs/alerts.md), end to end: the built server
// with Shopify on and SMTP_URL pointed at a real SMTP server in this process
// (smtp-server), webhooks signed as Shopify signs them, shoppers who opt in
// on "My lists" and confirm by the e-mailed link, and the e-mails as the SMTP
// server received them. One server: ALERTS_PER_DAY=2, fast outbox retries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Api } from "../support/api.ts";
import { startAlertServer, type AlertServer } from "../support/alert-server.ts";
import { provisioner, daysAgo } from "../support/provision.ts";
import type { TestServer } from "../support/server.ts";
import { signedInShopper } from "../support/shoppers.ts";
import type { MailSink } from "../support/smtp.ts";
import { until } from "../support/wait.ts";

const FLAKY = "flaky@shopper.test";

let flakyRejected = 0;
let alert: AlertServer;
let smtp: MailSink;
let server: TestServer;
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
let prisma: typeof import("~/db.server").db;

const mailsTo = (to: string) => smtp.to(to);

// ---------------------------------------------------------------- setup

beforeAll(async () => {
  // The flaky mailbox refuses its first delivery (a temporary failure), then takes the retry.
  alert = await startAlertServer({
    env: { ALERTS_PER_DAY: "2" },
    mail: { refuse: (address) => address === FLAKY && flakyRejected === 0 && ++flakyRejected === 1 },
  });
  ({ server, api, mail: smtp } = alert);
  p = await provisioner(server);
  ({ db: prisma } = await import("~/db.server"));
});

afterAll(() => alert?.stop());

const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => alert.db<T>(text, params);
const suffix = () => Math.random().toString(36).slice(2, 10);

const outboxSettled = () => alert.emailsSettled();

/** A webhook as Shopify sends it, to the topic's address or `path`, processed. */
const deliver = (path: string, shop: string, payload: unknown, topic = path) => alert.deliver(path, shop, payload, topic);

async function installedShop(plan: string, currency = "EUR") {
  const partner = await p.partner(plan);
  const domain = `store-${suffix()}.myshopify.com`;
  const primary = `www.brand-${suffix()}.example`;
  const shop = await p.shop(partner.id, { domain });
  await prisma.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: primary, currency, name: "Brand Store" } });
  await p.key(partner.id, { env: "live", domains: [domain, primary] });
  return { shop, domain, primary };
}

interface Variant {
  id: number;
  price: string;
  qty: number;
}

const productPayload = (id: number, handle: string, variants: Variant[], updatedAt = new Date().toISOString()) => ({
  id,
  title: "Oak Lamp",
  handle,
  status: "active",
  updated_at: updatedAt,
  image: { src: "https://cdn.shopify.invalid/s/files/oak-lamp.png" },
  variants: variants.map((v) => ({
    id: v.id,
    price: v.price,
    inventory_item_id: v.id + 900_000,
    inventory_management: "shopify",
    inventory_policy: "deny",
    inventory_quantity: v.qty,
  })),
});

/** A shopper with an account, signed in to "My lists" (the cookie), who saved `url` (variant) to a list. */
async function shopper(email: string, url: string, variantId: number | null, market = { marketCode: "de-DE", currency: "EUR" }) {
  const { userId, token, cookie, list } = await signedInShopper(server, api, email);
  const saved = await api.post("/hosted/save", {
    token,
    body: {
      wishlistId: list.db_id,
      product: { url, title: "Oak Lamp", price: 3000, ...market, ...(variantId ? { metadata: { variant_id: String(variantId) } } : {}) },
    },
  });
  expect(saved.status).toBe(200);
  return { email, userId, token, cookie, itemId: saved.body.item_id as number };
}

/** The "My lists" opt-in form, as the page posts it. */
async function optIn(s: { cookie: string; email: string }, lang: "de" | "en", fields: Record<string, string> = {}) {
  return fetch(`${server.url}/${lang}/lists`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: s.cookie },
    body: new URLSearchParams({ intent: "alerts-on", email: s.email, consent: "yes", ...fields }),
  });
}

/** Opts in and follows the confirmation link of the e-mail (a POST, no session). */
async function optInConfirmed(s: { cookie: string; email: string; userId: string }, lang: "de" | "en") {
  const res = await optIn(s, lang);
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toContain("done=alerts-pending");
  await outboxSettled();
  const mail = await until("confirmation e-mail", () => mailsTo(s.email).find((m) => m.text.includes("/alerts/confirm?")));
  const link = /(https?:\/\/\S+\/alerts\/confirm\?\S+)/.exec(mail!.text)![1]!;
  expect((await db(`SELECT "confirmedAt" FROM "AlertConsent" WHERE "userId" = ?`, [s.userId]))[0]!.confirmedAt).toBeNull();
  // A GET (a link scanner) confirms nothing; the page's button posts.
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(lang === "de" ? "Bestätigen" : "Confirm");
  expect((await db(`SELECT "confirmedAt" FROM "AlertConsent" WHERE "userId" = ?`, [s.userId]))[0]!.confirmedAt).toBeNull();
  const confirmed = await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
  expect(confirmed.status).toBe(200);
  expect(await confirmed.text()).toContain(lang === "de" ? "Alarme sind an" : "Alerts are on");
  expect((await db(`SELECT "confirmedAt" FROM "AlertConsent" WHERE "userId" = ?`, [s.userId]))[0]!.confirmedAt).not.toBeNull();
}

const alertMails = (to: string) => mailsTo(to).filter((m) => !m.text.includes("/alerts/confirm?"));

// ---------------------------------------------------------------- tests

describe("price drop", () => {
  it("one e-mail per opted-in shopper with new price, previous price and 30-day low in the saved market's currency and their language; none without confirmed consent or after a one-click unsubscribe; one per price level; the daily cap", async () => {
    const s = await installedShop("starter");
    const handle = `oak-${suffix()}`;
    const url = `https://${s.primary}/products/${handle}`;
    const productId = 7_100_000_000 + Math.floor(Math.random() * 1_000_000);
    const variants = (price: string): Variant[] => [
      { id: 111, price, qty: 10 },
      { id: 222, price: "99.00", qty: 10 },
    ];

    const anna = await shopper(`anna-${suffix()}@shopper.test`, url, 111); // German, confirmed
    const carl = await shopper(`carl-${suffix()}@shopper.test`, url, 111); // English, confirmed, unsubscribes
    const bea = await shopper(`bea-${suffix()}@shopper.test`, url, 111); // asked, never confirmed
    const dora = await shopper(`dora-${suffix()}@shopper.test`, url, 222); // another variant
    const uma = await shopper(`uma-${suffix()}@shopper.test`, url, 111, { marketCode: "en-US", currency: "USD" }); // saved in a dollar market
    await optInConfirmed(uma, "en");
    await optInConfirmed(anna, "de");
    await optInConfirmed(carl, "en");
    await optInConfirmed(dora, "en");
    expect((await optIn(bea, "en")).status).toBe(303);
    // Confirmation e-mails are capped (5 a day): the form cannot be used to mail someone over and over.
    for (let i = 0; i < 4; i++) expect((await optIn(bea, "en")).status).toBe(303);
    const refused = await optIn(bea, "en");
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("We have sent enough confirmations today.");
    expect(await db(`SELECT id FROM "OutboxMessage" WHERE topic = ?`, [`alert:${bea.userId}`])).toHaveLength(5);

    // The first word about the product records its variants' prices and stock.
    await deliver("products/update", s.domain, productPayload(productId, handle, variants("30.00")));
    const [product] = await db<{ id: number }>(`SELECT id FROM "Product" WHERE "canonicalUrl" = ?`, [url]);
    // Earlier prices: 19.00 long ago, 32.00 standing when the 30-day window opened, 28.00 within it.
    for (const [price, days] of [[1900, 45], [3200, 35], [2800, 20]] as const) {
      await prisma.variantPricePoint.create({ data: { productId: product!.id, variantId: "111", priceMinor: price, currency: "EUR", recordedAt: daysAgo(days) } });
    }
    await outboxSettled();
    expect(smtp.received.filter((m) => [anna, carl, bea, dora].some((x) => x.email === m.to) && !m.text.includes("/alerts/confirm?"))).toEqual([]);

    // The shop uses the Flow trigger "Wishlisted product price dropped" (its lifecycle callback said so).
    await prisma.flowTriggerUse.create({ data: { shopId: s.shop.id, handle: "wishlist-price-dropped", enabled: true, changedAt: new Date() } });
    await deliver("products/update", s.domain, productPayload(productId, handle, variants("25.00")));
    await outboxSettled();
    // One trigger per shopper with the product on a list, with the drop's prices.
    const triggers = await db<{ payload: string }>(`SELECT payload FROM "OutboxMessage" WHERE topic = ?`, [`flow:${s.shop.id}`]);
    const bodies = triggers.map((t) => (typeof t.payload === "string" ? JSON.parse(t.payload) : t.payload));
    expect(bodies).toHaveLength(5);
    for (const b of bodies) {
      expect(b.handle).toBe("wishlist-price-dropped");
      expect(b.body).toEqual({ product_id: productId, "Product title": "Oak Lamp", "Product URL": url, Price: 25, "Previous price": 30, Currency: "EUR" });
    }
    expect(alertMails(bea.email)).toEqual([]);
    expect(alertMails(dora.email)).toEqual([]); // her variant did not change
    expect(alertMails(uma.email)).toEqual([]); // no dollar price is known: nothing rather than euros
    const [de] = alertMails(anna.email);
    expect(alertMails(anna.email)).toHaveLength(1);
    expect(de!.subject).toBe("Preissenkung: Oak Lamp jetzt 25,00 €");
    expect(de!.text).toContain("Oak Lamp kostet jetzt 25,00 € statt 30,00 €.");
    expect(de!.text).toContain("Niedrigster Preis der letzten 30 Tage vor der Senkung: 28,00 €");
    // "Buy now" goes through the app's click-through (docs/alerts.md "Clicks"), which leads to the product page.
    const buy = /Jetzt kaufen: (\S+)/.exec(de!.text)![1]!;
    expect(buy).toMatch(new RegExp(`^${server.url}/alerts/buy\\?token=[A-Za-z0-9_-]{22}&lang=de$`));
    const followed = await fetch(buy, { redirect: "manual" });
    expect(followed.status).toBe(302);
    const buyUrl = new URL(followed.headers.get("location")!);
    expect(`${buyUrl.origin}${buyUrl.pathname}`).toBe(url);
    expect(buyUrl.searchParams.get("variant")).toBe("111");
    expect(buyUrl.searchParams.get("wish_ref")).toMatch(new RegExp(`^${anna.itemId}\\.[A-Za-z0-9_-]{22}$`));
    expect(de!.html).toContain("<s>30,00 €</s>");
    expect(de!.html).toContain("28,00 €");
    expect(de!.html).toMatch(/<img src="[^"]+" alt="Oak Lamp"/);
    expect(de!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const unsubscribeAnna = /^<(https?:\/\/[^>]+\/alerts\/unsubscribe\?[^>]+)>$/.exec(de!.headers["list-unsubscribe"]!)![1]!;
    expect(de!.text).toContain(`Abmelden: ${unsubscribeAnna}`);

    const [en] = alertMails(carl.email);
    expect(alertMails(carl.email)).toHaveLength(1);
    expect(en!.subject).toBe("Price drop: Oak Lamp now €25.00");
    expect(en!.text).toContain("Oak Lamp is now €25.00, down from €30.00.");
    expect(en!.text).toContain("Lowest price in the 30 days before the reduction: €28.00");

    // Carl unsubscribes as a mail client does (RFC 8058): a POST without cookies or session.
    const carlLink = /^<([^>]+)>$/.exec(en!.headers["list-unsubscribe"]!)![1]!;
    const shown = await fetch(carlLink); // the link in the text: a page with a button, no change yet
    expect(shown.status).toBe(200);
    expect(await db(`SELECT "userId" FROM "AlertConsent" WHERE "userId" = ?`, [carl.userId])).toHaveLength(1);
    const oneClick = await fetch(carlLink, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain("You won&#x27;t get alerts any more");
    expect(await db(`SELECT "userId" FROM "AlertConsent" WHERE "userId" = ?`, [carl.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "AlertSent" WHERE "userId" = ?`, [carl.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "OutboxMessage" WHERE topic = ?`, [`alert:${carl.userId}`])).toEqual([]); // the address is gone from the outbox too
    // Again: still unsubscribed. A forged token: 400, nothing changes.
    expect((await fetch(carlLink, { method: "POST", body: "List-Unsubscribe=One-Click" })).status).toBe(200);
    const forged = unsubscribeAnna.replace(/token=([^&.]+)\.[^&]+/, "token=$1.AAAAAAAAAAAAAAAAAAAAAA");
    expect((await fetch(forged, { method: "POST", body: "List-Unsubscribe=One-Click" })).status).toBe(400);
    expect(await db(`SELECT "userId" FROM "AlertConsent" WHERE "userId" = ?`, [anna.userId])).toHaveLength(1);

    // Shopify retries: the same delivery again, and the same price in a new update: nothing new.
    const same = productPayload(productId, handle, variants("25.00"));
    await deliver("products/update", s.domain, same);
    expect(await deliver("products/update", s.domain, same)).toEqual({ ok: true, duplicate: true });
    // Up and down to the same level: one alert per price level.
    await deliver("products/update", s.domain, productPayload(productId, handle, variants("27.00")));
    await deliver("products/update", s.domain, productPayload(productId, handle, variants("25.00")));
    await outboxSettled();
    expect(alertMails(anna.email)).toHaveLength(1);
    expect(alertMails(carl.email)).toHaveLength(1);

    // A new level: the second e-mail of the day; a third level is over the cap (2).
    await deliver("products/update", s.domain, productPayload(productId, handle, variants("22.00")));
    await deliver("products/update", s.domain, productPayload(productId, handle, variants("20.00")));
    await outboxSettled();
    expect(alertMails(anna.email).map((m) => m.subject)).toEqual(["Preissenkung: Oak Lamp jetzt 25,00 €", "Preissenkung: Oak Lamp jetzt 22,00 €"]);
    // The second one's previous price is the last one (25.00 after 27.00).
    expect(alertMails(anna.email)[1]!.text).toContain("statt 25,00 €");
    expect(alertMails(bea.email)).toEqual([]);
    const recorded = await db<{ kind: string; priceMinor: number }>(`SELECT kind, "priceMinor" FROM "AlertSent" WHERE "userId" = ? ORDER BY id`, [anna.userId]);
    expect(recorded.map((r) => Number(r.priceMinor))).toEqual([2500, 2200]);
  });
});

describe("prices in the currency's own minor unit", () => {
  it.each([
    // The e-mails write Intl's no-break spaces as plain ones.
    { currency: "JPY", before: "3000.00", after: "2500", minor: 2500, en: "¥2,500", previous: "¥3,000", de: "2.500 ¥" },
    { currency: "KWD", before: "30.000", after: "25.125", minor: 25125, en: "KWD 25.125", previous: "KWD 30.000", de: "25,125 KWD" },
  ])("a $currency price drop: the e-mails in both languages and the record", async (t) => {
    const s = await installedShop("starter", t.currency);
    const handle = `bowl-${suffix()}`;
    const url = `https://${s.primary}/products/${handle}`;
    const productId = 7_300_000_000 + Math.floor(Math.random() * 1_000_000);
    const market = { marketCode: "de-DE", currency: t.currency };
    const kai = await shopper(`kai-${suffix()}@shopper.test`, url, 444, market);
    const ida = await shopper(`ida-${suffix()}@shopper.test`, url, 444, market);
    await optInConfirmed(kai, "en");
    await optInConfirmed(ida, "de");
    await deliver("products/update", s.domain, productPayload(productId, handle, [{ id: 444, price: t.before, qty: 10 }]));
    await deliver("products/update", s.domain, productPayload(productId, handle, [{ id: 444, price: t.after, qty: 10 }]));
    await outboxSettled();
    expect(alertMails(kai.email).map((m) => m.subject)).toEqual([`Price drop: Oak Lamp now ${t.en}`]);
    expect(alertMails(kai.email)[0]!.text).toContain(`Oak Lamp is now ${t.en}, down from ${t.previous}.`);
    expect(alertMails(ida.email).map((m) => m.subject)).toEqual([`Preissenkung: Oak Lamp jetzt ${t.de}`]);
    const recorded = await db<{ priceMinor: number }>(`SELECT "priceMinor" FROM "AlertSent" WHERE "userId" = ?`, [kai.userId]);
    expect(recorded.map((r) => Number(r.priceMinor))).toEqual([t.minor]);
  });
});

describe("stock", () => {
  it("back in stock and low stock (products/update and inventory_levels/update) once each; Free sends back in stock only; a refused SMTP delivery is retried and sent once", async () => {
    const paid = await installedShop("growth");
    const handle = `kettle-${suffix()}`;
    const url = `https://${paid.primary}/products/${handle}`;
    const productId = 7_200_000_000 + Math.floor(Math.random() * 1_000_000);
    const eve = await shopper(`eve-${suffix()}@shopper.test`, url, 333);
    await optInConfirmed(eve, "en");
    const { updateAlertSettings } = await import("~/domains/alerts/alerts.server");
    await updateAlertSettings(paid.shop.id, { priceDrop: true, backInStock: true, lowStock: true, lowStockThreshold: 5, senderName: "Brand Store", replyTo: "care@brand.example" });

    await deliver("products/update", paid.domain, productPayload(productId, handle, [{ id: 333, price: "40.00", qty: 0 }]));
    await deliver("products/update", paid.domain, productPayload(productId, handle, [{ id: 333, price: "40.00", qty: 12 }]));
    await outboxSettled();
    expect(alertMails(eve.email).map((m) => m.subject)).toEqual(["Back in stock: Oak Lamp"]);
    expect(alertMails(eve.email)[0]!.text).toContain("Now: €40.00");
    expect(alertMails(eve.email)[0]!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // The shop's sender name before the service's address (MAIL_FROM's default), replies to the shop.
    expect(alertMails(eve.email)[0]!.headers.from).toBe("Brand Store <no-reply@localhost>");
    expect(alertMails(eve.email)[0]!.headers["reply-to"]).toBe("care@brand.example");

    // Stock by location: the sum of the locations heard of, 3 (at or below the threshold of 5), then 3 + 1.
    const level = (location: number, available: number) => ({ inventory_item_id: 333 + 900_000, location_id: location, available, updated_at: new Date().toISOString() });
    await deliver("inventory_levels/update", paid.domain, level(1, 3));
    await deliver("inventory_levels/update", paid.domain, level(2, 1));
    await deliver("inventory_levels/update", paid.domain, level(2, 0)); // lower still: the same low-stock episode
    await outboxSettled();
    expect(alertMails(eve.email).map((m) => m.subject)).toEqual(["Back in stock: Oak Lamp", "Only 3 left: Oak Lamp"]);
    // Another shop's webhook naming the same inventory item changes nothing here.
    const other = await installedShop("growth");
    await deliver("inventory_levels/update", other.domain, level(3, 50));
    expect((await db<{ quantity: number }>(`SELECT quantity FROM "VariantState" WHERE "variantId" = '333'`)).map((r) => Number(r.quantity))).toEqual([3]);
    // A level reported before the stored one (delivered out of order, or a retry's original payload) changes nothing.
    await deliver("inventory_levels/update", paid.domain, { ...level(2, 40), updated_at: new Date(Date.now() - 3_600_000).toISOString() });
    expect((await db<{ quantity: number }>(`SELECT quantity FROM "VariantState" WHERE "variantId" = '333'`)).map((r) => Number(r.quantity))).toEqual([3]);

    // Free: a price drop sends nothing, back in stock does; the flaky mailbox refuses the first attempt.
    const free = await installedShop("free");
    const freeHandle = `mug-${suffix()}`;
    const freeUrl = `https://${free.primary}/products/${freeHandle}`;
    const freeId = 7_300_000_000 + Math.floor(Math.random() * 1_000_000);
    const finn = await shopper(FLAKY, freeUrl, null); // saved the product, no variant: the first variant stands for it
    await optInConfirmed(finn, "en"); // (the confirmation went through on the retry)
    expect(flakyRejected).toBe(1);
    const before = alertMails(FLAKY).length;
    flakyRejected = 0; // refuse the next delivery once more
    await deliver("products/update", free.domain, productPayload(freeId, freeHandle, [{ id: 444, price: "10.00", qty: 0 }]));
    await deliver("products/update", free.domain, productPayload(freeId, freeHandle, [{ id: 444, price: "8.00", qty: 0 }]));
    await deliver("products/update", free.domain, productPayload(freeId, freeHandle, [{ id: 444, price: "8.00", qty: 2 }]));
    await outboxSettled();
    expect(flakyRejected).toBe(1);
    expect(alertMails(FLAKY).slice(before).map((m) => m.subject)).toEqual(["Back in stock: Oak Lamp"]);
    const [message] = await db<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM "OutboxMessage" WHERE topic = ? AND "dedupKey" LIKE 'alert:back_in_stock:%'`,
      [`alert:${finn.userId}`],
    );
    expect({ status: message!.status, attempts: Number(message!.attempts) }).toEqual({ status: "sent", attempts: 2 });
  });
});

describe("daily count", () => {
  it("is one atomic statement: of 12 e-mails counted at once for one shopper, exactly the cap's worth get a place; days before yesterday are pruned", async () => {
    const { transaction } = await import("~/db/sql.server");
    const { countAlertDay } = await import("~/domains/alerts/alerts.sql.server");
    const { pruneAlertDays } = await import("~/domains/alerts/alerts.server");
    const user = `u-${suffix()}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => transaction(countAlertDay(user, "2026-01-02", 3))));
    expect(results.filter((r) => r === 1)).toHaveLength(3);
    expect((await db<{ count: number }>(`SELECT count FROM "AlertDay" WHERE "userId" = ?`, [user])).map((r) => Number(r.count))).toEqual([3]);
    await transaction(countAlertDay(user, "c:2026-01-02", 5));
    await transaction(countAlertDay(user, "2026-01-04", 3));
    await transaction(countAlertDay(user, "c:2026-01-03", 5));
    await pruneAlertDays(new Date("2026-01-04T12:00:00Z"));
    expect((await db<{ day: string }>(`SELECT day FROM "AlertDay" WHERE "userId" = ? ORDER BY day`, [user])).map((r) => r.day)).toEqual(["2026-01-04", "c:2026-01-03"]);
  });
});

describe("privacy", () => {
  it("customers/data_request lists the alert address and alerts of the shop's customer; customers/redact removes them; shop/redact the shop's settings and record", async () => {
    const s = await installedShop("starter");
    const handle = `vase-${suffix()}`;
    const url = `https://${s.primary}/products/${handle}`;
    const productId = 7_400_000_000 + Math.floor(Math.random() * 1_000_000);
    const gina = await shopper(`gina-${suffix()}@shopper.test`, url, 555);
    await optInConfirmed(gina, "en");
    await deliver("products/update", s.domain, productPayload(productId, handle, [{ id: 555, price: "50.00", qty: 5 }]));
    await deliver("products/update", s.domain, productPayload(productId, handle, [{ id: 555, price: "45.00", qty: 5 }]));
    await outboxSettled();
    expect(alertMails(gina.email)).toHaveLength(1);
    // Gina is also this shop's customer 4711 (signed in to the store once: the app proxy linked her account).
    await prisma.shopCustomer.create({ data: { shopId: s.shop.id, customerId: "4711", userId: gina.userId } });
    const { updateAlertSettings } = await import("~/domains/alerts/alerts.server");
    await updateAlertSettings(s.shop.id, { priceDrop: true, backInStock: false, lowStock: true, lowStockThreshold: 2 });

    await deliver("compliance", s.domain, { shop_domain: s.domain, customer: { id: 4711 }, data_request: { id: 9 } }, "customers/data_request");
    const [request] = await db<{ data: unknown }>(`SELECT data FROM "ComplianceRequest" WHERE "shopDomain" = ? AND topic = 'customers/data_request'`, [s.domain]);
    const data = typeof request!.data === "string" ? JSON.parse(request!.data) : request!.data;
    expect(data.shop_customer.alerts).toEqual({
      consent: { email: gina.email, lang: "en", requested_at: expect.any(String), confirmed_at: expect.any(String), reminders_since: null },
      alerts_sent: [{ kind: "price_drop", title: "Oak Lamp", price_minor: 4500, currency: "EUR", sent_at: expect.any(String), clicked_at: null }],
      reminders_sent: [],
    });

    await deliver("compliance", s.domain, { shop_domain: s.domain, customer: { id: 4711 }, orders_to_redact: [] }, "customers/redact");
    expect(await db(`SELECT "userId" FROM "AlertConsent" WHERE "userId" = ?`, [gina.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "AlertSent" WHERE "userId" = ?`, [gina.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "OutboxMessage" WHERE topic = ?`, [`alert:${gina.userId}`])).toEqual([]);
    // Without consent no alert goes out.
    await deliver("products/update", s.domain, productPayload(productId, handle, [{ id: 555, price: "40.00", qty: 5 }]));
    await outboxSettled();
    expect(alertMails(gina.email)).toHaveLength(1);
    expect(await db(`SELECT id FROM "AlertSent" WHERE "shopId" = ?`, [s.shop.id])).toEqual([]);

    expect(await db(`SELECT "shopId" FROM "AlertSettings" WHERE "shopId" = ?`, [s.shop.id])).toHaveLength(1);
    await deliver("compliance", s.domain, { shop_domain: s.domain, shop_id: 1 }, "shop/redact");
    expect(await db(`SELECT "shopId" FROM "AlertSettings" WHERE "shopId" = ?`, [s.shop.id])).toEqual([]);

    // A shopper who deletes their account takes the consent and address along.
    const hana = await shopper(`hana-${suffix()}@shopper.test`, url, 555);
    await optInConfirmed(hana, "de");
    expect((await api.delete("/account", { token: hana.token })).status).toBe(200);
    expect(await db(`SELECT "userId" FROM "AlertConsent" WHERE "userId" = ?`, [hana.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "OutboxMessage" WHERE topic = ?`, [`alert:${hana.userId}`])).toEqual([]);
  });
});
