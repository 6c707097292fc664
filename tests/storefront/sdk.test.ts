// The shop-page scripts (SPEC 4.7, 6.1, 9; docs/storefront-protocol.md):
// built sizes, how they are served, and widget.js / basket-integration.js in
// real Chromium on a shop origin (*.shop.test) cross-origin to the app. The
// hosted pages are stand-ins served at the app's real /dialog/* addresses by
// request interception: these tests cover the scripts' side of the protocol.
import { readFileSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { launchBrowser, seriousA11yViolations, watchConsole, type ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { daysAgo, provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser;
let shop: ShopServer;
let browserShop: BrowserAndShop;
/** Every browser context of this file; `failedCall`: the status of one API call the test expects to fail. */
const contexts: Array<{ context: BrowserContext; console: { errors: string[] }; failedCall?: number }> = [];

beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
  ({ browser, shop } = browserShop = await startBrowserAndShop());
});

afterAll(() => browserShop?.stop());

const app = () => api.server.url;
// No favicon request (the stand-in shop would answer 404).
const HEAD = `<link rel="icon" href="data:,">`;
const SHOP = () => shop.origin("shop.shop.test");
let pageCounter = 0;

async function testKey(opts: { domains?: string[] } = {}) {
  const partner = await p.partner();
  return { partner, key: (await p.key(partner.id, { domains: opts.domains })).key as string };
}

// ------------------------------------------------------------ shop pages

/** Records every WishWidget event of the page instance into window.events. */
const RECORD = `<script>
window.events = [];
["saved", "close", "open", "error"].forEach(function (name) {
  WishWidget.on(name, function (p) {
    window.events.push({ name: name, code: p && p.code, trial_expired: p && p.trial_expired, token: p && p.token, item: name === "saved" ? p : undefined });
  });
});
</script>`;

interface ShopPage {
  page: Page;
  context: BrowserContext;
  url: string;
}

/**
 * A shop page (cross-origin to the app) with `body`; /dialog/* on the app
 * answers with a stand-in page. `sid` is put into localStorage before load.
 */
async function openShop(body: string, opts: { sid?: string; lang?: string; failedCall?: number; in?: Browser } = {}): Promise<ShopPage> {
  const context = await (opts.in ?? browser).newContext();
  contexts.push({ context, console: watchConsole(context), failedCall: opts.failedCall });
  await context.route(
    (url) => url.origin === app() && url.pathname.startsWith("/dialog/"),
    (route) =>
      route.fulfill({
        contentType: "text/html; charset=utf-8",
        body: `<!doctype html><html lang="en"><head><title>Stand-in</title></head><body><main><h1>Stand-in dialog</h1></main>${
          new URL(route.request().url()).pathname === "/dialog/basket" ? BASKET_STAND_IN : ""
        }</body></html>`,
      }),
  );
  if (opts.sid) {
    await context.addInitScript(
      ([sid, shopOrigin]) => location.origin === shopOrigin && localStorage.setItem("wish:sid", sid),
      [opts.sid, SHOP()] as const,
    );
  }
  const pathname = `/p${++pageCounter}`;
  shop.page(pathname, `<!doctype html><html lang="${opts.lang ?? "en"}"><head><title>Shop</title>${HEAD}</head><body><main>${body}</main></body></html>`);
  const page = await context.newPage();
  const url = SHOP() + pathname;
  await page.goto(url);
  return { page, context, url };
}

const widgetTag = (attrs: string) => `<script src="${app()}/sdk/v1/widget.js" ${attrs}></script>${RECORD}`;

const events = (page: Page) => page.evaluate(() => (window as any).events as Array<Record<string, any>>);

async function waitForEvent(page: Page, name: string, count = 1) {
  await page.waitForFunction(([n, c]) => (window as any).events.filter((e: any) => e.name === n).length >= c, [name, count] as const);
  return (await events(page)).filter((e) => e.name === name);
}

// ------------------------------------------------------------ built files and serving

describe("built scripts", () => {
  it("stay within the gzip size budgets (measured on the built files, before placeholder substitution)", () => {
    const gz = (name: string) => gzipSync(readFileSync(path.join(root, "build/sdk", name))).length;
    const widget = gz("widget.js");
    const basket = gz("basket-integration.js");
    console.log(`sdk sizes (gzip): widget.js ${widget} B, basket-integration.js ${basket} B`);
    expect(widget).toBeLessThanOrEqual(5120); // the product's 5 KB
    expect(basket).toBeLessThanOrEqual(4096);
    // One IIFE each, no framework inside.
    for (const name of ["widget.js", "basket-integration.js"]) {
      const code = readFileSync(path.join(root, "build/sdk", name), "utf8");
      expect(code.trimStart().startsWith("(()=>{") || code.trimStart().startsWith("\"use strict\";(()=>{")).toBe(true);
      expect(code).not.toMatch(/react/i);
    }
  });
});

describe("serving", () => {
  const get = (p: string, headers: Record<string, string> = {}) => fetch(app() + p, { headers, redirect: "manual" });

  it("the v1 alias: JavaScript, short cache with ETag, 304 on If-None-Match, placeholders substituted", async () => {
    const anonKey = api.anonKey;
    for (const name of ["widget.js", "basket-integration.js"]) {
      const res = await get(`/sdk/v1/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      const code = await res.text();
      // Both placeholders substituted (the bare prefix "__WISH_" stays: the scripts test for it to tell
      // a served copy from the theme app extension's, which reads data-wish-app-url / data-wish-anon-key).
      expect(code).not.toContain("__WISH_APP_URL__");
      expect(code).not.toContain("__WISH_ANON_KEY__");
      expect(code).toContain(anonKey);
      expect(code).toContain(app());

      const again = await get(`/sdk/v1/${name}`, { "if-none-match": etag });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
      expect((await get(`/sdk/v1/${name}`, { "if-none-match": '"other"' })).status).toBe(200);
    }
  });

  it("gzip when the browser accepts it (Vary: Accept-Encoding), the same script inside; identity otherwise", async () => {
    // node:http, not fetch: fetch would decode the body and hide the encoding.
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(app() + "/sdk/v1/widget.js", { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const plain = await raw({});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    const zipped = await raw({ "accept-encoding": "br, gzip, deflate" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 1.5);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect((await raw({ "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();
  });

  it("content-hashed copies are immutable and identical to the alias; unknown files 404", async () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "build/sdk/manifest.json"), "utf8"));
    expect(manifest.widget).toMatch(/^widget\.[0-9a-f]{10}\.js$/);
    expect(manifest["basket-integration"]).toMatch(/^basket-integration\.[0-9a-f]{10}\.js$/);
    const pinned = await get(`/sdk/v1/${manifest.widget}`);
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(pinned.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await pinned.text()).toBe(await (await get("/sdk/v1/widget.js")).text());

    for (const unknown of ["/sdk/v1/nope.js", "/sdk/v1/widget.0000000000.js", "/sdk/v1/manifest.json", "/sdk/v1/..%2Fmanifest.json"]) {
      const res = await get(unknown);
      expect(res.status, unknown).toBe(404);
      expect((await res.json()).error).toBe("not_found");
    }
    const post = await fetch(app() + "/sdk/v1/widget.js", { method: "POST" });
    expect(post.status).toBe(405);
  });

  it("deprecated script paths redirect permanently to the canonical files", async () => {
    const cases = [
      ["/sdk/save-sdk.js", "/sdk/v1/widget.js"],
      ["/widget.js", "/sdk/v1/widget.js"],
      ["/sdk/basket-integration.js", "/sdk/v1/basket-integration.js"],
    ];
    for (const [from, to] of cases) {
      const res = await get(from!);
      expect(res.status, from).toBe(301);
      expect(new URL(res.headers.get("location")!, app()).pathname).toBe(to);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const followed = await fetch(app() + from);
      expect(followed.status).toBe(200);
      expect(followed.headers.get("content-type")).toMatch(/javascript/);
    }
  });
});

// ------------------------------------------------------------ widget.js

describe("widget.js binding", () => {
  it("reads its key from the script tag, marks buttons, binds buttons added later and opens the dialog with the product", async () => {
    const { key } = await testKey();
    const { page, context } = await openShop(
      `<button id="mug" data-wish data-url="/products/mug?utm_source=mail" data-id="sku-1" data-offer-id="7" data-title="Mug" data-price="1299" data-currency="EUR" data-metadata='{"variant_id":42,"quantity":2}'>Save</button>
       ${widgetTag(`data-wish-key="${key}" data-wish-locale="en-US"`)}`,
    );
    expect(await page.evaluate(() => (window as any).WishWidget.config)).toMatchObject({ key, environment: "test", locale: "en-US", apiBase: app() });
    await expect.poll(() => page.getAttribute("button", "aria-pressed")).toBe("false");

    // A button added after load is bound (MutationObserver), with the default market.
    await page.evaluate(() => {
      const b = document.createElement("button");
      b.id = "late";
      b.textContent = "Save late";
      b.setAttribute("data-wish", "");
      b.setAttribute("data-url", "https://brand.example/products/late");
      document.querySelector("main")!.appendChild(b);
    });
    await expect.poll(() => page.getAttribute("#late", "aria-pressed")).toBe("false");

    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#late")]);
    await popup.waitForURL(/\/dialog\/save#/);
    const [opened] = await waitForEvent(page, "open");
    const fragment = new URLSearchParams(new URL(popup.url()).hash.slice(1));
    expect(popup.url().startsWith(`${app()}/dialog/save#`)).toBe(true);
    expect(fragment.get("token")).toBe(opened!.token);
    expect(fragment.get("locale")).toBe("en-US");
    expect(JSON.parse(fragment.get("product")!)).toEqual({ url: "https://brand.example/products/late", marketCode: "de-DE" });

    // The token is a real widget token for the shop's origin.
    const user = await api.anonymousUser();
    const lists = await api.post("/widget/lists", { token: user.accessToken, headers: { "x-widget-token": opened!.token, origin: SHOP() } });
    expect(lists.status).toBe(200);
    const elsewhere = await api.post("/widget/lists", {
      token: user.accessToken,
      headers: { "x-widget-token": opened!.token, origin: "https://other.example" },
    });
    expect(elsewhere.status).toBe(403);

    // Closing the popup is noticed (popup.closed check) and emitted once.
    await popup.close();
    await waitForEvent(page, "close");

    // The first button: every attribute of the SPEC 4.7 table.
    const [second] = await Promise.all([context.waitForEvent("page"), page.click("#mug")]);
    await second.waitForURL(/\/dialog\/save#/);
    const product = JSON.parse(new URLSearchParams(new URL(second.url()).hash.slice(1)).get("product")!);
    expect(product).toEqual({
      url: `${SHOP()}/products/mug?utm_source=mail`,
      title: "Mug",
      price: 1299,
      currency: "EUR",
      marketCode: "de-DE",
      offerId: 7,
      metadata: { variant_id: 42, quantity: 2, product_id: "sku-1" },
    });
    await second.close();
    await waitForEvent(page, "close", 2);
    expect((await events(page)).filter((e) => e.name === "open")).toHaveLength(2);
    await context.close();
  });

  it("reads the legacy data-wish-public-key and the html element's attributes", async () => {
    const { key } = await testKey();
    const context = await browser.newContext();
    contexts.push({ context, console: watchConsole(context) });
    shop.page(
      "/legacy",
      `<!doctype html><html lang="de" data-wish-locale="de-AT" data-wish-allowed-domains="shop.shop.test, *.brand.example"><head><title>Shop</title>${HEAD}</head><body>
       <script src="${app()}/sdk/v1/widget.js" data-wish-public-key="${key}"></script></body></html>`,
    );
    const page = await context.newPage();
    await page.goto(SHOP() + "/legacy");
    expect(await page.evaluate(() => (window as any).WishWidget.config)).toMatchObject({
      key,
      locale: "de-AT",
      allowedDomains: ["shop.shop.test", "*.brand.example"],
    });
    await context.close();
  });
});

describe("widget.js messages", () => {
  it("ignores messages from its popup once it shows another origin", async () => {
    const { key } = await testKey();
    const { page, context } = await openShop(`<button data-wish data-url="https://brand.example/p">Save</button>${widgetTag(`data-wish-key="${key}"`)}`);
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("button")]);
    await popup.waitForURL(/\/dialog\/save#/);
    const evil = shop.origin("evil.shop.test");
    shop.page(
      "/evil",
      `<!doctype html><html lang="en"><head><title>Evil</title>${HEAD}</head><body><script>
        opener.postMessage({ source: "wish", type: "saved", item: { product: { url: "https://brand.example/p" } } }, "*");
        opener.postMessage({ source: "wish", type: "close" }, "*");
        document.title = "sent";
      </script></body></html>`,
    );
    // Navigated by the page itself (a browser-initiated goto would cut the opener).
    await Promise.all([popup.waitForURL(evil + "/evil"), popup.evaluate((url) => (location.href = url), evil + "/evil")]);
    await popup.waitForFunction(() => document.title === "sent");
    await page.waitForTimeout(200);
    expect((await events(page)).map((e) => e.name)).toEqual(["open"]);
    expect(await page.getAttribute("button", "aria-pressed")).toBe("false");
    await popup.close();
    await waitForEvent(page, "close");
    await context.close();
  });
});

describe("widget.js loaded twice", () => {
  it("the first copy stays in charge: one binding, one dialog per click", async () => {
    const { key } = await testKey();
    const { page, context } = await openShop(
      `<button data-wish data-url="https://brand.example/p">Save</button>
       ${widgetTag(`data-wish-key="${key}"`)}<script src="${app()}/sdk/v1/widget.js" data-wish-key="pk_test_second"></script>`,
    );
    expect(await page.evaluate(() => (window as any).WishWidget.config.key)).toBe(key);
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("button")]);
    await popup.waitForURL(/\/dialog\/save#/);
    await waitForEvent(page, "open");
    await page.waitForTimeout(300);
    expect((await events(page)).map((e) => e.name)).toEqual(["open"]);
    await popup.close();
    await waitForEvent(page, "close");
    await context.close();
  });
});

describe("widget.js errors", () => {
  it("open() outside a user gesture: popup_blocked, no popup", async () => {
    const { key } = await testKey();
    // The popup blocker belongs to the desktop browser's layer, which the headless shell lacks.
    const fullBrowser = await launchBrowser("chromium");
    try {
      // Called by the page's own script while it loads: no gesture (page.evaluate would give the frame one).
      const { page, context } = await openShop(
        `${widgetTag(`data-wish-key="${key}"`)}<script>
          window.handle = WishWidget.open({ productUrl: "https://brand.example/p" });
          window.handle.ready.catch(function (e) { window.rejected = e.code; });
        </script>`,
        { in: fullBrowser },
      );
      const [blocked] = await waitForEvent(page, "error");
      expect(blocked!.code).toBe("popup_blocked");
      await expect.poll(() => page.evaluate(() => (window as any).rejected)).toBe("popup_blocked");
      expect(context.pages()).toHaveLength(1);
      await context.close();
    } finally {
      await fullBrowser.close();
    }
  });

  it("origin_not_allowed from init: error event, the popup is closed again", async () => {
    const { key } = await testKey({ domains: ["allowed.example.com"] });
    const { page, context } = await openShop(`<button data-wish data-url="https://brand.example/p">Save</button>${widgetTag(`data-wish-key="${key}"`)}`, {
      failedCall: 403,
    });
    const popupSeen = context.waitForEvent("page");
    await page.click("button");
    const popup = await popupSeen;
    const [error] = await waitForEvent(page, "error");
    expect(error).toMatchObject({ code: "origin_not_allowed" });
    await expect.poll(() => popup.isClosed()).toBe(true);
    expect(context.pages()).toHaveLength(1);
    expect((await events(page)).some((e) => e.name === "open")).toBe(false);
    await context.close();
  });

  it("subscription_required (trial ended): error with trial_expired, no dialog, buttons inert afterwards", async () => {
    const partner = await p.partner("free");
    await p.shop(partner.id, { installedAt: daysAgo(15) });
    const key = (await p.key(partner.id)).key;
    const { page, context } = await openShop(`<button data-wish data-url="https://brand.example/p">Save</button>${widgetTag(`data-wish-key="${key}"`)}`, {
      failedCall: 403,
    });
    let popups = 0;
    context.on("page", () => popups++);
    await page.click("button");
    const [error] = await waitForEvent(page, "error");
    expect(error).toMatchObject({ code: "subscription_required", trial_expired: true });
    await expect.poll(() => context.pages().length).toBe(1);
    expect(popups).toBe(1);

    // Afterwards a click opens nothing at all and reports the same error.
    await page.click("button");
    const errors = await waitForEvent(page, "error", 2);
    expect(errors[1]).toMatchObject({ code: "subscription_required", trial_expired: true });
    expect(popups).toBe(1);
    expect(context.pages()).toHaveLength(1);
    expect((await events(page)).some((e) => e.name === "open")).toBe(false);
    await context.close();
  });

  it("key_required, not_initialised, mount_target_not_found", async () => {
    const { page, context } = await openShop(widgetTag(""));
    const result = await page.evaluate(async () => {
      const W = (window as any).WishWidget;
      const notInit = await W.open({ url: "https://brand.example/p" }).ready.catch((e: any) => e.code);
      W.init({});
      let thrown = "";
      try {
        W.mount("#nowhere", { url: "https://brand.example/p" });
      } catch (e: any) {
        thrown = e.code;
      }
      return { notInit, thrown, key: W.config.key };
    });
    expect(result).toEqual({ notInit: "not_initialised", thrown: "mount_target_not_found", key: "" });
    expect((await events(page)).filter((e) => e.name === "error").map((e) => e.code)).toEqual([
      "not_initialised",
      "key_required",
      "mount_target_not_found",
    ]);
    await context.close();
  });
});

describe("widget.js programmatic API", () => {
  it("mount renders an accessible localized save button that opens the dialog; unmount removes it", async () => {
    const { key } = await testKey();
    const { page, context } = await openShop(`<div id="slot"></div>${widgetTag(`data-wish-key="${key}"`)}`, { lang: "de" });
    await page.evaluate(() => {
      (window as any).unmount = (window as any).WishWidget.mount(document.getElementById("slot"), {
        productUrl: "https://brand.example/products/lamp",
        productId: 99,
        locale: "en-GB",
        price: 4990,
      });
    });
    const button = page.locator("#slot button");
    expect(await button.getAttribute("type")).toBe("button");
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(await button.textContent()).toBe("Auf die Wunschliste");
    expect(await seriousA11yViolations(page)).toEqual([]);

    const [popup] = await Promise.all([context.waitForEvent("page"), button.click()]);
    await popup.waitForURL(/\/dialog\/save#/);
    expect(JSON.parse(new URLSearchParams(new URL(popup.url()).hash.slice(1)).get("product")!)).toEqual({
      url: "https://brand.example/products/lamp",
      price: 4990,
      marketCode: "en-GB",
      metadata: { product_id: "99" },
    });
    await popup.close();
    await waitForEvent(page, "close");

    await page.evaluate(() => (window as any).unmount());
    expect(await page.locator("#slot button").count()).toBe(0);
    await context.close();
  });

  it("on returns an unsubscribe function, off removes a listener, createInstance is independent", async () => {
    const { key } = await testKey();
    const { page, context } = await openShop(widgetTag(`data-wish-key="${key}"`));
    const result = await page.evaluate((otherKey) => {
      const W = (window as any).WishWidget;
      const a = W.createInstance({ publicKey: otherKey, locale: "en-US", allowedDomains: ["x.example"] });
      const b = W.createInstance();
      const seen = { a: 0, b: 0, page: 0 };
      a.on("error", () => seen.a++);
      const cb = () => seen.b++;
      const unsubscribe = b.on("error", cb);
      W.on("error", () => seen.page++);
      b.open({ url: "https://brand.example/p" }); // not_initialised: b only
      unsubscribe();
      b.open({ url: "https://brand.example/p" });
      b.on("error", cb);
      b.off("error", cb);
      b.open({ url: "https://brand.example/p" });
      // a's allowedDomains exclude this shop: refused before any popup.
      const aError = a.open({ url: "https://brand.example/p" }).ready.catch((e: any) => e.code);
      return aError.then((code: string) => ({ seen, code, a: a.config, b: b.config.key, page: W.config.key }));
    }, "pk_test_other");
    expect(result.seen).toEqual({ a: 1, b: 1, page: 0 });
    expect(result.code).toBe("origin_not_allowed");
    expect(result.a).toMatchObject({ key: "pk_test_other", locale: "en-US", environment: "test" });
    expect(result.b).toBe("");
    expect(result.page).toBe(key);
    expect(context.pages()).toHaveLength(1);
    await context.close();
  });
});

describe("widget.js saved state", () => {
  it("marks buttons of products saved in the stored session, and updates on a saved message from the dialog only", async () => {
    const { key } = await testKey();
    const origin = SHOP();
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin } });
    expect(init.status).toBe(200);
    const { token, sid } = init.body as { token: string; sid: string };
    const user = await api.anonymousUser();
    const me = await api.post("/hosted/me/init", { token: user.accessToken });
    const saved = await api.post("/widget/save", {
      token: user.accessToken,
      headers: { "x-widget-token": token, origin },
      body: { wishlistId: me.body.list.db_id, product: { url: "https://brand.example/products/saved", title: "Saved" } },
    });
    expect(saved.status).toBe(200);
    const stored = await api.post("/widget/session-store", {
      headers: { "x-widget-token": token, origin },
      body: { sid, access_token: user.accessToken, refresh_token: user.refreshToken },
    });
    expect(stored.status).toBe(200);

    const { page, context } = await openShop(
      `<button id="saved" data-wish data-url="https://brand.example/products/saved/?utm_campaign=x">Saved one</button>
       <button id="other" data-wish data-url="https://brand.example/products/other">Other</button>
       <button id="third" data-wish data-url="https://brand.example/products/third">Third</button>
       ${widgetTag(`data-wish-key="${key}"`)}`,
      { sid },
    );
    const heartReads: string[] = [];
    context.on("request", (r) => void (r.url().includes("/widget/saved-products") && heartReads.push(new URL(r.url()).search)));
    await expect.poll(() => page.getAttribute("#saved", "aria-pressed")).toBe("true");
    // No change of this browser's own yet: heart state may come from a read replica.
    expect(await page.evaluate(() => localStorage.getItem("wish:changed"))).toBeNull();
    expect(await page.getAttribute("#saved", "class")).toContain("wish-saved");
    expect(await page.getAttribute("#other", "aria-pressed")).toBe("false");
    expect(await page.getAttribute("#other", "class")).toBe("wish-default");
    // The default look: a saved plain-text button says so, and keeps its own label otherwise.
    expect(await page.textContent("#saved")).toBe("Saved");
    expect(await page.getAttribute("#saved", "data-wish-state")).toBe("saved");
    expect(await page.textContent("#other")).toBe("Other");

    // A forged message from the page itself (wrong origin and source) changes nothing.
    await page.evaluate(() => window.postMessage({ source: "wish", type: "saved", item: { product: { url: "https://brand.example/products/other" } } }, "*"));

    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#other")]);
    await popup.waitForURL(/\/dialog\/save#/);
    expect((await events(page)).some((e) => e.name === "saved")).toBe(false);
    expect(await page.getAttribute("#other", "aria-pressed")).toBe("false");

    // What the dialog does: save, then tell the opener (exact origin).
    const dialogToken = new URLSearchParams(new URL(popup.url()).hash.slice(1)).get("token")!;
    const second = await api.post("/widget/save", {
      token: user.accessToken,
      headers: { "x-widget-token": dialogToken, origin },
      body: { wishlistId: me.body.list.db_id, product: { url: "https://brand.example/products/other" } },
    });
    expect(second.status).toBe(200);
    const item = { item_id: second.body.item_id, product_id: second.body.product_id, product: { url: "https://brand.example/products/other" } };
    await popup.evaluate(([msg, target]) => window.opener.postMessage(msg, target), [{ source: "wish", type: "saved", item }, origin] as const);
    const [savedEvent] = await waitForEvent(page, "saved");
    expect(savedEvent!.item).toEqual(item);
    await expect.poll(() => page.getAttribute("#other", "aria-pressed")).toBe("true");
    expect(await page.getAttribute("#other", "class")).toContain("wish-saved");

    // A `session` message (the dialog stored a session) refreshes the saved state from the server.
    expect(await page.getAttribute("#third", "aria-pressed")).toBe("false");
    const third = await api.post("/widget/save", {
      token: user.accessToken,
      headers: { "x-widget-token": dialogToken, origin },
      body: { wishlistId: me.body.list.db_id, product: { url: "https://brand.example/products/third" } },
    });
    expect(third.status).toBe(200);
    const readsBefore = heartReads.length;
    await popup.evaluate((target) => window.opener.postMessage({ source: "wish", type: "session" }, target), origin);
    await expect.poll(() => page.getAttribute("#third", "aria-pressed")).toBe("true");
    // Right after a save of its own, the widget asks for the primary (docs/operations.md "With a read replica").
    expect(heartReads.slice(readsBefore)).toEqual(["?fresh=1"]);
    // Kept in the script's memory: this page allowed no preferences, so nothing is stored for the shop's other pages.
    expect(await page.evaluate(() => localStorage.getItem("wish:changed"))).toBeNull();
    expect((await events(page)).filter((e) => e.name === "saved")).toHaveLength(1);
    await popup.close();
    await waitForEvent(page, "close");
    expect(await page.evaluate(() => localStorage.getItem("wish:sid"))).toBe(sid);
    await context.close();
  });

  it("makes no request to the app at load when no sid is stored", async () => {
    const { key } = await testKey();
    const context = await browser.newContext();
    contexts.push({ context, console: watchConsole(context) });
    const requests: string[] = [];
    context.on("request", (r) => requests.push(r.url()));
    shop.page("/quiet", `<!doctype html><html lang="en"><head><title>Shop</title>${HEAD}</head><body><button data-wish data-url="/p">Save</button><script src="${app()}/sdk/v1/widget.js" data-wish-key="${key}"></script></body></html>`);
    const page = await context.newPage();
    await page.goto(SHOP() + "/quiet");
    await expect.poll(() => page.getAttribute("button", "aria-pressed")).toBe("false");
    await page.waitForTimeout(300);
    expect(requests.filter((u) => u.startsWith(app()))).toEqual([`${app()}/sdk/v1/widget.js`]);
    await context.close();
  });
});

// ------------------------------------------------------------ basket-integration.js

/** The drawer stand-in: announces itself, records basket-init, and can post a cart on request. */
const BASKET_STAND_IN = `<script>
window.received = [];
addEventListener("message", function (ev) { if (ev.source === parent) window.received.push({ origin: ev.origin, data: ev.data }); });
parent.postMessage({ source: "wish", type: "basket-ready" }, "*");
</script>`;

async function basketPage(configId: string, key: string, opts: { failedCall?: number } = {}) {
  const opened = await openShop(
    `<button data-wish-basket>Wishlist</button>
     <script src="${app()}/sdk/v1/basket-integration.js"></script>
     <script>
       window.basketEvents = [];
       WishBasket.on("error", function (e) { window.basketEvents.push("error:" + e.code); });
       WishBasket.on("close", function () { window.basketEvents.push("close"); });
       window.initResult = WishBasket.init({ apiKey: ${JSON.stringify(key)}, configId: ${JSON.stringify(configId)},
         cartUrl: "/cart/add?id={variant_id}&quantity={quantity}", locale: "en-US" })
         .then(function (c) { return { layout: c.layout, id: c.id }; }, function (e) { return { error: e.code }; });
     </script>`,
    opts,
  );
  return { ...opened, init: await opened.page.evaluate(() => (window as any).initResult) };
}

async function drawerFrame(page: Page): Promise<Frame> {
  await page.waitForFunction(() => document.querySelector("iframe"));
  let frame: Frame | undefined;
  await expect.poll(() => (frame = page.frames().find((f) => f.url().includes("/dialog/basket"))) !== undefined).toBe(true);
  await frame!.waitForFunction(() => (window as any).received?.length > 0);
  return frame!;
}

describe("basket-integration.js", () => {
  let configId: string;
  let key: string;
  beforeAll(async () => {
    const made = await testKey();
    key = made.key;
    const baskets = await import("~/domains/baskets/baskets.server");
    configId = (await baskets.createBasketConfig(made.partner.id, { layout: "drawer" })).basket.id;
  });

  it("init rejects an unknown basket with not_found", async () => {
    const { init, page, context } = await basketPage("bkt_doesnotexist0000000000", key, { failedCall: 404 });
    expect(init).toEqual({ error: "not_found" });
    expect(await page.evaluate(() => (window as any).basketEvents)).toEqual(["error:not_found"]);
    await page.click("button");
    expect(await page.locator("iframe").count()).toBe(0);
    await context.close();
  });

  it("an opener inserts the drawer; the handshake sends a widget token for the shop origin; one cart line navigates", async () => {
    const { init, page, context } = await basketPage(configId, key);
    expect(init).toEqual({ layout: "drawer", id: configId });
    await page.click("button");
    const src = await page.getAttribute("iframe", "src");
    expect(src).toBe(`${app()}/dialog/basket?config=${configId}&locale=en-US`);
    expect(await page.getAttribute("iframe", "title")).toBe("Wishlist");

    const frame = await drawerFrame(page);
    const [received] = await frame.evaluate(() => (window as any).received);
    expect(received.origin).toBe(SHOP());
    expect(received.data).toMatchObject({ source: "wish", type: "basket-init", accessToken: null });
    const claims = JSON.parse(Buffer.from(received.data.token.split(".")[1], "base64url").toString());
    expect(claims.origin).toBe(SHOP());
    expect(await page.evaluate(() => localStorage.getItem("wish:sid"))).toBe(claims.sid);

    shop.page("/cart/add", "<!doctype html><html lang='en'><head><title>Cart</title></head><body><h1>Cart</h1></body></html>");
    await frame.evaluate((target) => parent.postMessage({ source: "wish", type: "cart", lines: [{ variantId: "4 2", quantity: 3 }] }, target), SHOP());
    await page.waitForURL(`${SHOP()}/cart/add?id=4%202&quantity=3`);
    await context.close();
  });

  it("several cart lines: all but the last requested in the background, then the last navigated; basket-close closes", async () => {
    const { page, context } = await basketPage(configId, key);
    await page.click("button");
    const frame = await drawerFrame(page);
    await frame.evaluate(() => parent.postMessage({ source: "wish", type: "basket-close" }, "*"));
    await expect.poll(() => page.locator("iframe").count()).toBe(0);
    expect(await page.evaluate(() => (window as any).basketEvents)).toEqual(["close"]);

    await page.click("button");
    const again = await drawerFrame(page);
    const before = shop.requests.length;
    await again.evaluate(() =>
      parent.postMessage({ source: "wish", type: "cart", lines: [{ variantId: 11 }, { variantId: 12, quantity: 2 }, { variantId: 13, quantity: 1 }] }, "*"),
    );
    await page.waitForURL(`${SHOP()}/cart/add?id=13&quantity=1`);
    expect(shop.requests.slice(before).filter((r) => r.startsWith("/cart/"))).toEqual(["/cart/add?id=11&quantity=1", "/cart/add?id=12&quantity=2", "/cart/add?id=13&quantity=1"]);
    await context.close();
  });
});

describe("console", () => {
  it("no console errors on any shop page, popup or frame of this file", () => {
    expect(contexts.length).toBeGreaterThan(5);
    // An API call the test makes fail (refused init, unknown basket) is reported by the browser itself; nothing else is allowed.
    const failed = (status?: number) => `Failed to load resource: the server responded with a status of ${status} `;
    const errors = contexts.flatMap((c) => c.console.errors.filter((e) => !(c.failedCall && e.includes(failed(c.failedCall)))));
    expect(errors).toEqual([]);
    expect(contexts.filter((c) => c.failedCall).every((c) => c.console.errors.length === 1)).toBe(true);
  });
});
