// The share page `/{lang}/list/{token}` in real Chromium against the built
// server: both languages, the gift grid (columns per width, square images,
// no body margin, print), buying at the shop with the item's signed reference
// (which the shop's orders/create webhook accepts), the shop's accent colour,
// marking purchased without an account (with and without JavaScript, by
// keyboard), the owner's spoiler protection through the wish_user cookie,
// escaping, the localized 404 page, list_view metering, accessibility.
// Screenshots go to tests/screenshots/share-*.png.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, sharedShopifyApi } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { testTmpDir } from "../support/database.ts";
import { root } from "../support/server.ts";
import { SHARED_SHOPIFY } from "../support/shared-shopify.ts";
import { queuedWebhooksDone } from "../support/shopify.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";
import { sharedList, storeProductImage, type SharedList } from "../support/shared-list.ts";

// The shared server with the Shopify app's keys (for the orders/create webhook that confirms a purchase
// made through a buy link); the lists, the shop and its basket are this file's own.
const SHOPIFY_SECRET = SHARED_SHOPIFY.secret;
const SCREENSHOTS = path.join(root, "tests/screenshots");
const SHOP_COLOUR = "#f2c94c"; // light: needs dark text and a darker ink

let server: Awaited<ReturnType<typeof sharedShopifyApi>>["server"];
let api: Api;
let browser: Browser;
let dataDir: string;
let list: SharedList;
let hidden: SharedList;
/** A list of products of an installed shop whose basket has SHOP_COLOUR. */
let shopList: SharedList;
let shop: { domain: string; primary: string; name: string };
const consoles: { errors: string[] }[] = [];

beforeAll(async () => {
  // The shared servers' DATA_DIR (startServer): the images are named by their content, so files never collide.
  dataDir = path.join(testTmpDir, "data");
  const shared = await sharedShopifyApi();
  [api, server] = [shared, shared.server];
  browser = await launchBrowser();
  list = await sharedList(api, server.databaseUrl, {
    name: "Annas Geburtstag",
    description: "Bücher und Spiele",
    ownerName: "Anna Müller",
    ownerAvatar: storeProductImage(server, dataDir, "#c86432"),
    occasion: "birthday",
    products: [
      { title: "Brettspiel", price: 3999, currency: "EUR", priority: 1, imageUrl: storeProductImage(server, dataDir, "#0a64c8") },
      { title: "Roman", price: 1250, currency: "USD", priority: 3 },
    ],
  });
  hidden = await sharedList(api, server.databaseUrl, {
    name: "Geheime Liste",
    description: "Streng geheim",
    ownerName: "Berta Geheim",
    products: [{ title: "Verborgenes Ding", price: 100, currency: "EUR" }],
    makePublic: false,
  });
  shop = await installedShop(SHOP_COLOUR);
  shopList = await sharedList(api, server.databaseUrl, {
    name: "Hochzeit von Clara & Dev",
    description: "Wir freuen uns über alles – am meisten über die Espressomaschine.",
    ownerName: "Clara Weiß",
    occasion: "wedding",
    host: shop.primary,
    products: [
      { title: "Espressomaschine Doppio mit Milchaufschäumer, Edelstahl gebürstet", price: 54900, currency: "EUR", priority: 1, imageUrl: storeProductImage(server, dataDir, "#6b4f3a", { width: 800, height: 800 }) },
      { title: "Leinen-Tischdecke", price: 8900, currency: "EUR", priority: 2, imageUrl: storeProductImage(server, dataDir, "#9db4c0", { width: 1200, height: 600 }) },
      { title: "Weingläser, 6 Stück", price: 4200, currency: "EUR", priority: 3, imageUrl: storeProductImage(server, dataDir, "#b22a4e", { width: 500, height: 900 }) },
      { title: "Kochbuch „Gemüse“", price: 3200, currency: "EUR", imageUrl: storeProductImage(server, dataDir, "#2f7d4f", { width: 700, height: 700 }) },
      { title: "Gusseisen-Bräter", price: 17900, currency: "EUR", priority: 1 },
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  // Every page of every context this file opened: no console errors.
  expect(consoles.flatMap((c) => c.errors)).toEqual([]);
});

/** A shop installed through the app (platform shop with a primary domain and name, a Shopify session) with a basket of `colour`. */
async function installedShop(colour: string) {
  const p = await provisioner(server);
  const partner = await p.partner();
  const suffix = Math.random().toString(36).slice(2, 8);
  const domain = `store-${suffix}.myshopify.com`;
  const primary = `www.brand-${suffix}.example`;
  const created = await p.shop(partner.id, { domain });
  const { db } = await import("~/db.server");
  await db.platformShop.update({ where: { id: created.id }, data: { primaryDomain: primary, name: "Maison Clara", currency: "EUR" } });
  await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: "shpat_test" } });
  const { createBasketConfig } = await import("~/domains/baskets/baskets.server");
  await createBasketConfig(partner.id, { primaryColor: colour }, { shopId: created.id });
  return { domain, primary, name: "Maison Clara" };
}

