// The admin pages render the loaders' real data: each page component is
// rendered to HTML inside Polaris with the loader's answer (Remix's hooks
// stand in through a mock, the rest is real), so the banners and texts the
// merchant sees are checked, not only the data.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { renderToString } from "react-dom/server";
import { createElement } from "react";
import { adminRequest, FakeAdminApi, shopifyTestApp } from "../support/shopify.ts";

const current = vi.hoisted(() => ({ data: undefined as unknown }));
vi.mock("@remix-run/react", async (original) => (await import("../support/remix-stand-in.ts")).remixStandIn(original, current));


let api: FakeAdminApi;
let db: typeof import("~/db.server").db;
let period: string;

beforeAll(async () => {
  ({ api } = await shopifyTestApp());
  ({ db } = await import("~/db.server"));
  period = (await import("~/domains/metering/usage")).currentPeriod().period;
});

const pages = {
  "app._index": { path: "/app", load: () => import("~/routes/app._index") },
  "app.plans": { path: "/app/plans", load: () => import("~/routes/app.plans") },
  "app.baskets": { path: "/app/baskets", load: () => import("~/routes/app.baskets") },
  "app.alerts": { path: "/app/alerts", load: () => import("~/routes/app.alerts") },
};

async function render(route: keyof typeof pages, shop: string, search = "") {
  const mod = await pages[route].load();
  const request = await adminRequest(shop, pages[route].path + search);
  const loaded: unknown = await mod.loader({ request, params: {}, context: {} });
  current.data = loaded instanceof Response ? await loaded.json() : loaded;
  const { AppProvider } = await import("@shopify/polaris");
  const en = (await import("@shopify/polaris/locales/en.json")).default;
  const html = renderToString(createElement(AppProvider, { i18n: en }, createElement(mod.default)));
  return html.replace(/<!-- -->/g, "");
}

async function shopWithUsage(name: string, total: number, plan?: string) {
  const fake = api.addShop(`${name}.myshopify.com`);
  if (plan) fake.activeSubscriptions = [{ id: `gid://shopify/AppSubscription/${name}`, name: plan, status: "ACTIVE", test: true, trialDays: 14, currentPeriodEnd: null }];
  await render("app._index", fake.domain);
  const shop = await db.platformShop.findUniqueOrThrow({ where: { domain: fake.domain } });
  if (total) await db.usageCounter.create({ data: { partnerId: shop.partnerId, period, saves: total, total } });
  return fake.domain;
}

describe("home page", () => {
  it("shows plan, trial, usage and the checklist", async () => {
    const html = await render("app._index", await shopWithUsage("home-fresh", 12));
    expect(html).toContain("Plan: Free");
    expect(html).toContain("Free trial: 14 days left");
    expect(html).toContain("Actions this month: 12 of 200");
    expect(html).toMatch(/<progress aria-labelledby="usage-label"[^>]*value="6" max="100">/);
    expect(html).toContain("https://home-fresh.myshopify.com/admin/themes/current/editor?context=apps");
    expect(html).toContain("Your store&#x27;s public key is active.");
    expect(html).toContain("Shoppers are saving products.");
    expect(html).not.toContain("Saves are paused");
  });

  it("warns at 80% and says until when saves are paused at 100% on Free", async () => {
    const warned = await render("app._index", await shopWithUsage("home-warn", 160));
    expect(warned).toContain("You have used 80% of this month&#x27;s actions");
    const paused = await render("app._index", await shopWithUsage("home-paused", 200));
    expect(paused).toMatch(/Saves are paused until [A-Z][a-z]+ \d+/);
  });

  it("shows the overage so far on a paid plan", async () => {
    const html = await render("app._index", await shopWithUsage("home-over", 2100, "Starter"));
    expect(html).toContain("Plan: Starter");
    expect(html).toContain("Overage so far: 100 actions at $0.025 each, $2.50 in total");
    expect(html).not.toContain("Free trial:");
  });
});

