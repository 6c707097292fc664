// What the hearts of a busy collection page cost the app: Dawn's collection with 48 cards, the app
// embed as Shopify renders it (hearts on, the header link's count listening), the real widget.js and
// wish-cards.js in Chromium. For each kind of visitor, on load and again after a reload, every request
// the page sends to the app's origin is counted (and the app proxy's, which Shopify forwards to the app):
//   a new guest (no widget session id): none;
//   a returning guest with saved products: at most one, and the right hearts filled;
//   a recognised shopper (an account holder who let this shop recognise them): at most one;
//   a signed-in store customer whose customer metafield mirror the embed wrote into the page: none,
//   and the right hearts filled.
// No product is read at load (`/products/<handle>.js` waits for the shopper to reach for a heart).
// Waits are for the state meant (hearts bound, the right ones pressed, the count shown) and then
// for the network to fall quiet, so a late request is still counted.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { launchBrowser, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { ALL_PRODUCTS, IMAGE_HOST, productSvg, renderEmbed, startThemeShop, type ThemeShop } from "../support/theme-fixture.ts";
import { until } from "../support/wait.ts";

const HOST = "busy.shop.test";
const CARDS = 48;
const COLLECTION = `/collections/all?per_page=${CARDS}`;
let api: Awaited<ReturnType<typeof sharedApi>>;
let browser: Browser;
let shop: ThemeShop;
let key: string;

const origin = () => shop.origin(HOST);
const embed = (customer?: { id: number; savedHandles?: string[] }) =>
  renderEmbed({ appUrl: api.server.url, publicKey: key, anonKey: api.anonKey, assetBase: shop.cdnOrigin, settings: { header_link: "page" }, customer });

beforeAll(async () => {
  api = await sharedApi();
  const p = await provisioner(api.server);
  const partner = await p.partner("growth");
  key = (await p.key(partner.id, { domains: [HOST] })).key as string;
  [browser, shop] = await Promise.all([launchBrowser(), startThemeShop({ theme: "dawn" })]);
});

afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

/** A visitor's browser: its own storage, the product images answered locally, every request to the app and the proxy recorded. */
async function visitor(sid?: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  await context.route(`https://${IMAGE_HOST}/**`, (route) => {
    const body = productSvg(new URL(route.request().url()).pathname.replace(/^.*\/|\.svg$/g, ""));
    return body ? route.fulfill({ contentType: "image/svg+xml", body }) : route.fulfill({ status: 404 });
  });
  // Only the shop's own page holds its widget session id.
  if (sid) await context.addInitScript(({ sid, origin }) => location.origin === origin && localStorage.setItem("wish:sid", sid), { sid, origin: origin() });
  const app = new URL(api.server.url).origin;
  const log = { app: [] as string[], proxy: [] as string[], products: [] as string[] };
  context.on("request", (req) => {
    const url = new URL(req.url());
    const line = `${req.method()} ${url.pathname}`;
    if (url.origin === app) log.app.push(line);
    else if (url.pathname.startsWith("/apps/wishlist")) log.proxy.push(line);
    else if (/^\/products\/[^/]+\.js$/.test(url.pathname)) log.products.push(line);
  });
  const console = watchConsole(context);
  const page = await context.newPage();
  return { context, page, log, console };
}

/** The handles of the cards whose heart shows saved. */
const pressed = (page: Page) =>
  page.$$eval(".wish-heart[aria-pressed=true]", (hearts) => hearts.map((h) => h.getAttribute("data-wish-cards")).sort());

/**
 * Loads (or reloads) the page with a fresh record and waits for what the visitor should see: every
 * heart bound by widget.js, exactly `saved` pressed, the header count (when something is saved),
 * then a quiet network. Answers the record of that load.
 */
async function load(v: Awaited<ReturnType<typeof visitor>>, saved: string[], how: "goto" | "reload") {
  v.log.app.length = v.log.proxy.length = v.log.products.length = 0;
  if (how === "goto") await v.page.goto(origin() + COLLECTION);
  else await v.page.reload();
  await until("every card's heart bound", () => v.page.locator(".wish-heart[aria-pressed]").count(), (n) => n === CARDS);
  await until("the saved hearts filled", () => pressed(v.page), (p) => JSON.stringify(p) === JSON.stringify([...saved].sort()));
  if (saved.length) await until("the header count", () => v.page.locator(".wish-header-count").textContent(), (t) => t === String(saved.length));
  await v.page.waitForLoadState("networkidle");
  return { app: [...v.log.app], proxy: [...v.log.proxy], products: [...v.log.products] };
}

