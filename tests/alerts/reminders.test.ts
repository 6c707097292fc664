// Reminder digests (docs/alerts.md, *Reminders*), end to end: the built
// server with SMTP_URL pointed at a real SMTP server in this process and its
// reminder pass every 100 ms (REMINDER_INTERVAL_MS); shoppers opt in on "My
// lists" (alerts and the separate reminder box) and confirm by the e-mailed
// link; a digest is made due by dating the opt-in (or the last digest) back
// in the database; the e-mails as the SMTP server received them; the
// one-click unsubscribe without a session; the pages in Chromium.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Api } from "../support/api.ts";
import { startAlertServer, type AlertServer } from "../support/alert-server.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { daysAgo, provisioner } from "../support/provision.ts";
import { root, type TestServer } from "../support/server.ts";
import { signedInShopper } from "../support/shoppers.ts";
import type { MailSink } from "../support/smtp.ts";
import { until } from "../support/wait.ts";

const screenshots = path.join(root, "tests/screenshots");

let alert: AlertServer;
let mail: MailSink;
let server: TestServer;
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
let prisma: typeof import("~/db.server").db;
let browser: Browser;

beforeAll(async () => {
  alert = await startAlertServer({ env: { REMINDER_INTERVAL_MS: "100" } });
  ({ server, api, mail } = alert);
  p = await provisioner(server);
  ({ db: prisma } = await import("~/db.server"));
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await alert?.stop();
});

const db = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => alert.db<T>(text, params);
const suffix = () => Math.random().toString(36).slice(2, 10);

const outboxSettled = () => alert.emailsSettled();

async function installedShop(plan: string, reminderDays: number) {
  const partner = await p.partner(plan);
  const domain = `store-${suffix()}.myshopify.com`;
  const primary = `www.brand-${suffix()}.example`;
  const shop = await p.shop(partner.id, { domain });
  await prisma.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: primary, currency: "EUR", name: "Brand Store" } });
  const { updateAlertSettings } = await import("~/domains/alerts/alerts.server");
  await updateAlertSettings(shop.id, { priceDrop: true, backInStock: true, lowStock: true, lowStockThreshold: 3, reminderDays, senderName: "Brand Store" });
  // The shop's storefront widget (its theme block): saves through it are the shop's items.
  const key = await p.key(partner.id, { env: "live", domains: [domain, primary] });
  const origin = `https://${primary}`;
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
  expect(init.status, init.text).toBe(200);
  return { shop, domain, primary, partner, widget: { token: init.body.token as string, origin } };
}
type Shop = Awaited<ReturnType<typeof installedShop>>;

/** A shopper with an account, signed in to "My lists" (the cookie), with one list. */
const shopper = (who: string) => signedInShopper(server, api, `${who}-${suffix()}@shopper.test`);

type Shopper = Awaited<ReturnType<typeof shopper>>;

/** Saves a product of the shop through its widget, as the theme block does (with the variant and the market). */
async function save(s: Shopper, shop: Shop, title: string, price: number) {
  const saved = await api.post("/widget/save", {
    token: s.token,
    headers: { "x-widget-token": shop.widget.token, origin: shop.widget.origin },
    body: {
      wishlistId: s.list.db_id,
      siteDomain: shop.primary,
      product: {
        url: `${shop.widget.origin}/products/${title.toLowerCase().replace(/\W+/g, "-")}-${suffix()}`,
        title,
        price,
        currency: "EUR",
        marketCode: "de-DE",
        imageUrl: "https://cdn.shopify.invalid/s/files/item.png",
        metadata: { variant_id: "77" },
      },
    },
  });
  expect(saved.status, saved.text).toBe(200);
  return saved.body.item_id as number;
}

/** The "My lists" forms, as the page posts them. */
const listsForm = (s: Shopper, lang: "de" | "en", fields: Record<string, string>) =>
  fetch(`${server.url}/${lang}/lists`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: s.cookie },
    body: new URLSearchParams(fields),
  });

