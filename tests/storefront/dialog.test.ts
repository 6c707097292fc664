// The hosted save dialog /dialog/save in real Chromium, opened from a shop page
// on another origin exactly as widget.js opens it (docs/storefront-protocol.md):
// a popup at /dialog/save#token=…&product=…&locale=…, messages back to the
// opener only at the token's origin.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sharedApi } from "../support/api.ts";
import { seriousA11yViolations, watchConsole, type ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser;
let shop: ShopServer;
let browserShop: BrowserAndShop;

beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
  ({ browser, shop } = browserShop = await startBrowserAndShop());
  shop.page(
    "/opener",
    `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><button id="open" type="button">Save</button></main>
<script>
  window.messages = [];
  addEventListener("message", (e) => { if (e.origin === ${JSON.stringify(api.server.url)}) window.messages.push(e.data); });
  document.getElementById("open").addEventListener("click", () => {
    window.open(${JSON.stringify(api.server.url)} + "/dialog/save#" + window.fragment, "wish-save", "popup,width=480,height=720");
  });
</script></body></html>`,
  );
});
afterAll(() => browserShop?.stop());

const SHOP_HOST = "dialog.shop.test";
const shopOrigin = () => shop.origin(SHOP_HOST);
const email = () => `shopper-${randomBytes(4).toString("hex")}@example.com`;

async function widgetFor(plan = "free") {
  const partner = await p.partner(plan);
  const key = await p.key(partner.id);
  const init = await api.post("/widget/init", { token: key.key, body: { origin: shopOrigin() } });
  expect(init.status, init.text).toBe(200);
  return { partner, key, token: init.body.token as string, sid: init.body.sid as string };
}

const SCARF_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#c8553d"/><rect x="150" y="40" width="100" height="320" rx="20" fill="#f2d0a4"/></svg>`;

const product = (over: Record<string, unknown> = {}) => ({
  url: `https://${SHOP_HOST}/products/${randomBytes(4).toString("hex")}`,
  title: "Wool scarf",
  price: 4990,
  currency: "EUR",
  marketCode: "de-DE",
  ...over,
});

/** `consent`: the purposes the shop page says its visitor allowed (docs/privacy.md), none by default. */
function fragment(token: string, prod: Record<string, unknown>, locale = "en-US", consent?: string) {
  return new URLSearchParams({ token, product: JSON.stringify(prod), locale, ...(consent ? { consent } : {}) }).toString();
}

interface Opened {
  context: BrowserContext;
  page: Page;
  popup: Page;
  console: { errors: string[] };
}

/** Opens the shop page in `context` and the dialog from a click, as the SDK would. */
async function openDialog(token: string, prod: Record<string, unknown>, locale = "en-US", context?: BrowserContext, consent?: string): Promise<Opened> {
  context ??= await browser.newContext();
  const console = watchConsole(context);
  const page = await context.newPage();
  await page.goto(`${shopOrigin()}/opener`);
  await page.evaluate((f) => ((window as any).fragment = f), fragment(token, prod, locale, consent));
  const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#open")]);
  await popup.waitForLoadState();
  return { context, page, popup, console };
}

const messages = (page: Page) => page.evaluate(() => (window as any).messages as Array<Record<string, any>>);

async function restoredShopper(token: string, sid: string) {
  const res = await api.post("/widget/session-restore", { headers: { "x-widget-token": token, origin: shopOrigin() }, body: { sid } });
  expect(res.status, res.text).toBe(200);
  return res.body.session as { access_token: string; scope: "shopper"; user: { id: string; is_anonymous: boolean } } | null;
}

/** Keeps a dialog open after a one-click save (any interaction stops its self-closing). */
const stayOpen = (popup: Page) => popup.mouse.click(2, 2);

