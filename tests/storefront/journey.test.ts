// The shopper's whole journey with every real part, the way people use it: a
// shop page on another origin embeds widget.js (and the basket) with the
// snippet of docs/storefront.md; the shopper presses hearts again and again, across
// reloads, as a guest and with an account; the basket drawer opens between
// saves; "View my lists" shows everything; Share makes a link a friend opens.
// Nothing in these flows may answer 4xx on /widget/* or /auth/*, and the
// server must never see a refresh token presented twice.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { seriousA11yViolations, watchConsole, type ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { apiFor, type Api } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let p: Awaited<ReturnType<typeof provisioner>>;
let baskets: typeof import("~/domains/baskets/baskets.server");
let api: Api;
let browser: Browser;
let shop: ShopServer;
let browserShop: BrowserAndShop;

beforeAll(async () => {
  // The shopper's journeys run in the full browser shoppers use (the other files in its headless shell).
  ({ browser, shop } = browserShop = await startBrowserAndShop("chromium"));
  // The server reads the shop's product pages (prefetch, save) on 127.0.0.1, which the fetch guard allows only for tests.
  server = await startServer({ FETCH_TEST_ALLOW_HOSTS: new URL(shop.origin("127.0.0.1")).host });
  p = await provisioner(server);
  api = await apiFor(server);
  baskets = await import("~/domains/baskets/baskets.server");
});
afterAll(async () => {
  await browserShop?.stop();
  await server?.stop();
});

const HOST = "journey.shop.test";
const hex = () => randomBytes(3).toString("hex");
const JOURNEY_TIMEOUT = 60_000;

/** A partner whose shop page carries the documented snippet: four hearts (one with only a URL) and the basket button. */
async function shopWithHearts(host = HOST) {
  const partner = await p.partner("growth");
  const key = (await p.key(partner.id, { domains: [host] })).key as string;
  const basket = await baskets.createBasketConfig(partner.id, { layout: "drawer", primaryColor: "#7a1f3d" });
  const product = (slug: string) => `https://${HOST}/products/${slug}-${hex()}`;
  const urls = { scarf: product("scarf"), hat: product("hat"), mug: product("mug") };
  // A product page the server can read: the heart for it carries nothing but its URL.
  const glovesPath = `/products/gloves-${hex()}`;
  shop.page(
    glovesPath,
    `<!doctype html><html lang="de"><head><title>Lederhandschuhe – Shop</title><meta property="og:title" content="Lederhandschuhe">
<meta property="og:type" content="product"><meta property="product:price:amount" content="39.00"><meta property="product:price:currency" content="EUR"></head><body><h1>Lederhandschuhe</h1></body></html>`,
  );
  const gloves = shop.origin("127.0.0.1") + glovesPath;
  const path = `/journey-${hex()}`;
  shop.page(
    path,
    `<!doctype html><html lang="de"><head><title>Shop</title>
<script src="${server.url}/sdk/v1/widget.js" data-wish-key="${key}" data-wish-locale="de-DE" async></script>
<script src="${server.url}/sdk/v1/basket-integration.js" defer></script></head>
<body><main><h1>Winter</h1>
<button type="button" id="scarf" data-wish data-url="${urls.scarf}" data-id="scarf-1" data-title="Wollschal" data-price="4990" data-currency="EUR"
  data-image-url="https://img.shop.test/scarf.png" data-market="de-DE" data-metadata='{"variant_id":"901","quantity":1}'>Merken</button>
<button type="button" id="hat" data-wish data-url="${urls.hat}" data-title="Mütze" data-price="1990" data-currency="EUR" data-metadata='{"variant_id":"902"}'>Merken</button>
<button type="button" id="mug" data-wish data-url="${urls.mug}" data-title="Becher" data-price="1200" data-currency="EUR">Merken</button>
<button type="button" id="gloves" data-wish data-url="${gloves}">Merken</button>
<button type="button" data-wish-basket>Meine Wunschliste</button>
</main>
<script>
  window.events = [];
  (function wait() {
    if (!window.WishWidget || !window.WishBasket) return setTimeout(wait, 10);
    ["saved", "removed", "close", "open", "error"].forEach(function (name) { WishWidget.on(name, function (e) { window.events.push({ name: name, detail: e }); }); });
    WishBasket.init({ apiKey: ${JSON.stringify(key)}, configId: ${JSON.stringify(basket.basket.id)}, cartUrl: "/cart/add?id={variant_id}&quantity={quantity}&ref={wish_ref}", locale: "de-DE" });
  })();
</script></body></html>`,
  );
  return { partner, key, url: shop.origin(host) + path, origin: shop.origin(host), host, urls, gloves };
}