describe("plans page", () => {
  it("lists the plans with Choose buttons and the badge setting", async () => {
    const html = await render("app.plans", await shopWithUsage("plans-page", 0));
    for (const text of ["$19.00 every 30 days", "$182.40 a year (−20%)", "$49.00 every 30 days", "$950.40 a year (−20%)", "Choose", "It can be switched off on a paid plan."]) {
      expect(html).toContain(text);
    }
    expect(html.match(/>Choose</g)).toHaveLength(6);
  });

  it("tells a Free shop one story about its trial, and names the badge as the store shows it", async () => {
    const html = await render("app.plans", await shopWithUsage("plans-free", 0));
    expect(html).toContain("Free trial: 14 days left.");
    expect(html).toContain("while the 14-day free trial of the app lasts");
    expect(html).not.toMatch(/no trial/i);
    const storeLabel = JSON.parse(readFileSync("extensions/wishlist/locales/en.default.json", "utf8")).badge.label;
    expect(html).toContain(`The “${storeLabel}” badge`);
  });
});

describe("plans page: Switch to Free", () => {
  it("a paid plan offers Switch to Free and, once switched, the page shows Free; a Free shop sees no such button", async () => {
    const growth = await render("app.plans", await shopWithUsage("plans-growth-leave", 0, "Growth"));
    expect(growth).toContain("Your plan: Growth (subscribed)");
    expect(growth).toContain("You are on Growth. You can leave it here at any time, without contacting us.");
    expect(growth.match(/<button[^>]*>(?:(?!<\/button>).)*Switch to Free/g)).toHaveLength(1);
    // Switched: the page tells the plan Shopify and the database now agree on, and offers no way back to Free.
    const plans = await import("~/routes/app.plans");
    const request = await adminRequest("plans-growth-leave.myshopify.com", "/app/plans", { method: "POST", form: { intent: "free" } });
    expect(await plans.action({ request, params: {}, context: {} })).toEqual({ ok: true, switched: true });
    const after = await render("app.plans", "plans-growth-leave.myshopify.com");
    expect(after).toContain("Your plan: Free");
    expect(after).not.toContain("(subscribed)");
    expect(after).not.toContain("Switch to Free");
    const free = await render("app.plans", await shopWithUsage("plans-free-leave", 0));
    expect(free).toContain("Your plan: Free");
    expect(free).not.toContain("Switch to Free");
  });
});

describe("drawer page", () => {
  it("the colour hint names the colour a new drawer really has", async () => {
    const domain = await shopWithUsage("drawer-hint", 0);
    const html = await render("app.baskets", domain);
    const shop = await db.platformShop.findUniqueOrThrow({ where: { domain } });
    const { primaryColor } = await db.basketConfig.findFirstOrThrow({ where: { partnerId: shop.partnerId } });
    expect(html).toContain(`value="${primaryColor}"`);
    expect(html).toContain(`the default is ${primaryColor}`);
  });
});

