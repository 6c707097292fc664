// The wishlist page on the shop's own domain and widget.js on a Shopify store,
// in Chromium: a stand-in storefront forwards /apps/wishlist/* to the app as
// Shopify's app proxy does (signed, the signed-in customer named) and renders
// the Liquid answer with a Liquid engine in a theme layout. Add to cart posts
// the item's signed reference to the AJAX cart, remove and share work, axe is
// clean at 375 and 1280 px (screenshots in tests/screenshots/), and a
// signed-in customer saves with one click, without the dialog.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, sharedShopifyApi } from "../support/api.ts";
import { signedProxyQuery } from "../support/app-proxy.ts";
import { clickAndClose, launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";
import { SHARED_SHOPIFY } from "../support/shared-shopify.ts";
import { startStorefront, type Storefront } from "../support/shopify-storefront.ts";

// The shared server with the Shopify app's keys; the shop, its key and its customers are this file's own.
const SECRET = SHARED_SHOPIFY.secret;
const screenshots = path.join(root, "tests/screenshots");
let server: Awaited<ReturnType<typeof sharedShopifyApi>>["server"];
let api: Api;
let browser: Browser;
let store: Storefront;
let db: Awaited<typeof import("~/db.server")>["db"];
let shop: { id: number; partnerId: number };
let publicKey: string;
const SHOP_DOMAIN = `page-${Math.random().toString(36).slice(2, 8)}.myshopify.com`;

beforeAll(async () => {
  const shared = await sharedShopifyApi();
  [api, server] = [shared, shared.server];
  const p = await provisioner(server);
  ({ db } = await import("~/db.server"));
  const partner = await p.partner();
  shop = await p.shop(partner.id, { domain: SHOP_DOMAIN });
  publicKey = (await p.key(partner.id, { domains: ["store.shop.test"] })).key;
  [browser, store] = await Promise.all([launchBrowser(), startStorefront({ appUrl: server.url, secret: SECRET, shopDomain: SHOP_DOMAIN })]);
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await store?.stop();
});

let nextCustomer = 8_100_000_000;

/** A customer with `titles` saved (each with a Shopify variant), through the proxy's session and the widget API. */
async function customerWith(titles: string[], money: Array<{ price: number; currency: string }> = []) {
  const customer = String(nextCustomer++);
  const query = signedProxyQuery({ shop: SHOP_DOMAIN, customerId: customer }, SECRET);
  const res = await fetch(`${server.url}/proxy/session?${query}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const s = await res.json();
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${publicKey}` }, body: { origin: store.origin } });
  const items: number[] = [];
  for (const [i, title] of titles.entries()) {
    const saved = await api.post("/widget/save", {
      token: s.session.access_token,
      headers: { "x-widget-token": init.body.token, origin: store.origin },
      body: { wishlistId: s.list.id, product: { url: `${store.origin}/products/item-${i}-${customer}`, title, ...(money[i] ?? { price: 2490 + i * 1000, currency: "EUR" }), metadata: { variantId: String(40_000 + i) } }, siteDomain: "store.shop.test" },
    });
    expect(saved.status, saved.text).toBe(200);
    items.push(saved.body.item_id);
  }
  return { customer, userId: s.session.user.id as string, items };
}