/** A browser context whose console errors are checked at the end; `expectedStatus` allows the browser's own "Failed to load resource" line for deliberate 4xx answers. */
async function context(opts: Parameters<Browser["newContext"]>[0] = {}, expectedStatus?: number[]): Promise<BrowserContext> {
  const ctx = await browser.newContext(opts);
  const watched = watchConsole(ctx);
  const expected = (line: string) =>
    expectedStatus?.some((status) => line.endsWith(`Failed to load resource: the server responded with a status of ${status} (${STATUS_TEXT[status]})`));
  consoles.push({
    get errors() {
      return watched.errors.filter((line) => !expected(line));
    },
  });
  return ctx;
}
const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 503: "Service Unavailable" };

const pageUrl = (lang: string, token = list.token) => `${server.url}/${lang}/list/${token}`;

async function purchasedFlags(token = list.token): Promise<Record<string, boolean>> {
  const res = await api.get(`/hosted/public/lists/${token}/items`, { headers: { "user-agent": "curl/8" } });
  return Object.fromEntries(res.body.products.map((p: { title: string; purchased: boolean }) => [p.title, p.purchased]));
}

const item = (page: Page, title: string) => page.locator("li.share-item", { has: page.getByRole("heading", { name: title, exact: true }) });

async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Lazy images below the fold load too.
  await page.evaluate(() =>
    Promise.all(
      Array.from(document.images, (img) => {
        img.loading = "eager";
        return img.decode().catch(() => undefined);
      }),
    ),
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, `share-${name}.png`), fullPage: true });
}

const gridColumns = (page: Page) => page.locator("ul.share-items").evaluate((ul) => getComputedStyle(ul).gridTemplateColumns.split(" ").length);

