// The share page `/{lang}/list/{token}` in real Chromium against the built
// server: both languages, marking purchased without an account (with and
// without JavaScript), the owner's spoiler protection through the wish_user
// cookie, the localized 404 page, list_view metering, accessibility.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { newDataDir, sharedList, storeProductImage, type SharedList } from "./share-fixture.ts";

let server: TestServer;
let api: Api;
let browser: Browser;
let list: SharedList;
let hidden: SharedList;
const consoles: { errors: string[] }[] = [];

beforeAll(async () => {
  const dataDir = newDataDir();
  server = await startServer({ DATA_DIR: dataDir });
  api = await apiFor(server);
  browser = await launchBrowser();
  list = await sharedList(api, server.databaseUrl, {
    name: "Annas Geburtstag",
    description: "Bücher und Spiele",
    ownerName: "Anna Müller",
    ownerAvatar: storeProductImage(server, dataDir, "#c86432"),
    occasion: "birthday",
    products: [
      { title: "Brettspiel", price: 3999, currency: "EUR", priority: 2, imageUrl: storeProductImage(server, dataDir, "#0a64c8") },
      { title: "Roman", price: 1250, currency: "USD", priority: 4 },
    ],
  });
  hidden = await sharedList(api, server.databaseUrl, {
    name: "Geheime Liste",
    description: "Streng geheim",
    ownerName: "Berta Geheim",
    products: [{ title: "Verborgenes Ding", price: 100, currency: "EUR" }],
    makePublic: false,
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  // Every page of every context this file opened: no console errors.
  expect(consoles.flatMap((c) => c.errors)).toEqual([]);
});

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
const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 404: "Not Found" };

const pageUrl = (lang: string, token = list.token) => `${server.url}/${lang}/list/${token}`;

async function purchasedFlags(token = list.token): Promise<Record<string, boolean>> {
  const res = await api.get(`/hosted/public/lists/${token}/items`, { headers: { "user-agent": "curl/8" } });
  return Object.fromEntries(res.body.products.map((p: { title: string; purchased: boolean }) => [p.title, p.purchased]));
}

const item = (page: Page, title: string) => page.locator("li.share-item", { has: page.getByRole("heading", { name: title }) });

describe("the page in both languages", () => {
  it.each([
    {
      lang: "de",
      by: "von Anna Müller",
      occasion: "Anlass: Geburtstag",
      prices: ["12,50\u00a0$", "39,99\u00a0€"], // newest first
      priority: "Priorität 2 von 4",
      mark: "Als gekauft markieren",
      wishes: "Wünsche (2 Wünsche)",
    },
    {
      lang: "en",
      by: "by Anna Müller",
      occasion: "Occasion: Birthday",
      prices: ["$12.50", "€39.99"],
      priority: "Priority 2 of 4",
      mark: "Mark as purchased",
      wishes: "Wishes (2 wishes)",
    },
  ])("$lang: texts, prices, product links, lang attribute, hreflang and canonical", async (t) => {
    const ctx = await context();
    const page = await ctx.newPage();
    const res = await page.goto(pageUrl(t.lang));
    expect(res!.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe(t.lang);
    expect(await page.locator("h1").textContent()).toBe("Annas Geburtstag");
    await expect(page.locator(".share-owner").textContent()).resolves.toBe(t.by);
    expect(await page.locator(".share-owner img").getAttribute("alt")).toContain("Anna Müller");
    await expect(page.locator(".share-occasion").textContent()).resolves.toBe(t.occasion);
    await expect(page.locator(".share-description").textContent()).resolves.toBe("Bücher und Spiele");
    await expect(page.locator("#items-heading").textContent()).resolves.toBe(t.wishes);
    // Intl.NumberFormat for the page's locale, each item in its own currency.
    expect(await page.locator(".share-price").allTextContents()).toEqual(t.prices.map((p) => `${t.lang === "de" ? "Preis" : "Price"}: ${p}`));
    await expect(item(page, "Brettspiel").locator(".share-priority").textContent()).resolves.toBe(t.priority);
    const image = item(page, "Brettspiel").locator("img");
    expect(await image.getAttribute("src")).toMatch(/\/media\/images\/[0-9a-f]{64}\.png$/);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    const link = item(page, "Brettspiel").getByRole("link");
    expect(await link.getAttribute("href")).toMatch(/^https:\/\/shop\.example\.com\/products\//);
    expect(await link.getAttribute("rel")).toBe("noopener nofollow ugc");
    await expect(item(page, "Brettspiel").getByRole("button").textContent()).resolves.toBe(t.mark);
    const alternates = await page.$$eval('link[rel="alternate"]', (ls) => ls.map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]));
    expect(alternates).toEqual([
      ["de", pageUrl("de")],
      ["en", pageUrl("en")],
      ["x-default", pageUrl("en")],
    ]);
    expect(await page.getAttribute('link[rel="canonical"]', "href")).toBe(pageUrl(t.lang));
    // The share token never leaves the site in a Referer; the page's own form posts keep their Origin.
    expect(res!.headers()["referrer-policy"]).toBe("same-origin");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ctx.close();
  });

  it("fits a 320 px wide screen without horizontal scrolling", async () => {
    const ctx = await context({ viewport: { width: 320, height: 640 } });
    const page = await ctx.newPage();
    await page.goto(pageUrl("de"));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ctx.close();
  });
});

describe("marking purchased without an account", () => {
  it("with JavaScript: the fetcher marks and unmarks in place, no reload", async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(pageUrl("en"));
    await page.waitForFunction(() => document.querySelector('input[name="enhanced"]') !== null); // hydrated
    await page.evaluate(() => ((window as unknown as { stay: number }).stay = 1));
    await item(page, "Brettspiel").getByRole("button", { name: /Mark as purchased/ }).click();
    await item(page, "Brettspiel").getByRole("button", { name: /Unmark/ }).waitFor();
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Purchased");
    await expect.poll(() => purchasedFlags()).toEqual({ Brettspiel: true, Roman: false });
    expect(await page.evaluate(() => (window as unknown as { stay?: number }).stay)).toBe(1);
    await item(page, "Brettspiel").getByRole("button", { name: /Unmark/ }).click();
    await item(page, "Brettspiel").getByRole("button", { name: /Mark as purchased/ }).waitFor();
    await expect.poll(() => purchasedFlags()).toEqual({ Brettspiel: false, Roman: false });
    expect(await page.evaluate(() => (window as unknown as { stay?: number }).stay)).toBe(1);
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
    await page.waitForURL(pageUrl("de"));
    await expect(item(page, "Roman").locator(".share-badge").textContent()).resolves.toBe("Gekauft");
    expect(await purchasedFlags()).toEqual({ Brettspiel: false, Roman: true });
    await item(page, "Roman").getByRole("button", { name: /Markierung aufheben/ }).click();
    await page.waitForURL(pageUrl("de"));
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
    expect(await bad.text()).toContain("That did not work. Please try again.");
    const foreign = await post(`itemId=${list.itemIds[0]}&purchased=true`, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toBe("forbidden");
    const notAnItem = await post("itemId=abc&purchased=true");
    expect(notAnItem.status).toBe(404);
    const unknownItem = await post("itemId=999999999&purchased=true");
    expect(unknownItem.status).toBe(404);
    expect(await unknownItem.text()).toContain("List not found");
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
    expect(html).not.toContain("is-purchased");
    expect(html).not.toMatch(/"purchased",true|"purchased":true/); // not in the hydration data either
    await expect(page.getByRole("note").textContent()).resolves.toContain("stays hidden");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Show what was bought" }).click();
    await page.waitForURL(`${pageUrl("en")}?reveal=1`);
    await expect(item(page, "Brettspiel").locator(".share-badge").textContent()).resolves.toBe("Purchased");
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
      expect(await page.getAttribute("html", "lang")).toBe(lang);
      expect(await page.locator("h1").textContent()).toBe(title);
      const html = await page.content();
      for (const secret of ["Geheime", "Streng", "Berta", "Verborgenes", "og:title"]) expect(html).not.toContain(secret);
      expect(await seriousA11yViolations(page)).toEqual([]);
    }
    await ctx.close();
  });

  it("a language other than de or en is 404", async () => {
    const res = await fetch(pageUrl("fr"));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Annas Geburtstag");
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
    for (let i = 0; i < 3; i++) expect((await page.goto(pageUrl(i % 2 ? "de" : "en", created.body.token)))!.status()).toBe(200);
    expect((await ctx.cookies()).find((c) => c.name === "wl_viewer")?.httpOnly).toBe(true);
    expect(await listViews()).toBe(before + 1);

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
