// The hosted save dialog /dialog/save in real Chromium, opened from a shop page
// on another origin exactly as widget.js opens it (docs/storefront-protocol.md):
// a popup at /dialog/save#token=…&product=…&locale=…, messages back to the
// opener only at the token's origin.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sharedApi } from "../support/api.ts";
import { clickAndClose, launchBrowser, seriousA11yViolations, startShop, watchConsole, type ShopServer } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
let browser: Browser;
let shop: ShopServer;

beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
  browser = await launchBrowser();
  shop = await startShop();
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
afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

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

const product = (over: Record<string, unknown> = {}) => ({
  url: `https://${SHOP_HOST}/products/${randomBytes(4).toString("hex")}`,
  title: "Wool scarf",
  price: 4990,
  currency: "EUR",
  marketCode: "de-DE",
  ...over,
});

function fragment(token: string, prod: Record<string, unknown>, locale = "en-US") {
  return new URLSearchParams({ token, product: JSON.stringify(prod), locale }).toString();
}

interface Opened {
  context: BrowserContext;
  page: Page;
  popup: Page;
  console: { errors: string[] };
}

/** Opens the shop page in `context` and the dialog from a click, as the SDK would. */
async function openDialog(token: string, prod: Record<string, unknown>, locale = "en-US", context?: BrowserContext): Promise<Opened> {
  context ??= await browser.newContext();
  const console = watchConsole(context);
  const page = await context.newPage();
  await page.goto(`${shopOrigin()}/opener`);
  await page.evaluate((f) => ((window as any).fragment = f), fragment(token, prod, locale));
  const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#open")]);
  await popup.waitForLoadState();
  return { context, page, popup, console };
}

const messages = (page: Page) => page.evaluate(() => (window as any).messages as Array<Record<string, any>>);

async function restoredSession(token: string, sid: string) {
  const res = await api.post("/widget/session-restore", { headers: { "x-widget-token": token, origin: shopOrigin() }, body: { sid } });
  expect(res.status, res.text).toBe(200);
  return res.body.session as { access_token: string; user: { id: string; email: string | null; is_anonymous: boolean } } | null;
}