describe("the page in both languages", () => {
  it.each([
    {
      lang: "de",
      by: "von Anna Müller",
      occasion: "Anlass: Geburtstag",
      count: "2 Wünsche",
      prices: ["12,50\u00a0$", "39,99\u00a0€"], // newest first
      mostWanted: "Ganz oben auf der Liste",
      buy: "Bei shop.example.com kaufen",
      mark: "Als gekauft markieren",
    },
    {
      lang: "en",
      by: "by Anna Müller",
      occasion: "Occasion: Birthday",
      count: "2 wishes",
      prices: ["$12.50", "€39.99"],
      mostWanted: "Most wanted",
      buy: "Buy at shop.example.com",
      mark: "Mark as purchased",
    },
  ])("$lang: header, prices, most wanted, buy link, lang attribute, hreflang and canonical", async (t) => {
    const ctx = await context();
    const page = await ctx.newPage();
    const res = await page.goto(pageUrl(t.lang));
    expect(res!.status()).toBe(200);
    // The same for everyone with the link: a CDN may keep it (tests/storefront/cdn.test.ts).
    expect(res!.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(await page.getAttribute("html", "lang")).toBe(t.lang);
    expect(await page.title()).toBe(`Annas Geburtstag · ${t.lang === "de" ? "Wunschliste" : "Wishlist"}`);
    expect(await page.locator("h1").textContent()).toBe("Annas Geburtstag");
    await expect(page.locator(".share-owner").textContent()).resolves.toBe(t.by);
    expect(await page.locator(".share-owner img").getAttribute("alt")).toContain("Anna Müller");
    await expect(page.locator(".share-occasion").textContent()).resolves.toBe(t.occasion);
    await expect(page.locator(".share-total").textContent()).resolves.toBe(t.count);
    await expect(page.locator(".share-description").textContent()).resolves.toBe("Bücher und Spiele");
    // Intl.NumberFormat for the page's locale, each item in its own currency.
    expect(await page.locator(".share-price").allTextContents()).toEqual(t.prices.map((p) => `${t.lang === "de" ? "Preis" : "Price"}: ${p}`));
    // Priority 1 is "most wanted"; other priorities show nothing.
    await expect(item(page, "Brettspiel").locator(".share-top").textContent()).resolves.toBe(`★ ${t.mostWanted}`);
    expect(await item(page, "Roman").locator(".share-top").count()).toBe(0);
    const image = item(page, "Brettspiel").locator("img");
    expect(await image.getAttribute("src")).toMatch(/\/media\/images\/[0-9a-f]{64}\.png$/);
    expect([await image.getAttribute("width"), await image.getAttribute("height")]).toEqual(["480", "480"]);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    // The one link of a card: buying at the shop (a site without the app: no reference), in a new tab.
    const link = item(page, "Brettspiel").getByRole("link");
    expect(await link.getAttribute("href")).toMatch(/^https:\/\/shop\.example\.com\/products\/[^?]+$/);
    expect(await link.getAttribute("rel")).toBe("noopener nofollow ugc");
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.evaluate((a) => a.firstChild!.textContent)).toBe(t.buy);
    await expect(item(page, "Brettspiel").getByRole("button").textContent()).resolves.toBe(t.mark);
    const alternates = await page.$$eval('link[rel="alternate"]', (ls) => ls.map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]));
    expect(alternates).toEqual([
      ["de", pageUrl("de")],
      ["en", pageUrl("en")],
      ["x-default", pageUrl("en")],
    ]);
    expect(await page.getAttribute('link[rel="canonical"]', "href")).toBe(pageUrl(t.lang));
    // The language switch names the current page.
    expect(await page.locator('.share-langs a[aria-current="page"]').getAttribute("hreflang")).toBe(t.lang);
    // The share token never leaves the site in a Referer; the page's own form posts keep their Origin.
    expect(res!.headers()["referrer-policy"]).toBe("same-origin");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ctx.close();
  });

  it("two fixed inline scripts (the toggle, the view beacon), allowed by hash so a cached copy runs; the same security headers as every page", async () => {
    const res = await fetch(pageUrl("en"));
    const html = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(2);
    expect(html.match(/<script\b[^>]*>/g)).toEqual(["<script>", "<script>"]);
    const hashes = scripts.map((s) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`);
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src "))!;
    expect(scriptSrc).toBe(`script-src 'self' ${hashes.join(" ")}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const again = await fetch(pageUrl("en"));
    await again.text();
    expect(again.headers.get("content-security-policy")).toBe(csp);
    // HEAD: the same headers, no body.
    const head = await fetch(pageUrl("en"), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe(res.headers.get("cache-control"));
    expect(head.headers.get("etag")).toBe(res.headers.get("etag"));
    expect(await head.text()).toBe("");
  });
});

describe("prices in any currency", () => {
  it("show in each currency's own minor unit: JPY 1500, KWD 12345, and HUF 150000 (1500.00 Ft, as scraped) at its size", async () => {
    const money = await sharedList(api, server.databaseUrl, {
      name: "Reise",
      ownerName: "Kai",
      products: [
        { title: "Teeschale", price: 1500, currency: "JPY" },
        { title: "Messinglampe", price: 12345, currency: "KWD" },
        { title: "Paprika", price: 150000, currency: "HUF" },
      ],
    });
    const ctx = await context();
    const page = await ctx.newPage();
    const priceOf = (title: string) => item(page, title).locator(".share-price").textContent();
    await page.goto(pageUrl("en", money.token));
    expect(await priceOf("Teeschale")).toBe("Price: ¥1,500");
    expect(await priceOf("Messinglampe")).toBe("Price: KWD\u00a012.345");
    // Never HUF 150,000: the scraper and the page read the same exponent (CLDR shows forints without decimals).
    expect(await priceOf("Paprika")).toMatch(/^Price: HUF\u00a01,500(\.00)?$/);
    await page.goto(pageUrl("de", money.token));
    expect(await priceOf("Teeschale")).toBe("Preis: 1.500\u00a0¥");
    expect(await priceOf("Messinglampe")).toBe("Preis: 12,345\u00a0KWD");
    expect(await priceOf("Paprika")).toMatch(/^Preis: 1\.500(,00)?\u00a0HUF$/);
    await ctx.close();
  });
});