describe("/dialog/save", () => {
  it("a guest saves at once to the default list: saved and session messages to the opener only, the fragment gone, then it closes itself", async () => {
    const w = await widgetFor();
    const prod = product();
    const { context, page, popup, console } = await openDialog(w.token, prod, "de-DE");

    await expect.poll(() => popup.url()).toBe(`${api.server.url}/dialog/save`);
    expect(await popup.getAttribute("html", "lang")).toBe("de");
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await popup.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();
    expect(await popup.getByRole("link", { name: "Meine Listen ansehen" }).getAttribute("href")).toBe("/de/lists");

    await expect.poll(async () => (await messages(page)).map((m) => m.type)).toEqual(["saved", "session"]);
    const saved = (await messages(page))[0];
    expect(saved).toMatchObject({ source: "wish", type: "saved", item: { wishlist_name: "Meine Wunschliste", product: prod } });
    expect(saved.item.item_id).toEqual(expect.any(Number));

    // The shop page gets a partner-scoped credential that finds the product, and nothing more.
    const shopper = await restoredShopper(w.token, w.sid);
    expect(shopper).toMatchObject({ scope: "shopper", user: { is_anonymous: true } });
    const products = await api.get("/widget/saved-products", {
      token: shopper!.access_token,
      headers: { "x-widget-token": w.token, origin: shopOrigin() },
    });
    expect(products.body.products.map((x: { url: string }) => x.url)).toContain(prod.url);
    expect((await api.post("/hosted/lists", { token: shopper!.access_token })).status).toBe(401);

    // Nobody touches it: it closes by itself and says so to the page.
    await popup.waitForEvent("close", { timeout: 10_000 });
    await expect.poll(async () => (await messages(page)).map((m) => m.type)).toContain("close");
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("sign-up saves to the default list; Change list moves it to a new list; the next open on another shop saves there in one click; sign out", async () => {
    const w = await widgetFor();
    const address = email();
    // Both shops' visitors allow preferences: the dialog may remember the list used last (docs/privacy.md).
    const first = await openDialog(w.token, product(), "en-US", undefined, "preferences");
    const popup = first.popup;
    await popup.getByRole("button", { name: "Create account" }).click();
    await popup.getByLabel("E-mail").fill(address);
    await popup.getByLabel("Password").fill("a fine password");
    await popup.getByRole("button", { name: "Create account" }).first().click();
    await popup.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await stayOpen(popup);
    expect(await popup.getByText(`Signed in as ${address}`).isVisible()).toBe(true);

    await popup.getByRole("button", { name: "Change list" }).click();
    await popup.getByLabel("Name of the new list").fill("Birthday");
    await popup.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => popup.getByLabel(/^Birthday/).isChecked()).toBe(true);
    await popup.getByRole("button", { name: "Move to this list" }).click();
    await popup.getByRole("heading", { name: "Saved to “Birthday”" }).waitFor();
    await stayOpen(popup);
    await expect.poll(async () => (await messages(first.page)).filter((m) => m.type === "saved").map((m) => m.item.wishlist_name)).toEqual([
      "My wishlist",
      "Birthday",
    ]);
    await popup.close();

    // Another shop, same browser: saved at once, to the list used last.
    const other = await widgetFor();
    const second = await openDialog(other.token, product(), "en-US", first.context, "preferences");
    await second.popup.getByRole("heading", { name: "Saved to “Birthday”" }).waitFor();
    await stayOpen(second.popup);
    expect(await second.popup.getByText(`Signed in as ${address}`).isVisible()).toBe(true);
    expect((await restoredShopper(other.token, other.sid))?.user.is_anonymous).toBe(false);

    await second.popup.getByRole("button", { name: "Sign out" }).click();
    await second.popup.getByRole("button", { name: "Continue as guest" }).waitFor();
    // Signing out ends what the shop pages held, too.
    expect(await restoredShopper(other.token, other.sid)).toBeNull();
    expect(first.console.errors).toEqual([]);
    await first.context.close();
  });

  it("a one-click save goes to the list saved to last (when the visitor allows preferences), else the default list, never to the list only edited", async () => {
    const address = email();
    const account = await api.post("/auth/signup", { body: { email: address, password: "a good long password" } });
    expect(account.status).toBe(200);
    const token = account.body.access_token as string;
    const own = await api.post("/hosted/me/init?lang=en", { token });
    const holiday = await api.post("/hosted/me/lists", { token, body: { name: "Holiday" } });
    // Edited after the default list: the lists now come newest first with Holiday on top.
    expect((await api.put(`/hosted/lists/${holiday.body.token}`, { token, body: { description: "Beach" } })).status).toBe(200);

    const w = await widgetFor();
    const first = await openDialog(w.token, product(), "en-US", undefined, "analytics,preferences");
    await first.popup.getByRole("button", { name: "Sign in" }).click();
    await first.popup.getByLabel("E-mail").fill(address);
    await first.popup.getByLabel("Password").fill("a good long password");
    await first.popup.getByRole("button", { name: "Sign in" }).first().click();
    await first.popup.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await stayOpen(first.popup);
    await first.popup.getByRole("button", { name: "Change list" }).click();
    await first.popup.getByLabel(/^Holiday/).check();
    await first.popup.getByRole("button", { name: "Move to this list" }).click();
    await first.popup.getByRole("heading", { name: "Saved to “Holiday”" }).waitFor();
    await first.popup.close();

    // Editing the default list afterwards (as on My lists) does not make it the list saved to last.
    expect((await api.put(`/hosted/lists/${own.body.list.id}`, { token, body: { description: "Everything" } })).status).toBe(200);
    const second = await openDialog(w.token, product(), "en-US", first.context, "preferences");
    await second.popup.getByRole("heading", { name: "Saved to “Holiday”" }).waitFor();
    await second.popup.close();
    // A shop page whose visitor does not allow preferences: the default list, and the remembered one is forgotten.
    const third = await openDialog(w.token, product(), "en-US", first.context);
    await third.popup.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    expect(await third.popup.evaluate(() => localStorage.getItem("wish:last-list"))).toBeNull();
    expect(first.console.errors).toEqual([]);
    await first.context.close();
  });

  it("a product already saved shows where, and can be removed; the page is told", async () => {
    const w = await widgetFor();
    const prod = product();
    const first = await openDialog(w.token, prod);
    await first.popup.getByRole("button", { name: "Continue as guest" }).click();
    await first.popup.getByRole("heading", { name: "Saved to “My wishlist”" }).waitFor();
    await first.popup.close();

    const again = await openDialog(w.token, prod, "en-US", first.context);
    await again.popup.getByRole("heading", { name: "Already saved in “My wishlist”" }).waitFor();
    await again.popup.getByRole("button", { name: "Remove from list" }).click();
    await again.popup.getByRole("heading", { name: "Removed from “My wishlist”" }).waitFor();
    await expect.poll(async () => (await messages(again.page)).map((m) => m.type)).toContain("removed");
    const shopper = await restoredShopper(w.token, w.sid);
    const products = await api.get("/widget/saved-products", { token: shopper!.access_token, headers: { "x-widget-token": w.token, origin: shopOrigin() } });
    expect(products.body.products).toEqual([]);
    expect(first.console.errors).toEqual([]);
    await first.context.close();
  });

  it("a guest who signs in keeps the lists made as a guest", async () => {
    const w = await widgetFor();
    const address = email();
    const account = await api.post("/auth/signup", { body: { email: address, password: "another password" } });
    expect(account.status).toBe(200);

    const { context, popup, console } = await openDialog(w.token, product());
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    await popup.close();

    const again = await openDialog(w.token, product(), "en-US", context);
    await again.popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    // "Sign in and keep my lists" opens the sign-in form, not "Create account".
    await again.popup.getByRole("button", { name: "Sign in and keep my lists" }).click();
    await again.popup.getByRole("heading", { name: "Sign in" }).waitFor();
    await again.popup.getByLabel("E-mail").fill(address);
    await again.popup.getByLabel("Password").fill("another password");
    await again.popup.getByRole("button", { name: "Sign in", exact: true }).click();
    await again.popup.getByText(`Signed in as ${address}`).waitFor();
    await again.popup.getByRole("heading", { name: /^Already saved in “My wishlist”/ }).waitFor();

    const lists = await api.post("/hosted/lists", { token: account.body.access_token });
    expect(lists.body.lists.map((l: { name: string; productCount: number }) => [l.name, l.productCount])).toEqual([["My wishlist", 2]]);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("a wrong password is a clear message, not a crash", async () => {
    const w = await widgetFor();
    const { context, popup, console } = await openDialog(w.token, product());
    await popup.getByRole("button", { name: "Sign in" }).click();
    await popup.getByLabel("E-mail").fill(email());
    await popup.getByLabel("Password").fill("wrong password");
    await popup.getByRole("button", { name: "Sign in" }).first().click();
    await expect.poll(() => popup.getByRole("alert").textContent()).toContain("E-mail or password is wrong.");
    // The failed sign-in is a 400 the browser logs as a failed resource; nothing else.
    expect(console.errors.filter((e) => !e.includes("400 (Bad Request)"))).toEqual([]);
    await context.close();
  });

  it("the sign-in offers Forgot your password?: the site's recovery page in a new tab, in the dialog's language (screenshots, axe)", async () => {
    const w = await widgetFor();
    for (const [locale, signIn, forgot, heading, path] of [
      ["en-US", "Sign in", "Forgot your password?", "Forgot your password?", "/en/account/forgot"],
      ["de-DE", "Anmelden", "Passwort vergessen?", "Passwort vergessen?", "/de/account/forgot"],
    ] as const) {
      const { context, popup, console } = await openDialog(w.token, product(), locale);
      await popup.getByRole("button", { name: signIn, exact: true }).click();
      const link = popup.getByRole("link", { name: forgot });
      await link.waitFor();
      for (const width of [375, 1280]) {
        await popup.setViewportSize({ width, height: 760 });
        await popup.screenshot({ path: `tests/screenshots/dialog-sign-in-${locale.slice(0, 2)}-${width}.png`, fullPage: true });
      }
      expect(await seriousA11yViolations(popup)).toEqual([]);
      const opened = context.waitForEvent("page");
      await link.click();
      const page = await opened;
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
      expect(console.errors).toEqual([]);
      await context.close();
    }
  });

  it("the Free cap's 402 says until when the shop's wishlist is paused; nothing is saved", async () => {
    const w = await widgetFor("free");
    const period = new Date().toISOString().slice(0, 7);
    await sql(api.server.databaseUrl, `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (?, ?, ?, 0, 0, ?)`, [
      w.partner.id,
      period,
      200,
      200,
    ]);
    const { context, page, popup } = await openDialog(w.token, product());
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    const now = new Date();
    const until = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
    await expect.poll(() => popup.getByRole("alert").textContent()).toBe(`This shop's wishlist is paused until ${until}.`);
    expect((await messages(page)).map((m) => m.type)).not.toContain("saved");
    await context.close();
  });

  it("a network failure offers a retry that completes the save", async () => {
    const w = await widgetFor();
    const { context, page, popup } = await openDialog(w.token, product());
    let failures = 0;
    await popup.route("**/api/v1/widget/save", (route) => (failures++ === 0 ? route.abort("internetdisconnected") : route.continue()));
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await expect.poll(() => popup.getByRole("alert").textContent()).toContain("No connection.");
    await popup.getByRole("button", { name: "Try again" }).click();
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    expect(failures).toBe(2);
    await expect.poll(async () => (await messages(page)).filter((m) => m.type === "saved").length).toBe(1);
    await context.close();
  });

  it("writes screenshots of its screens at 375 and 1280 px for review (tests/screenshots/)", async () => {
    const w = await widgetFor();
    const { context, popup } = await openDialog(w.token, product({ imageUrl: "https://img.shop.test/scarf.png" }), "de-DE");
    await context.route("https://img.shop.test/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: SCARF_SVG }));
    const shoot = async (name: string) => {
      for (const width of [375, 1280]) {
        await popup.setViewportSize({ width, height: 760 });
        await popup.screenshot({ path: `tests/screenshots/dialog-${name}-${width}.png`, fullPage: true });
      }
    };
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).waitFor();
    await shoot("welcome");
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await popup.getByRole("heading", { name: /^Gespeichert in/ }).waitFor();
    await stayOpen(popup);
    await shoot("saved");
    await popup.getByRole("button", { name: "Liste ändern" }).click();
    await popup.getByRole("radio").first().waitFor();
    await shoot("change-list");
    await context.close();
  });

  it("shows a price in its currency's own minor unit: JPY 1500 is ¥1,500 (no decimals), KWD 12345 is 12,345 KWD (three)", async () => {
    const w = await widgetFor();
    for (const [prod, locale, text] of [
      [product({ price: 1500, currency: "JPY" }), "en-US", "¥1,500"],
      [product({ price: 12345, currency: "KWD" }), "de-DE", "12,345\u00a0KWD"],
    ] as const) {
      const { context, popup, console } = await openDialog(w.token, prod, locale);
      await expect.poll(() => popup.locator(".product .muted").textContent()).toBe(text);
      expect(console.errors).toEqual([]);
      await context.close();
    }
  });

  it("opened without a product, it says so", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.server.url}/dialog/save`);
    // The heading is there from the first paint, the message once the script has looked for a product.
    await page.getByText("opened without a product").waitFor();
    await page.getByRole("heading", { name: "Save to wishlist" }).waitFor();
    await context.close();
  });

  it("is accessible (axe: no serious violations) and fits 320 px on every screen", async () => {
    const w = await widgetFor();
    const { context, popup } = await openDialog(w.token, product());
    await popup.setViewportSize({ width: 320, height: 640 });
    const check = async () => {
      expect(await seriousA11yViolations(popup)).toEqual([]);
      expect(await popup.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    };
    await popup.getByRole("button", { name: "Continue as guest" }).waitFor();
    await check();
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    await stayOpen(popup);
    await check();
    await popup.getByRole("button", { name: "Change list" }).click();
    await popup.getByRole("radio").first().waitFor();
    await check();
    await popup.getByRole("button", { name: "Back" }).click();
    await popup.getByRole("button", { name: "Sign in and keep my lists" }).click();
    await popup.getByLabel("E-mail").waitFor();
    await check();
    await context.close();
  });
});
