// The storefront scripts honour what the visitor allowed (docs/privacy.md), in
// real Chromium against the built server, with the real save dialog:
// - a Shopify storefront stand-in whose Customer Privacy API is a stub with
//   Shopify's shape (loadFeatures, the *Allowed() methods, currentVisitorConsent,
//   setTrackingConsent dispatching `visitorConsentCollected` with its detail),
//   widget.js loaded from a CDN origin as the app embed loads it;
// - a shop outside Shopify using /sdk/v1/widget.js with data-wish-consent,
//   init({consent}) and WishWidget.setConsent().
// What is watched: every request of the browser profile to
// /api/v1/analytics/track (and the server's answer), and every storage item
// of the shop's origin and the app's origin.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { watchConsole, type ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser;
let shop: ShopServer;
let browserShop: BrowserAndShop;

beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
  ({ browser, shop } = browserShop = await startBrowserAndShop());
});
afterAll(() => browserShop?.stop());

const app = () => api.server.url;
/** Where the stand-in Shopify CDN serves the extension's committed assets (asset_url). */
const CDN = "http://cdn.shopify.test";
const hex = () => randomBytes(4).toString("hex");
const heart = (id: string, host: string) =>
  `<button type="button" id="${id}" data-wish data-url="http://${host}/products/${id}-${hex()}" data-title="Wool ${id}" data-price="4990" data-currency="EUR">Save</button>`;
const HEARTS = ["scarf", "hat", "mug"];

/**
 * Shopify's Customer Privacy API as shopify.dev/docs/api/customer-privacy
 * describes it: not there until `Shopify.loadFeatures([{name:
 * 'consent-tracking-api', version: '0.1'}], cb)` loads it; the *Allowed()
 * methods combine whether the visitor's region needs consent with the
 * visitor's choice (currentVisitorConsent: "yes" / "no" / "" per purpose);
 * setTrackingConsent records a choice and dispatches `visitorConsentCollected`
 * on document with the detail {analyticsAllowed, firstPartyMarketingAllowed,
 * marketingAllowed, preferencesAllowed, saleOfDataAllowed,
 * thirdPartyMarketingAllowed}. `window.loadedFeatures` records what was asked.
 */
const privacyStub = (consentRequired: boolean) => `<script>
(function () {
  var choice = { analytics: "", marketing: "", preferences: "", sale_of_data: "" };
  var allowed = function (v) { return ${consentRequired} ? v === "yes" : v !== "no"; };
  var api = {
    analyticsProcessingAllowed: function () { return allowed(choice.analytics); },
    marketingAllowed: function () { return allowed(choice.marketing); },
    preferencesProcessingAllowed: function () { return allowed(choice.preferences); },
    saleOfDataAllowed: function () { return allowed(choice.sale_of_data); },
    firstPartyMarketingAllowed: function () { return allowed(choice.marketing); },
    thirdPartyMarketingAllowed: function () { return allowed(choice.marketing); },
    currentVisitorConsent: function () { return Object.assign({}, choice); },
    shouldShowBanner: function () { return ${consentRequired} && choice.analytics === ""; },
    setTrackingConsent: function (consent, callback) {
      ["analytics", "marketing", "preferences", "sale_of_data"].forEach(function (k) {
        if (typeof consent[k] === "boolean") choice[k] = consent[k] ? "yes" : "no";
      });
      setTimeout(function () {
        document.dispatchEvent(new CustomEvent("visitorConsentCollected", { detail: {
          analyticsAllowed: api.analyticsProcessingAllowed(),
          firstPartyMarketingAllowed: api.firstPartyMarketingAllowed(),
          marketingAllowed: api.marketingAllowed(),
          preferencesAllowed: api.preferencesProcessingAllowed(),
          saleOfDataAllowed: api.saleOfDataAllowed(),
          thirdPartyMarketingAllowed: api.thirdPartyMarketingAllowed()
        } }));
        if (callback) callback();
      });
    }
  };
  window.loadedFeatures = [];
  window.Shopify = {
    shop: "consent-test.myshopify.com",
    loadFeatures: function (features, callback) {
      window.loadedFeatures.push(features);
      setTimeout(function () {
        if (features.some(function (f) { return f.name === "consent-tracking-api"; })) window.Shopify.customerPrivacy = api;
        callback(null);
      });
    }
  };
})();
</script>`;