describe("/dialog/save", () => {
  it("a guest saves: default list, saved and session messages to the opener only, the fragment gone from the address", async () => {
    const w = await widgetFor();
    const prod = product();
    const { context, page, popup, console } = await openDialog(w.token, prod, "de-DE");

    await expect.poll(() => popup.url()).toBe(`${api.server.url}/dialog/save`);
    expect(await popup.getAttribute("html", "lang")).toBe("de");
    await popup.getByRole("button", { name: "Als Gast fortfahren" }).click();
    await expect.poll(() => popup.getByRole("radio").count()).toBe(1);
    expect(await popup.getByLabel(/Meine Wunschliste/).isChecked()).toBe(true);
    await popup.getByRole("button", { name: "Speichern" }).click();
    await popup.getByRole("heading", { name: "Gespeichert in „Meine Wunschliste“" }).waitFor();

    await expect.poll(async () => (await messages(page)).map((m) => m.type)).toEqual(["session", "saved"]);
    const saved = (await messages(page))[1];
    expect(saved).toMatchObject({ source: "wish", type: "saved", item: { wishlist_name: "Meine Wunschliste", product: prod } });
    expect(saved.item.item_id).toEqual(expect.any(Number));

    // The shop page can now read the session (without ever seeing a password) and finds the product.
    const session = await restoredSession(w.token, w.sid);
    expect(session?.user.is_anonymous).toBe(true);
    const products = await api.get("/widget/saved-products", {
      token: session!.access_token,
      headers: { "x-widget-token": w.token, origin: shopOrigin() },
    });
    expect(products.body.products.map((x: { url: string }) => x.url)).toContain(prod.url);

    await clickAndClose(popup, "Schließen");
    await expect.poll(async () => (await messages(page)).map((m) => m.type)).toContain("close");
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("sign-up, a new list, save; the next open recognises the shopper, who signs out", async () => {
    const w = await widgetFor();
    const address = email();
    const first = await openDialog(w.token, product());
    const popup = first.popup;
    await popup.getByRole("button", { name: "Create account" }).click();
    await popup.getByLabel("E-mail").fill(address);
    await popup.getByLabel("Password").fill("a fine password");
    await popup.getByRole("button", { name: "Create account" }).first().click();
    await popup.getByRole("radio").first().waitFor();
    expect(await popup.getByText(`Signed in as ${address}`).isVisible()).toBe(true);

    await popup.getByLabel("Name of the new list").fill("Birthday");
    await popup.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => popup.getByLabel(/^Birthday/).isChecked()).toBe(true);
    await popup.getByRole("button", { name: "Save" }).click();
    await popup.getByRole("heading", { name: "Saved to “Birthday”" }).waitFor();
    await popup.close();

    // Another shop, same browser: straight to the list picker.
    const other = await widgetFor();
    const second = await openDialog(other.token, product(), "en-US", first.context);
    await second.popup.getByRole("radio").first().waitFor();
    expect(await second.popup.getByText(`Signed in as ${address}`).isVisible()).toBe(true);
    expect(await second.popup.getByLabel(/^Birthday · 1 product/).count()).toBe(1);
    expect((await restoredSession(other.token, other.sid))?.user.email).toBe(address);

    await second.popup.getByRole("button", { name: "Sign out" }).click();
    await second.popup.getByRole("button", { name: "Continue as guest" }).waitFor();
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
    await popup.getByRole("button", { name: "Save" }).click();
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    await popup.close();

    const again = await openDialog(w.token, product(), "en-US", context);
    await again.popup.getByRole("button", { name: "Sign in and keep my lists" }).click();
    await again.popup.getByLabel("E-mail").fill(address);
    await again.popup.getByLabel("Password").fill("another password");
    await again.popup.getByRole("button", { name: "Sign in" }).first().click();
    await again.popup.getByText(`Signed in as ${address}`).waitFor();
    expect(await again.popup.getByLabel(/^My wishlist · 1 product/).count()).toBe(1);

    const lists = await api.post("/hosted/lists", { token: account.body.access_token });
    expect(lists.body.lists.map((l: { name: string; productCount: number }) => [l.name, l.productCount])).toEqual([["My wishlist", 1]]);
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
    await popup.getByRole("button", { name: "Save" }).click();
    const now = new Date();
    const until = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
    await expect.poll(() => popup.getByRole("alert").textContent()).toBe(`This shop's wishlist is paused until ${until}.`);
    expect((await messages(page)).map((m) => m.type)).not.toContain("saved");
    await context.close();
  });

  it("a network failure offers a retry that completes the save", async () => {
    const w = await widgetFor();
    const { context, page, popup } = await openDialog(w.token, product());
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await popup.getByRole("radio").first().waitFor();
    let failures = 0;
    await popup.route("**/api/v1/widget/save", (route) => (failures++ === 0 ? route.abort("internetdisconnected") : route.continue()));
    await popup.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => popup.getByRole("alert").textContent()).toContain("No connection.");
    await popup.getByRole("button", { name: "Try again" }).click();
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    expect(failures).toBe(2);
    await expect.poll(async () => (await messages(page)).filter((m) => m.type === "saved").length).toBe(1);
    await context.close();
  });

  it("opened without a product, it says so", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.server.url}/dialog/save`);
    await page.getByRole("heading", { name: "Save to wishlist" }).waitFor();
    expect(await page.textContent("main")).toContain("opened without a product");
    await context.close();
  });

  it("is accessible (axe: no serious violations) and fits 320 px", async () => {
    const w = await widgetFor();
    const { context, popup } = await openDialog(w.token, product());
    await popup.setViewportSize({ width: 320, height: 640 });
    await popup.getByRole("button", { name: "Continue as guest" }).waitFor();
    expect(await seriousA11yViolations(popup)).toEqual([]);
    await popup.getByRole("button", { name: "Continue as guest" }).click();
    await popup.getByRole("radio").first().waitFor();
    expect(await seriousA11yViolations(popup)).toEqual([]);
    expect(await popup.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await popup.getByRole("button", { name: "Sign in and keep my lists" }).click();
    await popup.getByLabel("E-mail").waitFor();
    expect(await seriousA11yViolations(popup)).toEqual([]);
    await context.close();
  });
});