describe("layout", () => {
  it.each([
    { width: 320, columns: 1 },
    { width: 375, columns: 1 },
    { width: 480, columns: 1 },
    { width: 600, columns: 2 },
    { width: 900, columns: 3 },
    { width: 1280, columns: 4 },
  ])("$width px: $columns column(s) of square cards, no horizontal scrolling, no body margin", async ({ width, columns }) => {
    const ctx = await context({ viewport: { width, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(pageUrl("de", shopList.token));
    expect(await gridColumns(page)).toBe(columns);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
    // Every card's picture is square, whatever the image's own shape (placeholders too, where cards sit side by side).
    const boxes = await page.locator(width > 480 ? ".share-media" : ".share-media img").evaluateAll((els) => els.map((e) => [e.clientWidth, e.clientHeight]));
    expect(boxes.length).toBe(width > 480 ? 5 : 4);
    for (const [w, h] of boxes) expect(Math.abs(w! - h!)).toBeLessThanOrEqual(1);
    const fits = await page.locator(".share-media img").evaluateAll((imgs) => imgs.map((i) => getComputedStyle(i).objectFit));
    expect(new Set(fits)).toEqual(new Set(["contain"]));
    if (width === 320) expect(await seriousA11yViolations(page)).toEqual([]);
    await ctx.close();
  });

  it("screenshots at 375 and 1280 px (tests/screenshots/share-*.png)", async () => {
    for (const width of [375, 1280]) {
      const ctx = await context({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(pageUrl("de", shopList.token));
      await screenshot(page, `shop-${width}`);
      await page.goto(pageUrl("en"));
      await screenshot(page, `${width}`);
      await ctx.close();
    }
  });

  it("printed: no buttons or forms, the grid stays", async () => {
    const ctx = await context({ viewport: { width: 1000, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(pageUrl("en", shopList.token));
    expect(await page.locator("form").first().isVisible()).toBe(true);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("form").count()).toBe(5);
    for (const form of await page.locator("form").all()) expect(await form.isVisible()).toBe(false);
    for (const control of await page.locator("button, a.share-buy, .share-langs").all()) expect(await control.isVisible()).toBe(false);
    expect(await gridColumns(page)).toBe(3);
    // Where to buy stays readable on paper.
    await expect(item(page, "Leinen-Tischdecke").locator(".share-source").isVisible()).resolves.toBe(true);
    await screenshot(page, "print");
    await ctx.close();
  });

  it("a list or item name with markup shows as text", async () => {
    const evil = await sharedList(api, server.databaseUrl, {
      name: `<script>window.pwned = 1</script>"'&`,
      description: `<img src=x onerror="window.pwned = 2">`,
      ownerName: `<b>Mallory</b>`,
      products: [{ title: `</h3><script>window.pwned = 3</script>`, price: 100, currency: "EUR" }],
    });
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("en", evil.token));
    expect(await page.locator("h1").textContent()).toBe(`<script>window.pwned = 1</script>"'&`);
    expect(await page.title()).toBe(`<script>window.pwned = 1</script>"'& · Wishlist`);
    expect(await page.locator(".share-description").textContent()).toBe(`<img src=x onerror="window.pwned = 2">`);
    expect(await page.locator(".share-by").textContent()).toBe("by <b>Mallory</b>");
    expect(await page.locator("li.share-item h3").textContent()).toBe(`</h3><script>window.pwned = 3</script>`);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator("script").count()).toBe(2); // the page's own: the toggle and the view beacon
    await ctx.close();
  });
});

describe("buying at the shop", () => {
  it("a link into a shop with the app carries the item's signed reference; the shop's order confirms the purchase", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("en", shopList.token));
    const card = item(page, "Leinen-Tischdecke");
    const link = card.getByRole("link", { name: /^Buy at Maison Clara/ });
    const href = (await link.getAttribute("href"))!;
    const url = new URL(href);
    expect(url.host).toBe(shop.primary);
    const itemId = shopList.itemIds[1]!;
    const ref = url.searchParams.get("wish_ref")!;
    expect(ref).toMatch(new RegExp(`^${itemId}\\.[\\w-]{22}$`));
    // The order webhook's own reading: the landing URL's wish_ref names this item, and its signature holds.
    process.env.DATABASE_URL = server.databaseUrl;
    const { orderRefs } = await import("~/domains/lists/order-confirmations.server");
    const { verifyWishRef } = await import("~/domains/lists/wish-ref.server");
    const refs = orderRefs({ landing_site: `${url.pathname}${url.search}` });
    expect(refs).toEqual([ref]);
    expect(await verifyWishRef(refs[0]!)).toBe(itemId);

    // The shop reports the order (signed as Shopify signs it): the item is purchased and confirmed.
    const payload = JSON.stringify({
      id: 7_100_000_000 + Math.floor(Math.random() * 1_000_000),
      customer: { id: 42 },
      landing_site: `${url.pathname}${url.search}`,
      line_items: [{ id: 1, title: "Leinen-Tischdecke", quantity: 1, properties: [] }],
    });
    const delivered = await fetch(`${server.url}/webhooks/orders/create`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": "orders/create",
        "x-shopify-hmac-sha256": getHmac(payload, SHOPIFY_SECRET),
        "x-shopify-shop-domain": shop.domain,
        "x-shopify-webhook-id": randomUUID(),
        "x-shopify-api-version": "2025-10",
        "x-shopify-event-id": randomUUID(),
        "x-shopify-triggered-at": new Date().toISOString(),
      },
      body: payload,
    });
    expect(delivered.status, await delivered.text()).toBe(200);
    await queuedWebhooksDone(server.databaseUrl); // orders/create is processed after the answer
    const [row] = await sql<{ purchased: unknown; purchaseConfirmed: unknown }>(server.databaseUrl, `SELECT purchased, "purchaseConfirmed" FROM "ListItem" WHERE id = ?`, [itemId]);
    expect([row!.purchased, row!.purchaseConfirmed].map((v) => v === true || v === 1)).toEqual([true, true]);
    await page.reload();
    await expect(card.locator(".share-badge").textContent()).resolves.toBe("Purchased");
    expect(await card.getAttribute("class")).toContain("is-purchased");
    await screenshot(page, "purchased-1280");

    // Every item of the shop's list carries its own reference; an item without a product page has no buy link.
    const hrefs = await page.locator("a.share-buy").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    expect(hrefs.map((h) => new URL(h).searchParams.get("wish_ref")!.split(".")[0])).toEqual([...shopList.itemIds].reverse().map(String));
    await ctx.close();
  });

  it("an item without a product page has no buy link; the mark button still works", async () => {
    const manual = await sharedList(api, server.databaseUrl, {
      name: "Mit Selbstgemachtem",
      ownerName: "Dora",
      products: [
        { title: "Online-Ding", price: 990, currency: "EUR" },
        { title: "Selbstgestrickter Schal", manual: true },
      ],
    });
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("de", manual.token));
    expect(await item(page, "Selbstgestrickter Schal").getByRole("link").count()).toBe(0);
    expect(await item(page, "Selbstgestrickter Schal").getByRole("button").textContent()).toBe("Als gekauft markieren");
    expect(await item(page, "Online-Ding").getByRole("link").count()).toBe(1);
    // Two partners' (or no partner's) items: the default accent.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent").trim())).toBe("#1f5f4a");
    await ctx.close();
  });
});