/** A browser profile of one shopper, with an eye on every API answer it gets. */
async function shopper() {
  const context = await browser.newContext();
  // The product image of the scarf, from the shop's image host (https, as shops serve them).
  await context.route("https://img.shop.test/**", (route) =>
    route.fulfill({
      contentType: "image/png",
      body: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"),
    }),
  );
  const refused: string[] = [];
  context.on("response", (res) => {
    const url = new URL(res.url());
    if (url.origin === server.url && /^\/api\/v1\/(widget|auth)\//.test(url.pathname) && res.status() >= 400) {
      refused.push(`${res.request().method()} ${url.pathname} → ${res.status()}`);
    }
  });
  const console = watchConsole(context);
  return { context, refused, console };
}

const pressed = (page: Page, id: string) => page.getAttribute(`#${id}`, "aria-pressed");

/** Clicks a heart and returns the dialog it opened. */
async function heart(page: Page, id: string): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent("popup"), page.click(`#${id}`)]);
  await popup.waitForLoadState();
  return popup;
}

/** Keeps a dialog open after a one-click save (any interaction stops it from closing itself). */
const stayOpen = (popup: Page) => popup.mouse.click(2, 2);

async function expectClean(s: { refused: string[]; console: { errors: string[] } }) {
  expect(s.refused).toEqual([]);
  expect(s.console.errors).toEqual([]);
  expect(server.output()).not.toContain("refresh_token_already_used");
}

/** Fills the dialog's sign-up form with a new address; returns it. */
async function createAccount(popup: Page): Promise<string> {
  await popup.getByRole("heading", { name: "Konto erstellen" }).waitFor();
  const email = `shopper-${hex()}@example.com`;
  await popup.getByLabel("E-Mail").fill(email);
  await popup.getByLabel("Passwort").fill("a good password");
  await popup.getByRole("button", { name: "Konto erstellen" }).first().click();
  return email;
}

async function openMyLists(context: BrowserContext, popup: Page): Promise<Page> {
  const [lists] = await Promise.all([context.waitForEvent("page"), popup.getByRole("link", { name: "Meine Listen ansehen" }).click()]);
  await lists.waitForLoadState();
  expect(new URL(lists.url()).pathname).toBe("/de/lists");
  return lists;
}