/** Opts in (with the reminder box ticked or not) and confirms by the e-mailed link. */
async function optIn(s: Shopper, lang: "de" | "en", reminders: boolean) {
  const res = await listsForm(s, lang, { intent: "alerts-on", email: s.email, consent: "yes", ...(reminders ? { reminders: "yes" } : {}) });
  expect(res.status).toBe(303);
  const confirmation = await until("confirmation e-mail", () => mail.to(s.email).find((m) => m.text.includes("/alerts/confirm?")));
  const link = /(https?:\/\/\S+\/alerts\/confirm\?\S+)/.exec(confirmation!.text)![1]!;
  const confirmed = await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
  expect(confirmed.status).toBe(200);
}

/** Dates the shopper's reminder opt-in back: the first digest is due an interval after it. */
const optedInDaysAgo = (s: Shopper, days: number) => prisma.alertConsent.update({ where: { userId: s.userId }, data: { remindersAt: daysAgo(days) } });

const digests = (s: Shopper) => mail.to(s.email).filter((m) => m.headers["list-unsubscribe"]?.includes("scope=reminders"));

describe("reminder digests", () => {
  it("one digest when due, listing the unbought items with price and Buy now link (signed, source reminder), in the shopper's language; none for Off, Free or without the reminder box; never twice, however many passes run at once", async () => {
    const weekly = await installedShop("starter", 7);
    const off = await installedShop("starter", 0);
    const free = await installedShop("free", 7);

    const rita = await shopper("rita");
    const scarf = await save(rita, weekly, "Wool Scarf", 4990);
    const bought = await save(rita, weekly, "Oak Lamp", 12900);
    await save(rita, off, "Off Shop Mug", 1200);
    await save(rita, free, "Free Shop Hat", 1990);
    await optIn(rita, "de", true);
    // Bought: the owner's purchased flag (as the list page sets it) takes the lamp out of the digest.
    expect((await api.put(`/hosted/lists/${rita.list.id}/items/${bought}/purchased`, { token: rita.token, body: { purchased: true } })).status).toBe(200);

    const sam = await shopper("sam"); // alerts, but no reminder box
    await save(sam, weekly, "Wool Scarf", 4990);
    await optIn(sam, "en", false);
    expect((await db(`SELECT "remindersAt" FROM "AlertConsent" WHERE "userId" = ?`, [sam.userId]))[0]!.remindersAt).toBeNull();

    // Six days after the opt-in nothing is due yet: a pass (this process's, against the same database) queues nothing.
    const { sendDueReminders } = await import("~/domains/alerts/reminders.server");
    await optedInDaysAgo(rita, 6);
    expect(await sendDueReminders()).toBe(0);
    expect(await db(`SELECT id FROM "ReminderSent" WHERE "userId" = ?`, [rita.userId])).toEqual([]);
    // Eight days after: due.
    await optedInDaysAgo(rita, 8);
    const [digest] = await until("Rita's digest", () => digests(rita), (d) => d.length === 1);
    expect(digest!.subject).toBe("Noch auf deiner Liste: Wool Scarf");
    expect(digest!.headers.from).toBe("Brand Store <no-reply@localhost>");
    expect(digest!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(digest!.text).toContain("Diese Produkte hast du dir gemerkt und noch nicht gekauft.");
    expect(digest!.text).toContain("Wool Scarf · 49,90 €");
    expect(digest!.text).not.toContain("Oak Lamp");
    expect(digest!.text).not.toContain("Off Shop Mug");
    expect(digest!.text).not.toContain("Free Shop Hat");
    expect(digest!.html).toMatch(/<img src="https?:\/\/[^"]+" alt="Wool Scarf" width="\d+"/);
    expect(digest!.html).toContain("Jetzt kaufen");
    expect(digest!.html).toContain("Erinnerungen abbestellen");
    const buy = /Jetzt kaufen: (\S+)/.exec(digest!.text)![1]!;
    expect(new URL(buy).searchParams.get("variant")).toBe("77");
    const { readWishRef } = await import("~/domains/lists/wish-ref.server");
    expect(await readWishRef(new URL(buy).searchParams.get("wish_ref")!)).toEqual({ itemId: scarf, source: "reminder" });

    // Another instance's pass (this process shares the database, not the lease) queues nothing more.
    expect(await sendDueReminders()).toBe(0);
    // A pass that saw the digest due (cutoff later than the opt-in) but lost the race: the unique key stops it.
    expect(await db(`SELECT "dedupKey", items FROM "ReminderSent" WHERE "userId" = ?`, [rita.userId])).toEqual([
      { dedupKey: expect.stringMatching(new RegExp(`^reminder:${rita.userId}:${weekly.shop.id}:\\d+$`)), items: 1 },
    ]);
    const { transaction } = await import("~/db/sql.server");
    const { recordReminder } = await import("~/domains/alerts/alerts.sql.server");
    const [{ dedupKey }] = await db<{ dedupKey: string }>(`SELECT "dedupKey" FROM "ReminderSent" WHERE "userId" = ?`, [rita.userId]);
    const again = await Promise.all(Array.from({ length: 4 }, () => transaction(recordReminder({ dedupKey, shopId: weekly.shop.id, userId: rita.userId, items: 1 }, new Date()))));
    expect(again).toEqual([0, 0, 0, 0]);

    // The server's own passes go on (a later shopper's digest comes out of them) and Rita still has one.
    const tom = await shopper("tom");
    await save(tom, weekly, "Wool Scarf", 4990);
    await optIn(tom, "en", true);
    await optedInDaysAgo(tom, 8);
    // This process's pass races the server's for Tom's due digest: whoever wins, one digest.
    const ours = await sendDueReminders();
    const [tomsDigest] = await until("Tom's digest", () => digests(tom), (d) => d.length === 1);
    expect(ours).toBeLessThanOrEqual(1);
    expect(await db(`SELECT id FROM "ReminderSent" WHERE "userId" = ?`, [tom.userId])).toHaveLength(1);
    expect(tomsDigest!.subject).toBe("Still on your list: Wool Scarf");
    await outboxSettled();
    expect(digests(rita)).toHaveLength(1);
    expect(digests(tom)).toHaveLength(1);
    expect(digests(sam)).toHaveLength(0);
    expect(await db(`SELECT "shopId" FROM "ReminderSent" WHERE "shopId" IN (?, ?)`, [off.shop.id, free.shop.id])).toEqual([]);
    // The revenue breakdown has a row for the digests sent (source `reminder`), bought or not.
    const { lastDays, revenueReport } = await import("~/domains/revenue/figures.server");
    const report = await revenueReport({ ...weekly.shop, primaryDomain: weekly.primary, currency: "EUR", attributionWindowDays: 30 }, lastDays(1));
    // Digest links lead to the shop directly: their clicks are unknown, not zero.
    expect(report.sources.find((x) => x.source === "reminder")).toMatchObject({ alertsSent: 2, alertsClicked: null, clickRate: null, orders: 0 });

    // A week after her digest, the next one; with 13 items, 12 are shown and "and 1 more" links to the lists.
    for (let i = 0; i < 12; i++) await save(rita, weekly, `Item ${i}`, 1000 + i);
    await prisma.reminderSent.updateMany({ where: { userId: rita.userId }, data: { createdAt: daysAgo(8) } });
    const [, second] = await until("Rita's second digest", () => digests(rita), (d) => d.length === 2);
    expect(second!.subject).toBe("Noch auf deiner Liste: 13 gemerkte Produkte");
    expect((second!.text.match(/Jetzt kaufen:/g) ?? []).length).toBe(12);
    expect(second!.text).toContain(`Und 1 weiteres auf deiner Liste: ${server.url}/de/lists`);
  });

  it("the digest's one-click unsubscribe (RFC 8058 post, no session) ends reminders only: alerts stay, the records go; its page in Chromium at 375 and 1280 px", async () => {
    const s = await installedShop("growth", 14);
    const una = await shopper("una");
    await save(una, s, "Linen Shirt", 5900);
    await optIn(una, "en", true);
    await optedInDaysAgo(una, 15);
    const [digest] = await until("Una's digest", () => digests(una), (d) => d.length === 1);
    const link = /^<(.+)>$/.exec(digest!.headers["list-unsubscribe"]!)![1]!;
    expect(digest!.text).toContain(`Stop reminders: ${link}`);

    // The page the link opens (GET changes nothing), both languages and widths, axe clean.
    const context = await browser.newContext();
    const console = watchConsole(context);
    for (const width of [375, 1280]) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      const lang = width === 375 ? "de" : "en";
      await page.goto(link.replace("lang=en", `lang=${lang}`));
      await page.getByRole("button", { name: lang === "de" ? "Erinnerungen abbestellen" : "Stop reminders" }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(screenshots, `reminders-unsubscribe-${width}.png`), fullPage: true });
      await page.close();
    }
    expect((await db(`SELECT "remindersAt" FROM "AlertConsent" WHERE "userId" = ?`, [una.userId]))[0]!.remindersAt).not.toBeNull();

    // The mail client's one-click post: no cookie, the body RFC 8058 prescribes.
    const res = await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Reminders stopped");
    const [consent] = await db<{ remindersAt: unknown; confirmedAt: unknown }>(`SELECT "remindersAt", "confirmedAt" FROM "AlertConsent" WHERE "userId" = ?`, [una.userId]);
    expect(consent!.remindersAt).toBeNull();
    expect(consent!.confirmedAt).not.toBeNull(); // alerts stay on
    expect(await db(`SELECT id FROM "ReminderSent" WHERE "userId" = ?`, [una.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "OutboxMessage" WHERE "dedupKey" LIKE ?`, [`reminder:${una.userId}:%`])).toEqual([]);
    // The alert unsubscribe link does not take a reminder token, and a forged one answers 400.
    const token = new URL(link).searchParams.get("token")!;
    const asAlert = await fetch(`${server.url}/alerts/unsubscribe?token=${encodeURIComponent(token)}`, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(asAlert.status).toBe(400);
    expect((await db(`SELECT "confirmedAt" FROM "AlertConsent" WHERE "userId" = ?`, [una.userId]))[0]!.confirmedAt).not.toBeNull();

    // Nothing more for Una (another shopper's later digest shows the passes ran).
    const vic = await shopper("vic");
    await save(vic, s, "Linen Shirt", 5900);
    await optIn(vic, "en", true);
    await optedInDaysAgo(vic, 15);
    await until("Vic's digest", () => digests(vic), (d) => d.length === 1);
    await outboxSettled();
    expect(digests(una)).toHaveLength(1);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("My lists: the unticked reminder box beside the alert opt-in, turning reminders on and off once alerts are on (de and en, 375 and 1280 px, axe clean)", async () => {
    const wendy = await shopper("wendy");
    const context = await browser.newContext();
    const console = watchConsole(context);
    await context.addCookies([{ name: "wish_user", value: wendy.cookie.split("=").slice(1).join("="), url: server.url }]);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/en/lists`);
    await page.locator(".ml[data-hydrated]").waitFor();
    const panel = page.locator("section.ml-alerts");
    const box = panel.getByLabel("Also remind me of saved items I haven't bought.");
    expect(await box.isChecked()).toBe(false);
    await panel.getByLabel("Yes, I want price and stock alerts by e-mail.").check();
    await box.check();
    await panel.getByRole("button", { name: "Turn on alerts" }).click();
    await panel.getByText(`Waiting for your confirmation. The link is on its way to ${wendy.email}.`).waitFor();
    await panel.getByText("Reminders of saved items you haven't bought are on").waitFor();
    expect((await db(`SELECT "remindersAt" FROM "AlertConsent" WHERE "userId" = ?`, [wendy.userId]))[0]!.remindersAt).not.toBeNull();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await panel.screenshot({ path: path.join(screenshots, "reminders-panel-pending-1280.png") });

    await panel.getByRole("button", { name: "Stop reminders" }).click();
    await panel.getByRole("button", { name: "Also remind me of items I haven't bought" }).waitFor();
    expect((await db(`SELECT "remindersAt" FROM "AlertConsent" WHERE "userId" = ?`, [wendy.userId]))[0]!.remindersAt).toBeNull();
    await panel.getByRole("button", { name: "Also remind me of items I haven't bought" }).click();
    await panel.getByRole("button", { name: "Stop reminders" }).waitFor();

    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto(`${server.url}/de/lists`);
    await page.locator(".ml[data-hydrated]").waitFor();
    await panel.getByRole("button", { name: "Erinnerungen ausschalten" }).waitFor();
    await panel.getByLabel("Erinnere mich auch an gemerkte Produkte, die ich noch nicht gekauft habe.").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await panel.screenshot({ path: path.join(screenshots, "reminders-panel-de-375.png") });
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("privacy: customers/data_request lists the reminder choice and digests; customers/redact, shop/redact and account deletion delete them", async () => {
    const s = await installedShop("starter", 7);
    const xena = await shopper("xena");
    await save(xena, s, "Clay Vase", 3900);
    await optIn(xena, "en", true);
    await optedInDaysAgo(xena, 8);
    await until("Xena's digest", () => digests(xena), (d) => d.length === 1);
    await prisma.shopCustomer.create({ data: { shopId: s.shop.id, customerId: "5150", userId: xena.userId } });

    await deliver("compliance", s.domain, { shop_domain: s.domain, customer: { id: 5150 }, data_request: { id: 11 } }, "customers/data_request");
    const [request] = await db<{ data: unknown }>(`SELECT data FROM "ComplianceRequest" WHERE "shopDomain" = ? AND topic = 'customers/data_request'`, [s.domain]);
    const data = typeof request!.data === "string" ? JSON.parse(request!.data) : request!.data;
    expect(data.shop_customer.alerts.consent.reminders_since).toEqual(expect.any(String));
    expect(data.shop_customer.alerts.reminders_sent).toEqual([{ items: 1, sent_at: expect.any(String) }]);

    // shop/redact: the shop's record of digests.
    const yuri = await shopper("yuri");
    const other = await installedShop("starter", 7);
    await save(yuri, other, "Clay Vase", 3900);
    await optIn(yuri, "en", true);
    await optedInDaysAgo(yuri, 8);
    await until("Yuri's digest", () => digests(yuri), (d) => d.length === 1);
    await deliver("compliance", other.domain, { shop_domain: other.domain, shop_id: 1 }, "shop/redact");
    expect(await db(`SELECT id FROM "ReminderSent" WHERE "shopId" = ?`, [other.shop.id])).toEqual([]);

    await deliver("compliance", s.domain, { shop_domain: s.domain, customer: { id: 5150 }, orders_to_redact: [] }, "customers/redact");
    expect(await db(`SELECT id FROM "ReminderSent" WHERE "userId" = ?`, [xena.userId])).toEqual([]);
    expect(await db(`SELECT id FROM "OutboxMessage" WHERE topic = ?`, [`alert:${xena.userId}`])).toEqual([]);

    const zoe = await shopper("zoe");
    await save(zoe, s, "Clay Vase", 3900);
    await optIn(zoe, "de", true);
    await optedInDaysAgo(zoe, 8);
    await until("Zoe's digest", () => digests(zoe), (d) => d.length === 1);
    expect((await api.delete("/account", { token: zoe.token })).status).toBe(200);
    expect(await db(`SELECT id FROM "ReminderSent" WHERE "userId" = ?`, [zoe.userId])).toEqual([]);
    expect(await db(`SELECT "userId" FROM "AlertConsent" WHERE "userId" = ?`, [zoe.userId])).toEqual([]);
  });
});

/** A webhook as Shopify sends it (support/shopify.ts). */
async function deliver(hookPath: string, shop: string, payload: unknown, topic: string) {
  await alert.deliver(hookPath, shop, payload, topic);
}