describe("the shop's accent", () => {
  it("all items from one partner with a basket: its colour, with readable text; AA contrast throughout", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("de", shopList.token));
    const tokens = await page.evaluate(() => {
      const style = getComputedStyle(document.documentElement);
      return ["--accent", "--accent-text", "--accent-ink"].map((name) => style.getPropertyValue(name).trim());
    });
    expect(tokens[0]).toBe(SHOP_COLOUR);
    const { contrast } = await import("~/hosted-pages/accent");
    expect(contrast(tokens[1]!, tokens[0]!)).toBeGreaterThanOrEqual(4.5); // button text on the colour
    expect(contrast(tokens[2]!, "#ffffff")).toBeGreaterThanOrEqual(4.5); // the colour as text on white
    const buy = item(page, "Weingläser, 6 Stück").locator("a.share-buy");
    expect(await buy.evaluate((a) => getComputedStyle(a).backgroundColor)).toBe("rgb(242, 201, 76)");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ctx.close();
  });

  it("picks white or near-black text by luminance, and darkens a light colour for text", async () => {
    const { shopAccent, contrast } = await import("~/hosted-pages/accent");
    expect(shopAccent("#111111")).toEqual({ accent: "#111111", text: "#ffffff", ink: "#111111" });
    expect(shopAccent("#FFD400")!.text).toBe("#111111");
    for (const colour of ["#ffd400", "#7f7f7f", "#00a3e0", "#ffffff", "#e60023", "#fc0"]) {
      const accent = shopAccent(colour)!;
      expect(contrast(accent.text, accent.accent), colour).toBeGreaterThanOrEqual(4.5);
      expect(contrast(accent.ink, "#ffffff"), colour).toBeGreaterThanOrEqual(4.5);
    }
    for (const bad of ["red", "#12345", "#1234567", "url(x)", "", null]) expect(shopAccent(bad)).toBeNull();
  });
});