interface Visitor {
  context: BrowserContext;
  page: Page;
  /**
   * Every analytics request of this browser profile, `POST /analytics/track` (the event) and
   * `POST /baskets/{id}/event` ("basket:" and its type), with the server's status (null while unanswered).
   */
  tracked: Array<{ event: string; status: number | null }>;
  console: { errors: string[] };
}

/** A shopper's browser profile on `url`, watching analytics requests. */
async function visit(url: string): Promise<Visitor> {
  const context = await browser.newContext();
  const console = watchConsole(context);
  await context.route(`${CDN}/**`, (route) =>
    route.fulfill({
      contentType: "application/javascript",
      headers: { "access-control-allow-origin": "*" },
      body: readFileSync(path.join(root, "extensions/wishlist/assets", new URL(route.request().url()).pathname.split("/").pop()!)),
    }),
  );
  const tracked: Visitor["tracked"] = [];
  const seen = new Map<unknown, Visitor["tracked"][number]>();
  context.on("request", (req) => {
    const { pathname } = new URL(req.url());
    const basket = /^\/api\/v1\/baskets\/[^/]+\/event$/.test(pathname);
    if (pathname !== "/api/v1/analytics/track" && !basket) return;
    const body = req.postDataJSON();
    const entry = { event: basket ? `basket:${body?.type}` : String(body?.event), status: null as number | null };
    seen.set(req, entry);
    tracked.push(entry);
  });
  context.on("response", (res) => {
    const entry = seen.get(res.request());
    if (entry) entry.status = res.status();
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (window as any).WishWidget);
  return { context, page, tracked, console };
}

/**
 * A Shopify storefront page with the app embed's tags: widget.js, and with `basket` the drawer's
 * basket-integration.js and wish-basket.js (assets from the CDN, app address and anon key on the tags).
 */
async function shopifyStore(opts: { consentRequired: boolean; basket?: boolean }) {
  const host = `store-${hex()}.shop.test`;
  const partner = await p.partner("growth");
  const key = (await p.key(partner.id, { domains: [host] })).key as string;
  const pathname = `/collections/all-${hex()}`;
  let drawer = "";
  if (opts.basket) {
    const baskets = await import("~/domains/baskets/baskets.server");
    const configId = (await baskets.createBasketConfig(partner.id, { layout: "drawer" })).basket.id;
    drawer = `<button type="button" id="drawer" data-wish-basket>My wishlist</button>
<script src="${CDN}/extension-assets/basket-integration.js" data-wish-basket-script data-wish-app-url="${app()}" data-wish-anon-key="${api.anonKey}" defer></script>
<script src="${CDN}/extension-assets/wish-basket.js" data-wish-basket-config="${configId}" data-wish-basket-key="${key}" data-wish-basket-locale="en-US"
  data-wish-basket-cart-url="/cart/add?id={variant_id}&amp;quantity={quantity}" data-wish-basket-shopify-cart defer></script>`;
  }
  shop.page(
    pathname,
    `<!doctype html><html lang="en"><head><title>Store</title><link rel="icon" href="data:,">${privacyStub(opts.consentRequired)}
<script src="${CDN}/extension-assets/widget.js" data-wish-app-url="${app()}" data-wish-anon-key="${api.anonKey}" data-wish-key="${key}"
  data-wish-locale="en-US" data-wish-environment="live" data-wish-customer="0" async></script></head>
<body><main><h1>All products</h1>${HEARTS.map((id) => heart(id, host)).join("")}${drawer}</main></body></html>`,
  );
  return { url: shop.origin(host) + pathname, origin: shop.origin(host) };
}

/** A shop outside Shopify with the documented snippet; `attrs` go on the script tag. */
async function plainShop(attrs = "") {
  const host = `plain-${hex()}.shop.test`;
  const partner = await p.partner("growth");
  const key = (await p.key(partner.id, { domains: [host] })).key as string;
  const pathname = `/p-${hex()}`;
  shop.page(
    pathname,
    `<!doctype html><html lang="en"><head><title>Shop</title><link rel="icon" href="data:,">
<script src="${app()}/sdk/v1/widget.js" data-wish-key="${key}" data-wish-locale="en-US" ${attrs} async></script></head>
<body><main><h1>Shop</h1>${HEARTS.map((id) => heart(id, host)).join("")}</main></body></html>`,
  );
  return { url: shop.origin(host) + pathname, origin: shop.origin(host), key };
}

/**
 * Presses a heart and goes through the real dialog: a new shopper continues as
 * guest, a returning one is saved at once. Resolves with the dialog (kept open)
 * once it says where the product is saved and the heart shows it.
 */
async function save(v: Visitor, id: string): Promise<Page> {
  const [popup] = await Promise.all([v.page.waitForEvent("popup"), v.page.click(`#${id}`)]);
  await popup.waitForLoadState();
  const guest = popup.getByRole("button", { name: "Continue as guest" });
  const saved = popup.getByRole("heading", { name: /^Saved to/ });
  await guest.or(saved).first().waitFor();
  if (await guest.isVisible()) await guest.click();
  await saved.waitFor();
  await popup.mouse.click(2, 2); // any interaction keeps a one-click save's dialog from closing itself
  await expect.poll(() => v.page.getAttribute(`#${id}`, "aria-pressed")).toBe("true");
  return popup;
}

/** Every storage item a page's origin holds: localStorage and sessionStorage keys, and the cookies of that origin. */
async function storage(page: Page) {
  const origin = new URL(page.url()).origin;
  const local = await page.evaluate(() => Object.keys(localStorage).sort());
  const session = await page.evaluate(() => Object.keys(sessionStorage).sort());
  const cookies = (await page.context().cookies(origin)).map((c) => c.name).sort();
  return { local, session, cookies };
}

/** Waits until `events` were answered by the server (201: recorded) after `from` earlier ones. */
async function expectTracked(v: Visitor, from: number, events: string[]) {
  await expect.poll(() => v.tracked.slice(from).map((t) => `${t.event} ${t.status}`)).toEqual(events.map((e) => `${e} 201`));
}

/** Shopify's banner recording the visitor's choice for every purpose. */
const choose = (page: Page, yes: boolean) =>
  page.evaluate(
    (yes) =>
      new Promise<void>((resolve) =>
        (window as any).Shopify.customerPrivacy.setTrackingConsent({ analytics: yes, marketing: yes, preferences: yes, sale_of_data: yes }, resolve),
      ),
    yes,
  );

describe("on a Shopify storefront, widget.js follows the Customer Privacy API", () => {
  it("before consent a save works and nothing else is sent or stored; consent starts analytics and the remembered list; withdrawal stops both", async () => {
    const store = await shopifyStore({ consentRequired: true });
    const v = await visit(store.url);
    // The API is loaded the way a theme app extension must load it.
    await expect.poll(() => v.page.evaluate(() => (window as any).loadedFeatures)).toEqual([[{ name: "consent-tracking-api", version: "0.1" }]]);
    expect(await v.page.evaluate(() => (window as any).Shopify.customerPrivacy.shouldShowBanner())).toBe(true);

    // Before any choice: the shopper's own save works end to end …
    const first = await save(v, "scarf");
    // … and is all that happened: no analytics request, no storage beyond the widget session id on the shop,
    // the dialog's context (this tab only) and the guest's session cookie on the app.
    expect(v.tracked).toEqual([]);
    expect(await storage(v.page)).toEqual({ local: ["wish:sid"], session: [], cookies: [] });
    expect(await storage(first)).toEqual({ local: [], session: ["wish:dialog"], cookies: ["wish_user"] });
    await first.close();

    // The visitor accepts in Shopify's banner: the next dialog reports its events, and remembers the list.
    await choose(v.page, true);
    const second = await save(v, "hat");
    await expectTracked(v, 0, ["dialog_open", "item_saved"]);
    expect((await storage(second)).local).toEqual(["wish:last-list"]);
    // On the shop's own origin only the session id, and (preferences now allowed) the time of the last change.
    expect(await storage(v.page)).toEqual({ local: ["wish:changed", "wish:sid"], session: [], cookies: [] });
    await second.close();

    // Withdrawal: no more events, and the remembered list is forgotten.
    await choose(v.page, false);
    const third = await save(v, "mug");
    expect(v.tracked).toHaveLength(2);
    expect(await storage(third)).toEqual({ local: [], session: ["wish:dialog"], cookies: ["wish_user"] });
    // The time of the last change is forgotten with the withdrawal, and not written again.
    expect(await storage(v.page)).toEqual({ local: ["wish:sid"], session: [], cookies: [] });
    expect(v.console.errors).toEqual([]);
    await v.context.close();
  });

  it("a withdrawal while the dialog is open stops its events at once", async () => {
    const store = await shopifyStore({ consentRequired: true });
    const v = await visit(store.url);
    await choose(v.page, true);
    const [popup] = await Promise.all([v.page.waitForEvent("popup"), v.page.click("#scarf")]);
    await popup.getByRole("button", { name: "Continue as guest" }).waitFor();
    await expectTracked(v, 0, ["dialog_open"]);

    await choose(v.page, false);
    // The dialog keeps the latest answer with its context (so a reload keeps it too).
    await expect.poll(() => popup.evaluate(() => JSON.parse(sessionStorage.getItem("wish:dialog") ?? "{}").consent)).toBe("");
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    await expect.poll(() => v.page.getAttribute("#scarf", "aria-pressed")).toBe("true");
    expect(v.tracked.map((t) => t.event)).toEqual(["dialog_open"]);
    await v.context.close();
  });

  it("the basket drawer counts its opening only with consent; a withdrawal stops it again", async () => {
    const store = await shopifyStore({ consentRequired: true, basket: true });
    const v = await visit(store.url);
    /** Opens the drawer, waits until it has shown what it holds, and closes it. */
    const drawer = async () => {
      await v.page.locator("#drawer").click();
      const frame = v.page.frameLocator("iframe[title='Wishlist']");
      await frame.getByText("Save products with the heart button and they appear here.").waitFor();
      await frame.getByRole("button", { name: "Close" }).click();
      await expect.poll(() => v.page.locator("iframe").count()).toBe(0);
    };
    await drawer();
    expect(v.tracked).toEqual([]);
    await choose(v.page, true);
    await drawer();
    await expectTracked(v, 0, ["basket:open"]);
    await choose(v.page, false);
    await drawer();
    expect(v.tracked).toHaveLength(1);
    expect(v.console.errors).toEqual([]);
    await v.context.close();
  });

  it("where the visitor's region needs no consent, the API's answer (allowed) is followed from the start", async () => {
    const store = await shopifyStore({ consentRequired: false });
    const v = await visit(store.url);
    const popup = await save(v, "scarf");
    await expectTracked(v, 0, ["dialog_open", "item_saved"]);
    expect((await storage(popup)).local).toEqual(["wish:last-list"]);
    await v.context.close();
  });
});

describe("outside Shopify, the page passes the visitor's consent", () => {
  it("by default nothing beyond the save is sent or stored", async () => {
    const v = await visit((await plainShop()).url);
    const popup = await save(v, "scarf");
    expect(v.tracked).toEqual([]);
    expect(await storage(v.page)).toEqual({ local: ["wish:sid"], session: [], cookies: [] });
    expect((await storage(popup)).local).toEqual([]);
    await v.context.close();
  });

  it('data-wish-consent="analytics" allows the events and nothing else', async () => {
    const v = await visit((await plainShop('data-wish-consent="analytics"')).url);
    const popup = await save(v, "scarf");
    await expectTracked(v, 0, ["dialog_open", "item_saved"]);
    expect((await storage(popup)).local).toEqual([]);
    await v.context.close();
  });

  it("WishWidget.setConsent and init({consent}) grant and withdraw later", async () => {
    const s = await plainShop();
    const v = await visit(s.url);
    await v.page.evaluate(() => (window as any).WishWidget.setConsent({ analytics: true, preferences: true }));
    const first = await save(v, "scarf");
    await expectTracked(v, 0, ["dialog_open", "item_saved"]);
    expect((await storage(first)).local).toEqual(["wish:last-list"]);
    await first.close();

    await v.page.evaluate((key) => (window as any).WishWidget.init({ key, consent: { analytics: false, preferences: false } }), s.key);
    const second = await save(v, "hat");
    expect(v.tracked).toHaveLength(2);
    expect((await storage(second)).local).toEqual([]);
    await v.context.close();
  });
});