describe("alerts page", () => {
  const checkbox = (html: string, label: string) => {
    const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>(?:(?!</label>).)*${label}`).exec(html)?.[1];
    return id ? new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "" : "";
  };

  it("Free: back in stock only; price drop and low stock show disabled and say which plan brings them", async () => {
    const html = await render("app.alerts", await shopWithUsage("alerts-free", 0));
    expect(checkbox(html, "Back in stock")).not.toContain("disabled");
    expect(checkbox(html, "Back in stock")).toContain('aria-checked="true"');
    for (const label of ["Price drop", "Low stock"]) {
      expect(checkbox(html, label)).toContain("disabled");
      expect(checkbox(html, label)).toContain('aria-checked="false"');
    }
    expect(html).toContain("Comes with Starter and up; this shop is on Free.");
    expect(html).toContain("Price drop, low stock and reminders come with Starter and up; this shop is on Free.");
    // Reminders: the interval shows disabled at Off.
    const reminders = /<select[^>]*id="([^"]+)"[^>]*>(?:(?!<\/select>).)*<option value="7">Weekly/s.exec(html)?.[0] ?? "";
    expect(reminders).toContain("disabled");
    expect(html).toContain("Reminders of saved items not yet bought");
    expect(html).toContain("No alerts sent yet.");
  });

  it("a paid plan: every alert on by default; the form stores the settings; sent alerts are listed without addresses", async () => {
    const domain = await shopWithUsage("alerts-paid", 0, "Growth");
    const before = await render("app.alerts", domain);
    for (const label of ["Price drop", "Back in stock", "Low stock"]) expect(checkbox(before, label)).toContain('aria-checked="true"');
    expect(before).not.toContain("Comes with Starter and up");

    const { action } = await import("~/routes/app.alerts");
    const post = async (form: Record<string, string>) => {
      const res = await action({ request: await adminRequest(domain, "/app/alerts", { method: "POST", form }), params: {}, context: {} });
      return { status: res.status, body: await res.json() };
    };
    expect(await post({ priceDrop: "false", backInStock: "true", lowStock: "true", lowStockThreshold: "0", senderName: "", replyTo: "" })).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining("from 1 to 1000") } });
    const form = { priceDrop: "false", backInStock: "true", lowStock: "true", lowStockThreshold: "7", senderName: "Brand Store", replyTo: "care@brand.example" };
    expect(await post({ ...form, senderName: 'Evil" <x@y>' })).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining("without quotes or angle brackets") } });
    expect(await post({ ...form, replyTo: "not an address" })).toMatchObject({ status: 400, body: { ok: false, error: "The reply-to address is not a valid e-mail address." } });
    // Reminders are off until the merchant chooses an interval; only Off, 7, 14 and 30 days exist.
    expect(before).toContain("A digest of their saved products they haven&#x27;t bought");
    expect(await post({ ...form, reminderDays: "5" })).toMatchObject({ status: 400, body: { ok: false, error: expect.stringContaining("off, weekly, every 2 weeks or monthly") } });
    expect(await post({ ...form, reminderDays: "14" })).toEqual({ status: 200, body: { ok: true, message: "Saved." } });
    expect(await post(form)).toEqual({ status: 200, body: { ok: true, message: "Saved." } });
    const shop = await db.platformShop.findUniqueOrThrow({ where: { domain } });
    expect(await db.alertSettings.findUnique({ where: { shopId: shop.id } })).toMatchObject({
      priceDrop: false,
      backInStock: true,
      lowStock: true,
      lowStockThreshold: 7,
      senderName: "Brand Store",
      replyTo: "care@brand.example",
      reminderDays: 14, // a form without the field leaves it as it is
    });

    await db.alertSent.create({ data: { dedupKey: `k-${shop.id}`, shopId: shop.id, userId: "u-1", listItemId: 1, kind: "price_drop", priceMinor: 2500, currency: "EUR", title: "Oak Lamp" } });
    const after = await render("app.alerts", domain);
    expect(checkbox(after, "Price drop")).toContain('aria-checked="false"');
    expect(checkbox(after, "Price drop")).not.toContain("disabled");
    expect(after).toContain('value="7"');
    expect(after).toContain('value="Brand Store"');
    expect(after).toContain('value="care@brand.example"');
    expect(after).toContain("Oak Lamp");
    expect(after).toContain("€25.00");
    expect(after).toContain("Price drop");

    // The preview: the e-mail as shoppers get it, in the language asked, with the shop's sender name; nothing is sent.
    expect(after).toContain("Subject:</span> Price drop: Your product now €24.00");
    await db.platformShop.update({ where: { id: shop.id }, data: { currency: "EUR" } });
    const outbox = await db.outboxMessage.count();
    const german = await render("app.alerts", domain, "?preview=low_stock&lang=de");
    expect(german).toContain("Subject:</span> Nur noch 3 verfügbar: Dein Produkt");
    expect(german).toContain("From:</span> &quot;Brand Store&quot; &lt;no-reply@localhost&gt; (replies to care@brand.example)");
    const srcdoc = /<iframe[^>]*title="Alert e-mail preview"[^>]*>/.exec(german)![0];
    expect(srcdoc).toContain('sandbox=""');
    expect(srcdoc).toContain("lang=&quot;de&quot;");
    // The reminder digest's preview: the shop's products (here none: a placeholder) in the shared e-mail frame.
    const reminder = await render("app.alerts", domain, "?preview=reminder&lang=en");
    expect(reminder).toContain("Subject:</span> Still on your list: Your product");
    expect(/<iframe[^>]*title="Alert e-mail preview"[^>]*>/.exec(reminder)![0]).toContain("Stop reminders");
    expect(await db.outboxMessage.count()).toBe(outbox);
  });
});