describe("marking purchased without an account", () => {
  it("with JavaScript: marks and unmarks in place, no reload", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("en"));
    await page.waitForFunction(() => document.querySelector('input[name="enhanced"]') !== null); // enhanced
    await page.evaluate(() => ((window as unknown as { stay: number }).stay = 1));
    await item(page, "Brettspiel").getByRole("button", { name: /Mark as purchased/ }).click();
    await item(page, "Brettspiel").getByRole("button", { name: /Unmark/ }).waitFor();
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Purchased");
    await expect.poll(() => purchasedFlags()).toEqual({ Brettspiel: true, Roman: false });
    expect(await item(page, "Brettspiel").getAttribute("class")).toContain("is-purchased");
    expect(await page.evaluate(() => (window as unknown as { stay?: number }).stay)).toBe(1);
    await item(page, "Brettspiel").getByRole("button", { name: /Unmark/ }).click();
    await item(page, "Brettspiel").getByRole("button", { name: /Mark as purchased/ }).waitFor();
    await expect.poll(() => purchasedFlags()).toEqual({ Brettspiel: false, Roman: false });
    expect(await item(page, "Brettspiel").locator(".share-badge").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { stay?: number }).stay)).toBe(1);
    await ctx.close();
  });

  it("with JavaScript, a failed request puts the card back and says so", async () => {
    const ctx = await context({}, [503]);
    const page = await ctx.newPage();
    await page.route(pageUrl("en"), (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"service_unavailable"}' }) : route.continue(),
    );
    await page.goto(pageUrl("en"));
    await page.waitForFunction(() => document.querySelector('input[name="enhanced"]') !== null);
    await item(page, "Roman").getByRole("button", { name: /Mark as purchased/ }).click();
    await expect(item(page, "Roman").getByRole("alert").textContent()).resolves.toBe("That did not work. Please try again.");
    await expect(item(page, "Roman").getByRole("button").textContent()).resolves.toBe("Mark as purchased");
    expect(await item(page, "Roman").locator(".share-badge").count()).toBe(0);
    expect(await item(page, "Roman").getAttribute("class")).not.toContain("is-purchased");
    expect(await purchasedFlags()).toEqual({ Brettspiel: false, Roman: false });
    await ctx.close();
  });

  it("by keyboard: skip link to the wishes, Tab to the buy link and the button, Enter marks", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("en"));
    await page.waitForFunction(() => document.querySelector('input[name="enhanced"]') !== null);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the wishes");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("wishes");
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent);
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Buy at shop.example.com: Roman (opens in a new tab)");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Mark as purchased: Roman");
    await page.keyboard.press("Enter");
    await item(page, "Roman").getByRole("button", { name: /Unmark/ }).waitFor();
    await expect.poll(() => purchasedFlags()).toEqual({ Brettspiel: false, Roman: true });
    expect(await focused()).toBe("Unmark: Roman"); // focus stays on the button
    await page.keyboard.press("Enter");
    await item(page, "Roman").getByRole("button", { name: /Mark as purchased/ }).waitFor();
    await expect.poll(() => purchasedFlags()).toEqual({ Brettspiel: false, Roman: false });
    await ctx.close();
  });

  it("without JavaScript: a plain form post, then the page again (post/redirect/get)", async () => {
    const ctx = await context({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(pageUrl("de"));
    expect(await page.locator('input[name="enhanced"]').count()).toBe(0);
    const [post] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      item(page, "Roman").getByRole("button", { name: /Als gekauft markieren/ }).click(),
    ]);
    expect(post.status()).toBe(303);
    // Back to the page from the origin itself (?fresh=1, never shared-cached), not a copy the purge has not reached yet.
    await page.waitForURL(`${pageUrl("de")}?fresh=1`);
    await expect(item(page, "Roman").locator(".share-badge").textContent()).resolves.toBe("Gekauft");
    expect(await purchasedFlags()).toEqual({ Brettspiel: false, Roman: true });
    await item(page, "Roman").getByRole("button", { name: /Markierung aufheben/ }).click();
    await page.waitForURL(`${pageUrl("de")}?fresh=1`);
    await expect(item(page, "Roman").getByRole("button").textContent()).resolves.toBe("Als gekauft markieren");
    expect(await purchasedFlags()).toEqual({ Brettspiel: false, Roman: false });
    await ctx.close();
  });

  it("bad form posts get the SPEC error body; another origin is refused", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(pageUrl("en"), { method: "POST", body, redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    // A page answers with the page and a message; the status says what happened.
    const bad = await post("itemId=1&purchased=maybe");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('<p role="alert" class="share-alert">That did not work. Please try again.</p>');
    // The script's request gets the SPEC error body.
    const badEnhanced = await post("itemId=1&purchased=maybe&enhanced=1");
    expect(badEnhanced.status).toBe(400);
    expect(await badEnhanced.json()).toEqual({ error: "invalid_input", message: "purchased must be true or false" });
    const noForm = await fetch(pageUrl("en"), { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(noForm.status).toBe(400);
    await noForm.text();
    const foreign = await post(`itemId=${list.itemIds[0]}&purchased=true`, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toBe("forbidden");
    const notAnItem = await post("itemId=abc&purchased=true");
    expect(notAnItem.status).toBe(404);
    await notAnItem.text();
    const unknownItem = await post("itemId=999999999&purchased=true");
    expect(unknownItem.status).toBe(404);
    expect(await unknownItem.text()).toContain("List not found");
    // Multipart works like the plain form.
    const multipart = new FormData();
    multipart.set("itemId", String(list.itemIds[1]));
    multipart.set("purchased", "false");
    multipart.set("enhanced", "1");
    const viaMultipart = await fetch(pageUrl("en"), { method: "POST", body: multipart });
    expect(await viaMultipart.json()).toEqual({ ok: true, purchased: false });
    expect(await purchasedFlags()).toEqual({ Brettspiel: false, Roman: false });
  });
});

describe("the owner's spoiler protection", () => {
  it("the signed-in owner sees no purchased marks until asking; others see them", async () => {
    await api.put(`/hosted/public/lists/${list.token}/items/${list.itemIds[0]}/purchased`, { body: { purchased: true } });
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("en"));
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Purchased");

    // Signing in as the hosted dialog does: POST /session/cookie from the app's origin.
    const signIn = await page.evaluate(async (accessToken) => {
      const res = await fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: accessToken }) });
      return { status: res.status, body: await res.json() };
    }, list.owner.accessToken);
    expect(signIn.status).toBe(200);
    expect(signIn.body.ok).toBe(true);
    const cookie = (await ctx.cookies()).find((c) => c.name === "wish_user")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
    expect(cookie.value).not.toBe(list.owner.accessToken);
    // The cookie names the user but is no access token.
    expect((await api.get("/auth/user", { token: cookie.value })).status).toBe(401);

    await page.goto(pageUrl("en"));
    const html = await page.content();
    expect(await page.locator(".share-badge").count()).toBe(0);
    expect(await page.getByRole("button").count()).toBe(0);
    expect(await page.locator("form").count()).toBe(0);
    expect(html).not.toContain("is-purchased");
    expect(html).not.toMatch(/"purchased",true|"purchased":true/);
    // Buying stays possible.
    expect(await item(page, "Brettspiel").getByRole("link").count()).toBe(1);
    await expect(page.getByRole("note").textContent()).resolves.toContain("stays hidden");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Show what was bought" }).click();
    await page.waitForURL(`${pageUrl("en")}?reveal=1`);
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Purchased");
    // The revealed page's form posts go to its own address, ?reveal=1 included.
    expect(await item(page, "Brettspiel").locator("form").evaluate((f: HTMLFormElement) => f.action)).toBe(`${pageUrl("en")}?reveal=1`);
    await page.getByRole("link", { name: "Hide again" }).click();
    await page.waitForURL(pageUrl("en"));
    expect(await page.locator(".share-badge").count()).toBe(0);

    // Signing out of the site: a gift-giver's view again.
    const out = await page.evaluate(async () => (await fetch("/session/cookie", { method: "DELETE" })).status);
    expect(out).toBe(200);
    expect((await ctx.cookies()).find((c) => c.name === "wish_user")).toBeUndefined();
    await page.goto(pageUrl("en"));
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Purchased");
    await ctx.close();
  });

  it("another signed-in user sees the marks; bad tokens and foreign origins get no cookie", async () => {
    const other = await api.anonymousUser();
    const ctx = await context({}, [400, 401]);
    const page = await ctx.newPage();
    await page.goto(pageUrl("de"));
    const answers = await page.evaluate(async (tokens) => {
      const send = async (body: string) => {
        const res = await fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body });
        return [res.status, (await res.json()).error ?? "ok"];
      };
      return [await send(JSON.stringify({ access_token: "not-a-token" })), await send("{}"), await send(JSON.stringify({ access_token: tokens }))];
    }, other.accessToken);
    expect(answers).toEqual([
      [401, "unauthorized"],
      [400, "invalid_input"],
      [200, "ok"],
    ]);
    await page.goto(pageUrl("de"));
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Gekauft");
    const foreign = await fetch(`${server.url}/session/cookie`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ access_token: other.accessToken }),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
    await ctx.close();
  });
});