describe("shopper journey through widget.js on a shop of another origin", () => {
  // A journey of a dozen page loads and clicks: on a loaded 2-core machine it can outlast the default 30 s.
  it("a guest saves three times with reloads between, opens the basket between saves, removes one, and keeps everything on signing up", async () => {
    const s = await shopWithHearts();
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(s.url);
    await expect.poll(() => pressed(page, "scarf")).toBe("false");

    // First save: the shopper chooses to continue as a guest; the dialog shows the product.
    const first = await heart(page, "scarf");
    await first.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await first.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    expect(await first.textContent(".product .name")).toBe("Wollschal");
    expect(await first.getAttribute(".product img", "src")).toBe("https://img.shop.test/scarf.png");
    // The dialog belongs to the shop: the basket colour is its accent.
    expect(await first.$eval(".btn-primary", (el) => getComputedStyle(el).backgroundColor)).toBe("rgb(122, 31, 61)");
    await expect.poll(() => pressed(page, "scarf")).toBe("true");
    expect(await page.textContent("#scarf")).toBe("Gespeichert");
    await first.waitForEvent("close", { timeout: 10_000 }); // nobody touched it: it closed itself

    // The basket drawer between saves: the saved scarf is there.
    await page.getByRole("button", { name: "Meine Wunschliste" }).click();
    const drawer = page.frameLocator(`iframe[src^="${server.url}/dialog/basket"]`);
    await drawer.getByText("Wollschal").waitFor();
    await drawer.getByRole("button", { name: "Schließen" }).click();

    // Reload: still saved. Second save: one click on the heart, no click inside the dialog.
    await page.reload();
    await expect.poll(() => pressed(page, "scarf")).toBe("true");
    const second = await heart(page, "hat");
    await second.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await expect.poll(() => pressed(page, "hat")).toBe("true");
    await second.waitForEvent("close", { timeout: 10_000 });

    await page.reload();
    const third = await heart(page, "mug");
    await third.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await third.close();
    await page.reload();
    for (const id of ["scarf", "hat", "mug"]) await expect.poll(() => pressed(page, id)).toBe("true");
    expect(await pressed(page, "gloves")).toBe("false");

    // A heart with only a URL: the dialog shows the title read from the product page, never a host name.
    const fourth = await heart(page, "gloves");
    await fourth.getByRole("heading", { name: /^Gespeichert in/ }).waitFor();
    await stayOpen(fourth);
    await expect.poll(() => fourth.textContent(".product .name")).toBe("Lederhandschuhe");
    await fourth.close();

    // A click on a saved product shows where it is and removes it; the heart follows.
    const again = await heart(page, "mug");
    await again.getByRole("heading", { name: "Schon in „Meine Wunschliste“ gemerkt" }).waitFor();
    await again.getByRole("button", { name: "Von der Liste entfernen" }).click();
    await again.getByRole("heading", { name: "Aus „Meine Wunschliste“ entfernt" }).waitFor();
    await expect.poll(() => pressed(page, "mug")).toBe("false");
    expect(await page.textContent("#mug")).toBe("Merken");
    await again.close();

    // Signing up from the dialog keeps every item of the guest.
    const fifth = await heart(page, "hat");
    await fifth.getByRole("heading", { name: "Schon in „Meine Wunschliste“ gemerkt" }).waitFor();
    await fifth.getByRole("button", { name: "Anmelden und Listen behalten" }).click();
    await fifth.getByRole("heading", { name: "Anmelden" }).waitFor();
    await fifth.getByRole("button", { name: "Konto erstellen" }).click(); // no account yet: switch to sign-up
    const email = await createAccount(fifth);
    await fifth.getByText(`Angemeldet als ${email}`).waitFor();
    const lists = await openMyLists(me.context, fifth);
    for (const title of ["Wollschal", "Mütze", "Lederhandschuhe"]) await lists.getByText(title).first().waitFor();
    expect(await lists.getByText("Becher").count()).toBe(0);
    await fifth.close();

    // The page keeps recognising the shopper after the sign-up.
    await page.reload();
    for (const id of ["scarf", "hat", "gloves"]) await expect.poll(() => pressed(page, id)).toBe("true");
    await expectClean(me);
    await me.context.close();
  }, JOURNEY_TIMEOUT);

  it("a signed-up shopper saves three times across reloads, shares from My lists, a friend opens the link and marks a gift; the owner's surprise is kept", async () => {
    const s = await shopWithHearts();
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(s.url);

    const first = await heart(page, "scarf");
    await first.getByRole("button", { name: "Konto erstellen" }).click();
    await createAccount(first);
    await first.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await first.close();

    for (const id of ["hat", "mug"]) {
      await page.reload();
      await expect.poll(() => pressed(page, "scarf")).toBe("true");
      const popup = await heart(page, id);
      await popup.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
      await popup.close();
    }
    await page.reload();
    for (const id of ["scarf", "hat", "mug"]) await expect.poll(() => pressed(page, id)).toBe("true");

    // The basket drawer, opened after the saves, lists all three.
    await page.getByRole("button", { name: "Meine Wunschliste" }).click();
    const drawer = page.frameLocator(`iframe[src^="${server.url}/dialog/basket"]`);
    for (const title of ["Wollschal", "Mütze", "Becher"]) await drawer.getByText(title).waitFor();
    await drawer.getByRole("button", { name: "Schließen" }).click();

    // "View my lists" from the dialog, then Share.
    const popup = await heart(page, "scarf");
    await popup.getByRole("heading", { name: "Schon in „Meine Wunschliste“ gemerkt" }).waitFor();
    const lists = await openMyLists(me.context, popup);
    for (const title of ["Wollschal", "Mütze", "Becher"]) await lists.getByText(title).first().waitFor();
    await lists.getByRole("button", { name: "Liste teilen" }).first().click();
    const linkField = lists.getByLabel("Link zum Teilen").first();
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/de/list/[\\w-]+$`));

    // A friend, in a fresh browser, opens the link and marks the hat as bought.
    const friend = await browser.newContext();
    const friendPage = await friend.newPage();
    await friendPage.goto(link);
    await friendPage.getByRole("heading", { name: "Meine Wunschliste" }).waitFor();
    for (const title of ["Wollschal", "Mütze", "Becher"]) await friendPage.getByText(title).first().waitFor();
    expect(await seriousA11yViolations(friendPage)).toEqual([]);
    await friendPage.getByRole("button", { name: /Als gekauft markieren: Mütze/ }).click();
    await friendPage.getByRole("button", { name: /Markierung aufheben: Mütze/ }).waitFor();
    await friend.close();

    // The owner opens the same link: no purchased marks (spoiler protection).
    const ownView = await me.context.newPage();
    await ownView.goto(link);
    await ownView.getByText("Mütze").first().waitFor();
    expect(await ownView.getByRole("button", { name: /Markierung aufheben/ }).count()).toBe(0);
    expect(await ownView.getByText("Gekauft", { exact: true }).count()).toBe(0);

    await expectClean(me);
    await me.context.close();
  }, JOURNEY_TIMEOUT);

  it("a guest saves on two shops, then signs in to an account that has one of the products: one default list, each product once, and the drawer adds each once", async () => {
    const a = await shopWithHearts(`a-${hex()}.shop.test`);
    const b = await shopWithHearts(`b-${hex()}.shop.test`);
    // The account exists (made in English) and saved shop A's scarf before, through shop A's page.
    const password = "a good long password";
    const email = `merge-${hex()}@example.com`;
    const account = await api.post("/auth/signup", { body: { email, password } });
    expect(account.status).toBe(200);
    const token = account.body.access_token as string;
    const own = await api.post("/hosted/me/init?lang=en", { token });
    expect(own.body.list.name).toBe("My wishlist");
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${a.key}`, origin: a.origin }, body: { origin: a.origin } });
    expect(init.status).toBe(200);
    const saved = await api.post("/widget/save", {
      token,
      headers: { "x-widget-token": init.body.token, origin: a.origin },
      body: { wishlistId: own.body.list.db_id, product: { url: a.urls.scarf, title: "Wollschal", metadata: { variant_id: "901", quantity: 1 } }, siteDomain: a.host },
    });
    expect(saved.status).toBe(200);

    // On this device a guest saves the scarf and the hat on shop A, the mug on shop B.
    const me = await shopper();
    const pageA = await me.context.newPage();
    await pageA.goto(a.url);
    const first = await heart(pageA, "scarf");
    await first.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await first.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await first.close();
    const second = await heart(pageA, "hat");
    await second.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await second.close();
    const pageB = await me.context.newPage();
    await pageB.goto(b.url);
    const third = await heart(pageB, "mug");
    await third.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    await stayOpen(third);

    // "Sign in and keep my lists" opens sign-in; the guest signs in to the existing account.
    await third.getByRole("button", { name: "Anmelden und Listen behalten" }).click();
    await third.getByRole("heading", { name: "Anmelden" }).waitFor();
    for (const width of [375, 1280]) {
      await third.setViewportSize({ width, height: 720 });
      await third.screenshot({ path: `tests/screenshots/dialog-keep-lists-signin-${width}.png` });
    }
    await third.getByLabel("E-Mail").fill(email);
    await third.getByLabel("Passwort").fill(password);
    await third.getByRole("button", { name: "Anmelden" }).first().click();
    await third.getByText(`Angemeldet als ${email}`).waitFor();
    await third.getByRole("heading", { name: "Schon in „My wishlist“ gemerkt" }).waitFor();

    // My lists: the account's one default list, each product once.
    const lists = await openMyLists(me.context, third);
    await lists.getByRole("heading", { name: "My wishlist" }).waitFor();
    expect(await lists.locator(".ml-list").count()).toBe(1);
    expect(await lists.getByText("Meine Wunschliste").count()).toBe(0);
    expect((await lists.locator(".ml-item-title").allTextContents()).map((t) => t.replace(/\(.*\)/, "").trim()).sort()).toEqual(["Becher", "Mütze", "Wollschal"]); // without "(opens a new tab)"
    for (const width of [375, 1280]) {
      await lists.setViewportSize({ width, height: 900 });
      await lists.screenshot({ path: `tests/screenshots/my-lists-merged-${width}.png`, fullPage: true });
    }
    await third.close();

    // Shop A recognises the account once its dialog is opened again (the guest's grant ended with the move).
    await pageA.reload();
    const again = await heart(pageA, "scarf");
    await again.getByRole("heading", { name: "Schon in „My wishlist“ gemerkt" }).waitFor();
    // The dialog grants the page after showing where the scarf is: closed only once the page knows the account.
    await expect.poll(() => pressed(pageA, "hat"), { timeout: 15_000 }).toBe("true");
    await again.close();

    // The drawer lists the scarf and the hat once each, and "Add all" adds each once.
    await pageA.getByRole("button", { name: "Meine Wunschliste" }).click();
    const drawer = pageA.frameLocator(`iframe[src^="${server.url}/dialog/basket"]`);
    await drawer.getByText("Mütze").waitFor();
    expect(await drawer.getByText("Wollschal").count()).toBe(1);
    for (const width of [375, 1280]) {
      await pageA.setViewportSize({ width, height: 760 });
      await pageA.screenshot({ path: `tests/screenshots/drawer-merged-${width}.png` });
    }
    shop.page("/cart/add", "<!doctype html><html lang=\"de\"><head><title>Warenkorb</title></head><body><h1>Warenkorb</h1></body></html>");
    const before = shop.requests.length;
    await Promise.all([pageA.waitForURL(/\/cart\/add\?/), drawer.getByRole("button", { name: "Alle in den Warenkorb" }).click()]);
    const added = () =>
      shop.requests
        .slice(before)
        .filter((r) => r.startsWith("/cart/add"))
        .map((r) => new URL(r, a.origin).searchParams.get("id"))
        .sort();
    await expect.poll(added).toEqual(["901", "902"]);
    await expectClean(me);
    await me.context.close();
  }, JOURNEY_TIMEOUT);

  it("the dialog, the drawer and My lists, reached from the shop page, have no serious accessibility violations", async () => {
    const s = await shopWithHearts();
    const me = await shopper();
    const page = await me.context.newPage();
    await page.goto(s.url);
    const popup = await heart(page, "scarf");
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).waitFor();
    expect(await seriousA11yViolations(popup)).toEqual([]);
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await popup.getByRole("heading", { name: /^Gespeichert in/ }).waitFor();
    await stayOpen(popup);
    expect(await seriousA11yViolations(popup)).toEqual([]);
    const lists = await openMyLists(me.context, popup);
    await lists.getByText("Wollschal").first().waitFor();
    expect(await seriousA11yViolations(lists)).toEqual([]);
    await page.getByRole("button", { name: "Meine Wunschliste" }).click();
    await page.frameLocator(`iframe[src^="${server.url}/dialog/basket"]`).getByText("Wollschal").waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/dialog/basket`))!;
    expect(await seriousA11yViolations(frame)).toEqual([]);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 760 });
      await page.screenshot({ path: `tests/screenshots/drawer-${width}.png` });
    }
    await expectClean(me);
    await me.context.close();
  });
});