/** A shopper whose widget session on this shop holds `handles` saved, as the dialog leaves it: saved through the shop's widget, the page granted their credential. */
async function shopperWithSaves(handles: string[], email?: string) {
  const init = await api.post("/widget/init", { token: key, body: { origin: origin() } });
  expect(init.status, init.text).toBe(200);
  const widget = { "x-widget-token": init.body.token as string, origin: origin() };
  const signup = await api.post("/auth/signup", { body: email ? { email, password: "a good long password" } : {} });
  expect(signup.status, signup.text).toBe(200);
  const accessToken = signup.body.access_token as string;
  const list = await api.post("/hosted/me/lists", { token: accessToken, body: { name: "Wishes" } });
  expect(list.status, list.text).toBe(200);
  for (const handle of handles) {
    const p = ALL_PRODUCTS.find((q) => q.handle === handle)!;
    const save = await api.post("/widget/save", {
      token: accessToken,
      headers: widget,
      body: { wishlistId: list.body.list.db_id, product: { url: `${origin()}/products/${handle}`, title: p.title, price: p.price, currency: "EUR" } },
    });
    expect(save.status, save.text).toBe(200);
  }
  const stored = await api.post("/widget/session-store", { headers: widget, body: { access_token: accessToken, refresh_token: signup.body.refresh_token, sid: init.body.sid } });
  expect(stored.status, stored.text).toBe(200);
  return init.body.sid as string;
}

async function close(v: { context: BrowserContext; console: { errors: string[] } }) {
  expect(v.console.errors).toEqual([]);
  await v.context.close();
}

describe(`heart state on a ${CARDS}-card collection page (Dawn)`, () => {
  beforeAll(() => shop.setEmbed(null));

  it("a new guest: no request to the app, on load or after a reload", async () => {
    shop.setEmbed(await embed());
    const v = await visitor();
    for (const how of ["goto", "reload"] as const) {
      const seen = await load(v, [], how);
      expect(seen, how).toEqual({ app: [], proxy: [], products: [] });
    }
    await close(v);
  });

  it("a returning guest with saved products: one request (init with the saved state), the right hearts filled, on load and after a reload", async () => {
    shop.setEmbed(await embed());
    const saved = ["item-02", "item-17", "item-41"];
    const v = await visitor(await shopperWithSaves(saved));
    for (const how of ["goto", "reload"] as const) {
      const seen = await load(v, saved, how);
      expect(seen, how).toEqual({ app: ["POST /api/v1/widget/init"], proxy: [], products: [] });
    }
    await close(v);
  });

  it("a recognised shopper (an account holder this shop may recognise): one request, the right hearts filled, on load and after a reload", async () => {
    shop.setEmbed(await embed());
    const saved = ["item-01", "item-48"];
    const v = await visitor(await shopperWithSaves(saved, `hearts-${Date.now()}@shopper.example`));
    for (const how of ["goto", "reload"] as const) {
      const seen = await load(v, saved, how);
      expect(seen, how).toEqual({ app: ["POST /api/v1/widget/init"], proxy: [], products: [] });
    }
    await close(v);
  });

  it("a signed-in store customer whose mirrored handles are in the page: no request at all, the right hearts filled, on load and after a reload", async () => {
    const saved = ["item-05", "item-24", "item-33"];
    shop.setEmbed(await embed({ id: 7, savedHandles: saved }));
    const v = await visitor();
    for (const how of ["goto", "reload"] as const) {
      const seen = await load(v, saved, how);
      expect(seen, how).toEqual({ app: [], proxy: [], products: [] });
    }
    await close(v);
  });

  it("the mirror's handles reach the page as JSON in an escaped attribute: a handle with markup characters cannot leave it", async () => {
    const hostile = ['x"><img src=x onerror=alert(1)>', "item-03"];
    shop.setEmbed(await embed({ id: 8, savedHandles: hostile }));
    const v = await visitor();
    await v.page.goto(origin() + COLLECTION);
    const attr = await v.page.locator("script[data-wish-key]").first().getAttribute("data-wish-saved-handles");
    expect(JSON.parse(attr!)).toEqual(hostile);
    expect(await v.page.locator("img[src=x]").count()).toBe(0);
    await until("the saved heart filled", () => pressed(v.page), (p) => JSON.stringify(p) === '["item-03"]');
    await close(v);
  });
});