describe("private and unknown lists", () => {
  it.each([
    ["de", "Liste nicht gefunden"],
    ["en", "List not found"],
  ])("%s: a localized 404 page that reveals nothing", async (lang, title) => {
    const ctx = await context({}, [404]);
    const page = await ctx.newPage();
    for (const token of [hidden.token, "unknownTokenAAAAAAAAAAAA"]) {
      const res = await page.goto(pageUrl(lang, token));
      expect(res!.status()).toBe(404);
      expect(res!.headers()["x-robots-tag"]).toBe("noindex");
      expect(res!.headers()["cache-control"]).toBe("no-store");
      expect(await page.getAttribute("html", "lang")).toBe(lang);
      expect(await page.locator("h1").textContent()).toBe(title);
      expect(await page.getAttribute('meta[name="robots"]', "content")).toBe("noindex");
      const html = await page.content();
      for (const secret of ["Geheime", "Streng", "Berta", "Verborgenes", "og:title"]) expect(html).not.toContain(secret);
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
      expect(await seriousA11yViolations(page)).toEqual([]);
    }
    await ctx.close();
  });

  it("a language other than de or en is 404", async () => {
    for (const address of [pageUrl("fr"), `${pageUrl("fr")}?reveal=1`]) {
      const res = await fetch(address);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain('<html lang="en">');
      expect(html).not.toContain("Annas Geburtstag");
    }
  });
});