/** A guest of this store's widget session: init, an anonymous shopper, their list, the session stored for the sid. */
async function storeGuest() {
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${publicKey}` }, body: { origin: store.origin } });
  const guest = await api.anonymousUser();
  const me = await api.post("/hosted/me/init", { token: guest.accessToken });
  const stored = await api.post("/widget/session-store", { headers: { "x-widget-token": init.body.token }, body: { sid: init.body.sid, access_token: guest.accessToken } });
  expect(stored.status, stored.text).toBe(200);
  return { init, guest, me };
}

async function openAs(customer: string | null, pathname: string, width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const console = watchConsole(context);
  if (customer) await context.addCookies([{ name: "customer", value: customer, url: store.origin }]);
  const page = await context.newPage();
  // Paths of the answers the page has received (the widget's requests to the API and the proxy).
  const answered: string[] = [];
  page.on("response", (res) => answered.push(new URL(res.url()).pathname));
  await page.goto(store.origin + pathname);
  return { context, page, console, answered };
}

describe("the wishlist page /apps/wishlist", () => {
  it("shows each price in its currency's own minor unit: JPY 1500 is ¥1,500, KWD 12345 is KWD 12.345", async () => {
    const c = await customerWith(["Tea bowl", "Brass lamp"], [{ price: 1500, currency: "JPY" }, { price: 12345, currency: "KWD" }]);
    const { context, page, console } = await openAs(c.customer, "/apps/wishlist");
    const priceOf = (title: string) => page.locator(".wishp-item", { hasText: title }).locator(":scope > span:not(.wishp-img)").textContent();
    expect(await priceOf("Tea bowl")).toBe("¥1,500");
    expect(await priceOf("Brass lamp")).toBe("KWD\u00a012.345");
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("lists the customer's items; add to cart posts the signed reference, remove and share work", async () => {
    const c = await customerWith(["Linen shirt", "Wool {{ customer.email }} scarf"]);
    const { context, page, console } = await openAs(c.customer, "/apps/wishlist");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Wishlist");
    expect(await page.locator(".wishp-item").count()).toBe(2);
    // The title arrived as text: the Liquid engine did not run it.
    expect(await page.locator(".wishp-title").allTextContents()).toContain("Wool {{ customer.email }} scarf");
    expect(store.liquidBodies.at(-1)).not.toMatch(/\{\{|\{%/);

    const shirt = page.locator(".wishp-item", { hasText: "Linen shirt" });
    await shirt.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => store.cartAdds.length).toBe(1);
    const ref = await shirt.getByRole("button", { name: "Add to cart" }).getAttribute("data-ref");
    expect(store.cartAdds[0]).toEqual({ items: [{ id: 40_000, quantity: 1, properties: { _wish_ref: ref } }] });
    expect(ref).toMatch(new RegExp(`^${c.items[0]}\\.[\\w-]{22}$`));
    await expect.poll(() => shirt.getByRole("status").textContent()).toBe("Added to your cart.");

    await page.getByRole("button", { name: "Share list" }).click();
    const shareInput = page.getByLabel("Link to share");
    await expect.poll(() => shareInput.inputValue()).toMatch(new RegExp(`^${server.url}/en/list/`));

    await shirt.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.locator(".wishp-item").count()).toBe(1);
    expect(await page.locator(".wishp-list h2").textContent()).toMatch(/\(1 item\)$/);
    expect(await db.listItem.findUnique({ where: { id: c.items[0]! } })).toBeNull();
    expect(await db.listItem.findUnique({ where: { id: c.items[1]! } })).not.toBeNull();
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("a customer joins the store wishlist with an account of ours in the join window; the page then shows the joined account without the offer", async () => {
    const c = await customerWith(["Velvet cushion"]);
    const { context, page, console } = await openAs(c.customer, "/apps/wishlist");
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Join with my wishlist account" }).click()]);
    await popup.getByRole("heading", { name: "Join your wishlists" }).waitFor();
    await popup.getByText(`what you saved at ${SHOP_DOMAIN} joins it`).waitFor();
    // The link token left the address bar (and so the history) at once.
    expect(new URL(popup.url()).hash).toBe("");
    for (const width of [375, 1280]) {
      await popup.setViewportSize({ width, height: 720 });
      await popup.screenshot({ path: path.join(screenshots, `join-dialog-${width}.png`), fullPage: true });
      expect(await seriousA11yViolations(popup)).toEqual([]);
    }
    // No account yet: create one; the confirmation follows, and the join only after it.
    await popup.getByRole("button", { name: "Create account" }).click();
    const email = `joiner-${Date.now()}@example.test`;
    await popup.getByLabel("E-mail").fill(email);
    await popup.getByLabel("Password").fill("correct horse battery");
    await popup.getByRole("button", { name: "Create account" }).click();
    await popup.getByRole("heading", { name: "Before you join" }).waitFor();
    expect(await popup.locator("dl.join-facts").textContent()).toContain("1 list with 1 product");
    await popup.getByRole("button", { name: "Join", exact: true }).click();
    await popup.getByRole("heading", { name: "Joined" }).waitFor();
    expect(await popup.getByRole("status").textContent()).toContain("(1 product moved)");
    const account = await db.user.findFirst({ where: { email }, select: { id: true } });
    expect(await db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: shop.id, customerId: c.customer } } })).toMatchObject({ userId: account!.id });

    // Closing the window: the store's page shows what the store now knows.
    await Promise.all([page.waitForEvent("load"), clickAndClose(popup, "Close")]);
    await page.locator(".wishp-item", { hasText: "Velvet cushion" }).waitFor();
    expect(await page.getByRole("button", { name: "Join with my wishlist account" }).count()).toBe(0);
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("fits 375 px and 1280 px (screenshots), for customers and guests, with no serious axe violation", async () => {
    const c = await customerWith(["Ceramic mug", "Walnut tray", "Brass lamp"]);
    for (const [who, customer] of [["customer", c.customer], ["guest", null]] as const) {
      for (const width of [375, 1280]) {
        const { context, page, console } = await openAs(customer, "/apps/wishlist", width);
        if (who === "guest") expect(await page.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/account/login?return_url=%2Fapps%2Fwishlist");
        else await page.locator(".wishp-img").first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(screenshots, `proxy-page-${who}-${width}.png`), fullPage: true });
        expect(await seriousA11yViolations(page)).toEqual([]);
        await context.close();
        expect(console.errors).toEqual([]);
      }
    }
  });

  it("shows a guest this browser's guest list under the sign-in prompt, with add to cart", async () => {
    const { init, guest, me } = await storeGuest();
    const saved = await api.post("/widget/save", {
      token: guest.accessToken,
      headers: { "x-widget-token": init.body.token, origin: store.origin },
      body: { wishlistId: me.body.list.db_id, product: { url: `${store.origin}/products/guest-<b>socks</b>`, title: "Guest <b>socks</b>", metadata: { variantId: "51000" } }, siteDomain: "store.shop.test" },
    });
    expect(saved.status, saved.text).toBe(200);

    const context = await browser.newContext();
    const console = watchConsole(context);
    await context.addInitScript(([sid, origin]) => location.origin === origin && localStorage.setItem("wish:sid", sid), [init.body.sid as string, store.origin] as const);
    const page = await context.newPage();
    await page.goto(`${store.origin}/apps/wishlist`);
    const item = page.locator("#wishp-guest .wishp-item");
    await item.waitFor();
    // Drawn as text, never as markup.
    expect(await item.locator(".wishp-title").textContent()).toBe("Guest <b>socks</b>");
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
    const before = store.cartAdds.length;
    await item.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => store.cartAdds.length).toBe(before + 1);
    expect(store.cartAdds.at(-1)).toEqual({ items: [{ id: 51000, quantity: 1, properties: { _wish_ref: expect.stringMatching(new RegExp(`^${saved.body.item_id}\\.`)) } }] });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("speaks German when the store does", async () => {
    const c = await customerWith(["Teekanne"]);
    const { context, page } = await openAs(c.customer, "/apps/wishlist?locale=de");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Wunschliste");
    expect(await page.getByRole("button", { name: "In den Warenkorb" }).count()).toBe(1);
    await context.close();
  });
});

describe("widget.js on a Shopify store", () => {
  it("a signed-in customer saves and removes with one click, without the dialog", async () => {
    const customer = String(nextCustomer++);
    const productUrl = `${store.origin}/products/one-click-${customer}`;
    store.page(
      `/products/one-click-${customer}`,
      `<script>window.Shopify = { shop: "${SHOP_DOMAIN}" };</script>
<h1>Product</h1><button type="button" data-wish data-url="${productUrl}" data-title="One-click candle" data-id="99">Save</button>
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${publicKey}"></script>
<script>WishWidget.on("count", (n) => (document.documentElement.dataset.wishCount = String(n)));</script>`,
    );
    const { context, page, console, answered } = await openAs(customer, `/products/one-click-${customer}`);
    const button = page.locator("[data-wish]");
    // Recognised through the proxy, whose answer carries the customer's saved state: the count the
    // widget emits once it holds their credential (a click before that would open the dialog), nothing saved.
    await expect.poll(() => page.locator("html").getAttribute("data-wish-count")).toBe("0");
    expect(answered).toContain("/apps/wishlist/session");
    expect(answered.filter((p) => p.startsWith("/api/"))).toEqual([]);
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    const popups: unknown[] = [];
    context.on("page", (p) => popups.push(p));
    await expect.poll(async () => {
      const link = await db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: shop.id, customerId: customer } } });
      return link?.userId ?? null;
    }).not.toBeNull();
    const link = await db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: shop.id, customerId: customer } } });

    await button.click();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
    const item = await db.listItem.findFirst({ where: { product: { canonicalUrl: productUrl } }, include: { wishlist: true } });
    expect(item!.wishlist.ownerId).toBe(link!.userId);

    // Another device (a fresh browser) of the same customer sees it saved.
    const other = await openAs(customer, `/products/one-click-${customer}`);
    await expect.poll(() => other.page.locator("[data-wish]").getAttribute("aria-pressed")).toBe("true");
    await other.context.close();

    await button.click();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("false");
    expect(await db.listItem.findUnique({ where: { id: item!.id } })).toBeNull();
    expect(popups).toEqual([]);
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("a signed-in customer's page of 48 buttons (no mirror in the page): the proxy's one answer marks the saved ones, no request to the API, on load and after a reload", async () => {
    const c = await customerWith(["Saved mug", "Saved lamp"]);
    const buttons = Array.from({ length: 48 }, (_, i) => `<button type="button" data-wish data-url="${store.origin}/products/item-${i}-${c.customer}">Save ${i}</button>`);
    store.page(
      `/collections/busy-${c.customer}`,
      `<script>window.Shopify = { shop: "${SHOP_DOMAIN}" };</script><h1>Collection</h1>${buttons.join("")}
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${publicKey}" data-wish-customer="1"></script>
<script>WishWidget.on("count", (n) => (document.documentElement.dataset.wishCount = String(n)));</script>`,
    );
    const { context, page, console, answered } = await openAs(c.customer, `/collections/busy-${c.customer}`);
    const pressed = () => page.$$eval("[data-wish][aria-pressed=true]", (els) => els.map((e) => e.getAttribute("data-url")));
    for (const how of ["load", "reload"] as const) {
      if (how === "reload") {
        answered.length = 0;
        await page.reload();
      }
      await expect.poll(() => page.locator("html").getAttribute("data-wish-count")).toBe("2");
      await page.waitForLoadState("networkidle");
      expect(await pressed(), how).toEqual([0, 1].map((i) => `${store.origin}/products/item-${i}-${c.customer}`));
      expect(answered.filter((p) => p.startsWith("/apps/wishlist") || p.startsWith("/api/")), how).toEqual(["/apps/wishlist/session"]);
    }
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("with the customer metafield mirror in the page, the load asks nothing; a click on a mirrored heart removes it with one click (the proxy's answer names its item), a click on another saves", async () => {
    const c = await customerWith(["Mirrored mug", "Mirrored lamp"]);
    const handles = [0, 1].map((i) => `item-${i}-${c.customer}`);
    const urls = [0, 1, 2].map((i) => `${store.origin}/products/item-${i}-${c.customer}`);
    // What the app embed renders for this customer (extensions/wishlist/snippets/wish-widget-script.liquid).
    const mirror = JSON.stringify(handles).replace(/"/g, "&quot;");
    store.page(
      `/collections/mirrored-${c.customer}`,
      `<script>window.Shopify = { shop: "${SHOP_DOMAIN}" };</script><h1>Collection</h1>${urls.map((u, i) => `<button type="button" data-wish data-url="${u}">Heart ${i}</button>`).join("")}
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${publicKey}" data-wish-customer="1" data-wish-saved-handles="${mirror}"></script>
<script>WishWidget.on("count", (n) => (document.documentElement.dataset.wishCount = String(n)));</script>`,
    );
    const { context, page, console, answered } = await openAs(c.customer, `/collections/mirrored-${c.customer}`);
    const popups: unknown[] = [];
    context.on("page", (p) => popups.push(p));
    const pressedOf = (i: number) => page.locator("[data-wish]").nth(i).getAttribute("aria-pressed");
    await expect.poll(() => page.locator("html").getAttribute("data-wish-count")).toBe("2");
    await page.waitForLoadState("networkidle");
    expect([await pressedOf(0), await pressedOf(1), await pressedOf(2)]).toEqual(["true", "true", "false"]);
    expect(answered.filter((p) => p.startsWith("/apps/wishlist") || p.startsWith("/api/"))).toEqual([]);

    await page.locator("[data-wish]").nth(1).click();
    await expect.poll(() => pressedOf(1)).toBe("false");
    await expect.poll(() => db.listItem.findUnique({ where: { id: c.items[1]! } })).toBeNull();
    expect(await db.listItem.findUnique({ where: { id: c.items[0]! } })).not.toBeNull();
    await expect.poll(() => page.locator("html").getAttribute("data-wish-count")).toBe("1");

    await page.locator("[data-wish]").nth(2).click();
    await expect.poll(() => pressedOf(2)).toBe("true");
    await expect.poll(() => db.listItem.count({ where: { product: { canonicalUrl: urls[2] } } })).toBe(1);
    expect(popups).toEqual([]);
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("a click before the proxy has answered (the theme marks a signed-in customer) waits for it and saves with one click; without a customer the dialog opens", async () => {
    const customer = String(nextCustomer++);
    const productUrl = `${store.origin}/products/early-${customer}`;
    store.page(
      `/products/early-${customer}`,
      `<script>window.Shopify = { shop: "${SHOP_DOMAIN}" };</script>
<h1>Product</h1><button type="button" data-wish data-url="${productUrl}" data-title="Early lamp">Save</button>
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${publicKey}" data-wish-customer="1"></script>`,
    );
    // The proxy's answer (fetched at once, so a busy server cannot make it late) reaches the page only after the click.
    let clicked!: () => void;
    const click = new Promise<void>((resolve) => (clicked = resolve));
    const context = await browser.newContext();
    const console = watchConsole(context);
    await context.addCookies([{ name: "customer", value: customer, url: store.origin }]);
    await context.route("**/apps/wishlist/session", async (route) => {
      // Fetched from the test process, where *.shop.test is not in DNS: to the stand-in store's own address.
      const answer = await route.fetch({ url: route.request().url().replace(/\/\/[^/:]+\.shop\.test:/, "//127.0.0.1:") });
      await click;
      await route.fulfill({ response: answer });
    });
    const popups: unknown[] = [];
    context.on("page", (p) => popups.push(p));
    const page = await context.newPage();
    await page.goto(`${store.origin}/products/early-${customer}`);
    const button = page.locator("[data-wish]");
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("false");
    await button.click();
    clicked();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
    const link = await db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: shop.id, customerId: customer } } });
    const item = await db.listItem.findFirst({ where: { product: { canonicalUrl: productUrl } }, include: { wishlist: true } });
    expect(item!.wishlist.ownerId).toBe(link!.userId);
    expect(popups).toHaveLength(1); // the page itself
    await context.close();
    expect(console.errors).toEqual([]);

    // The theme says "signed in" but the store does not vouch for a customer: the click opens the dialog.
    const guest = await openAs(null, `/products/early-${customer}`);
    const [dialog] = await Promise.all([guest.page.waitForEvent("popup"), guest.page.locator("[data-wish]").click()]);
    await dialog.waitForURL(/\/dialog\/save#/);
    await guest.context.close();
  });

  it("on a page the theme marks as a guest's (data-wish-customer=\"0\"), the widget does not ask the proxy", async () => {
    // A guest who saved here before: the widget restores their credential, the observable end of its start-up.
    const { init, guest, me } = await storeGuest();
    const productUrl = `${store.origin}/products/guest-only`;
    await api.post("/widget/save", {
      token: guest.accessToken,
      headers: { "x-widget-token": init.body.token, origin: store.origin },
      body: { wishlistId: me.body.list.db_id, product: { url: productUrl, title: "Guest-only hat" }, siteDomain: "store.shop.test" },
    });
    store.page(
      "/products/guest-only",
      `<script>window.Shopify = { shop: "${SHOP_DOMAIN}" };</script><h1>Product</h1><button type="button" data-wish data-url="${productUrl}">Save</button>
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${publicKey}" data-wish-customer="0"></script>`,
    );
    const context = await browser.newContext();
    const console = watchConsole(context);
    await context.addInitScript(([sid, origin]) => location.origin === origin && localStorage.setItem("wish:sid", sid), [init.body.sid as string, store.origin] as const);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`${store.origin}/products/guest-only`);
    // The proxy would have been asked before the init (with the saved state) that marks the button.
    await expect.poll(() => page.locator("[data-wish]").getAttribute("aria-pressed")).toBe("true");
    expect(requested).toContain("/api/v1/widget/init");
    expect(requested.filter((p) => p.startsWith("/apps/wishlist"))).toEqual([]);
    await context.close();
    expect(console.errors).toEqual([]);
  });

  it("one click on a hostile store's button hands it nothing of a guest's account: the page's sid, posted for the store's own customer, moves nothing", async () => {
    // The victim: a guest of APP_URL (the cookie) with a private list, from an earlier visit elsewhere.
    const victim = await api.anonymousUser();
    const me = await api.post("/hosted/me/init", { token: victim.accessToken });
    const medical = await api.post("/hosted/me/lists", { token: victim.accessToken, body: { name: "Medical supplies" } });
    const context = await browser.newContext();
    const console = watchConsole(context);
    const app = await context.newPage();
    await app.goto(`${server.url}/en/lists`);
    const cookie = await app.evaluate(
      (token) => fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: token }) }).then((r) => r.status),
      victim.accessToken,
    );
    expect(cookie).toBe(200);

    // The hostile store's product page (the store's own guest: no customer signed in).
    store.page(
      "/products/bait",
      `<script>window.Shopify = { shop: "${SHOP_DOMAIN}" };</script><h1>Bait</h1><button type="button" data-wish data-url="${store.origin}/products/bait" data-title="Bait">Save</button>
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${publicKey}" data-wish-customer="0"></script>`,
    );
    const page = await context.newPage();
    await page.goto(`${store.origin}/products/bait`);
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("[data-wish]")]);
    // One click saves; the dialog names the shop that will now recognise the shopper, and offers "Not on this shop".
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    const host = new URL(store.origin).host;
    await popup.getByText(`${host} will recognise you on this device`, { exact: false }).waitFor();
    await popup.getByRole("button", { name: "Not on this shop" }).waitFor();
    await expect.poll(() => page.locator("[data-wish]").getAttribute("aria-pressed")).toBe("true");
    // The consent notice at both widths, accessible.
    for (const width of [375, 1280]) {
      await popup.setViewportSize({ width, height: 800 });
      await popup.screenshot({ path: path.join(screenshots, `dialog-shop-consent-${width}.png`), fullPage: true });
      expect(await seriousA11yViolations(popup)).toEqual([]);
    }

    // The attacker's script reads the page's sid; its server posts it, signed for its own customer.
    const sid = await page.evaluate(() => localStorage.getItem("wish:sid"));
    expect(sid).toMatch(/^[\w-]{44}$/);
    const attacker = String(nextCustomer++);
    const query = signedProxyQuery({ shop: SHOP_DOMAIN, customerId: attacker }, SECRET);
    const hijack = await fetch(`${server.url}/proxy/session?${query}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ sid }) });
    expect(hijack.status).toBe(200);
    expect(await hijack.json()).not.toHaveProperty("merged");

    // The victim's account is untouched: their lists and items are theirs, private, and their session lives.
    const link = await db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: shop.id, customerId: attacker } } });
    expect(link!.userId).not.toBe(victim.userId);
    const victimLists = await db.wishlist.findMany({ where: { ownerId: victim.userId }, include: { items: { include: { product: true } } } });
    expect(victimLists.map((l) => l.id).sort()).toEqual([me.body.list.db_id, medical.body.list.db_id].sort());
    expect(victimLists.flatMap((l) => l.items.map((i) => i.product.canonicalUrl))).toContain(`${store.origin}/products/bait`);
    expect(victimLists.every((l) => !l.sharePublic)).toBe(true);
    expect(await db.listItem.count({ where: { wishlist: { ownerId: link!.userId } } })).toBe(0);
    expect((await api.get("/auth/user", { token: victim.accessToken })).status).toBe(200);

    // "Not on this shop": the store's page loses the credential; the save stays in the account.
    await popup.getByRole("button", { name: "Not on this shop" }).click();
    await popup.getByText(`${host} no longer recognises you`, { exact: false }).waitFor();
    await expect.poll(() => db.shopperConsent.count({ where: { userId: victim.userId, partnerId: shop.partnerId } })).toBe(0);
    expect(await db.listItem.count({ where: { wishlist: { ownerId: victim.userId } } })).toBe(1);
    await page.reload();
    await expect.poll(() => page.locator("[data-wish]").getAttribute("aria-pressed")).not.toBe("true");
    await context.close();
    expect(console.errors).toEqual([]);
  });
});