describe("list_view metering", () => {
  it("one list_view per list, viewer and 10-minute window; bots are not viewers", async () => {
    const p = await provisioner(server);
    const partner = await p.partner("starter");
    const key = await p.key(partner.id);
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin: "https://views.example.com" } });
    expect(init.status, init.text).toBe(200);
    const shopper = await api.anonymousUser();
    const created = await api.post("/hosted/me/lists", { token: shopper.accessToken, body: { name: "Partner list" } });
    const saved = await api.post("/widget/save", {
      token: shopper.accessToken,
      headers: { "x-widget-token": init.body.token },
      body: { wishlistId: created.body.list.db_id, product: { url: "https://views.example.com/products/a", title: "Thing" } },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await api.put(`/hosted/lists/${created.body.token}`, { token: shopper.accessToken, body: { share_public: true } })).status).toBe(200);
    const listViews = async () => {
      const [row] = await sql<{ listViews: number }>(server.databaseUrl, `SELECT "listViews" FROM "UsageCounter" WHERE "partnerId" = ?`, [partner.id]);
      return Number(row?.listViews ?? 0);
    };
    const before = await listViews();

    // Headless Chromium's own user agent says "HeadlessChrome", which is a bot (no view): look like a person.
    const ctx = await context({ userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36" });
    const page = await ctx.newPage();
    // The page's beacon counts the view (the page itself may come from a CDN): once per viewer and window.
    for (let i = 0; i < 3; i++) {
      expect((await page.goto(pageUrl(i % 2 ? "de" : "en", created.body.token)))!.status()).toBe(200);
      await until("view reported", () => listViews(), (n) => n === before + 1);
    }
    const viewerCookie = await until("viewer cookie", async () => (await ctx.cookies()).find((c) => c.name === "wl_viewer"));
    expect(viewerCookie!.httpOnly).toBe(true);
    expect(await listViews()).toBe(before + 1);
    // The widget's partner supplied the item: its basket (none here) would colour the page; the default stays.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent").trim())).toBe("#1f5f4a");

    // A signed-in viewer is a viewer of its own, once.
    const viewer = await api.anonymousUser();
    await page.evaluate(async (t) => {
      await fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: t }) });
    }, viewer.accessToken);
    for (let i = 0; i < 2; i++) await page.goto(pageUrl("en", created.body.token));
    expect(await listViews()).toBe(before + 2);

    // Crawlers fetching the page for a preview count nothing.
    const bot = await fetch(pageUrl("en", created.body.token), { headers: { "user-agent": "WhatsApp/2.23.20.0" } });
    expect(bot.status).toBe(200);
    expect(await listViews()).toBe(before + 2);
    await ctx.close();
  });
});
