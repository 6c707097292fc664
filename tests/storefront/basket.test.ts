// The basket: basket-integration.js on a shop page (another origin) frames the
// hosted drawer /dialog/basket, which lists the shopper's saved products of
// this shop; "add to cart" navigates the shop page to the filled cartUrl and
// the checkout is recorded (SPEC 4.5, 4.7; docs/storefront-protocol.md).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { sharedApi } from "../support/api.ts";
import { seriousA11yViolations, watchConsole, type ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
let baskets: typeof import("~/domains/baskets/baskets.server");
let browser: Browser;
let shop: ShopServer;
let browserShop: BrowserAndShop;

beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
  baskets = await import("~/domains/baskets/baskets.server");
  ({ browser, shop } = browserShop = await startBrowserAndShop());
});
afterAll(() => browserShop?.stop());

const HOST = "basket.shop.test";
const origin = () => shop.origin(HOST);

/** A partner with a key for the shop's host, a basket, and a shopper whose widget session holds two saves of this shop. */
async function arrange(opts: { domains?: string[]; prices?: Array<{ price: number; currency: string }> } = {}) {
  const partner = await p.partner("growth");
  const key = await p.key(partner.id, { domains: opts.domains ?? [HOST] });
  const basket = await baskets.createBasketConfig(partner.id, { layout: "drawer", primaryColor: "#0a5c36" });
  const init = await api.post("/widget/init", { token: key.key, body: { origin: origin() } });
  expect(init.status, init.text).toBe(200);
  const w = { token: init.body.token as string, sid: init.body.sid as string };
  const user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Wishes" } });
  const save = (title: string, metadata?: Record<string, unknown>, money = { price: 2500, currency: "EUR" }) =>
    api.post("/widget/save", {
      token: user.accessToken,
      headers: { "x-widget-token": w.token, origin: origin() },
      body: {
        wishlistId: list.body.list.db_id,
        siteDomain: HOST,
        product: { url: `https://${HOST}/products/${randomBytes(3).toString("hex")}`, title, ...money, metadata },
      },
    });
  expect((await save("Blue mug", { variantId: "4001", quantity: 2 }, opts.prices?.[0])).status).toBe(200);
  expect((await save("Tea towel", { variant_id: 4002 }, opts.prices?.[1])).status).toBe(200);
  const stored = await api.post("/widget/session-store", {
    headers: { "x-widget-token": w.token, origin: origin() },
    body: { access_token: user.accessToken, refresh_token: user.refreshToken, sid: w.sid },
  });
  expect(stored.status, stored.text).toBe(200);
  return { partner, key: key.key as string, basketId: basket.basket.id as string, sid: w.sid };
}

/** Init scripts run in every frame; only the shop's own page may (and can) hold its widget session id. */
const seedSid = ({ sid, origin }: { sid: string; origin: string }) => {
  if (location.origin === origin) localStorage.setItem("wish:sid", sid);
};

/** The shop's page with the drawer; its visitor allowed analytics (docs/privacy.md), so the drawer counts its opening. */
function shopPage(path: string, key: string, basketId: string, appUrl: string) {
  shop.page(
    path,
    `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1>
<button type="button" data-wish-basket>My wishlist</button></main>
<script src="${appUrl}/sdk/v1/basket-integration.js"></script>
<script>WishBasket.init({ apiKey: ${JSON.stringify(key)}, configId: ${JSON.stringify(basketId)}, cartUrl: "/cart/add?id={variant_id}&quantity={quantity}", consent: { analytics: true } });</script>
</body></html>`,
  );
  shop.page("/cart/add", `<!doctype html><html lang="en"><head><title>Cart</title></head><body><main><h1>Cart</h1></main></body></html>`);
}

async function events(basketId: string) {
  const rows = await sql<{ type: string; meta: unknown }>(
    api.server.databaseUrl,
    `SELECT e."type", e."meta" FROM "BasketEvent" e JOIN "BasketConfig" b ON b.id = e."basketConfigId" WHERE b."publicId" = ? ORDER BY e.id`,
    [basketId],
  );
  return rows.map((r) => r.type);
}

describe("basket drawer", () => {
  it("lists the shopper's saved products; add to cart navigates to the filled cartUrl and records open and checkout", async () => {
    const a = await arrange();
    shopPage("/with-basket", a.key, a.basketId, api.server.url);
    const context = await browser.newContext();
    const console = watchConsole(context);
    await context.addInitScript(seedSid, { sid: a.sid, origin: origin() });
    const page = await context.newPage();
    await page.goto(`${origin()}/with-basket`);
    await page.getByRole("button", { name: "My wishlist" }).click();

    const drawer = page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`);
    await drawer.getByText("Blue mug").waitFor();
    expect(await drawer.getByText("Tea towel").count()).toBe(1);
    expect(await drawer.getByText("Quantity: 2").count()).toBe(1);
    await expect.poll(() => events(a.basketId)).toEqual(["open"]);

    const frame = page.frames().find((f) => f.url().startsWith(`${api.server.url}/dialog/basket`))!;
    expect(await seriousA11yViolations(frame)).toEqual([]);

    // Each line carries its item's signed reference as a Shopify line-item property (docs/shopify.md "Shopify webhooks").
    await Promise.all([
      page.waitForURL(
        (u) =>
          u.pathname === "/cart/add" &&
          u.searchParams.get("id") === "4001" &&
          u.searchParams.get("quantity") === "2" &&
          /^\d+\.[\w-]{22}$/.test(u.searchParams.get("properties[_wish_ref]") ?? ""),
      ),
      drawer.getByRole("button", { name: "Add to cart: Blue mug" }).click(),
    ]);
    await expect.poll(() => events(a.basketId)).toEqual(["open", "checkout_started"]);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it("shows each price in its currency's own minor unit: JPY 1500 is ¥1,500, KWD 12345 is KWD 12.345", async () => {
    const a = await arrange({ prices: [{ price: 1500, currency: "JPY" }, { price: 12345, currency: "KWD" }] });
    shopPage("/money", a.key, a.basketId, api.server.url);
    const context = await browser.newContext();
    await context.addInitScript(seedSid, { sid: a.sid, origin: origin() });
    const page = await context.newPage();
    await page.goto(`${origin()}/money`);
    await page.getByRole("button", { name: "My wishlist" }).click();
    const drawer = page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`);
    await drawer.getByText("Tea towel").waitFor();
    const priceOf = (title: string) => drawer.locator("li .info", { hasText: title }).locator("strong + span").textContent();
    expect(await priceOf("Blue mug")).toBe("¥1,500");
    expect(await priceOf("Tea towel")).toBe("KWD\u00a012.345");
    await context.close();
  });

  it("add all adds every line: all but the last by request, then navigates to the last", async () => {
    const a = await arrange();
    shopPage("/add-all", a.key, a.basketId, api.server.url);
    const context = await browser.newContext();
    await context.addInitScript(seedSid, { sid: a.sid, origin: origin() });
    const page = await context.newPage();
    await page.goto(`${origin()}/add-all`);
    await page.getByRole("button", { name: "My wishlist" }).click();
    const drawer = page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`);
    await drawer.getByText("Tea towel").waitFor();
    const before = shop.requests.length;
    await Promise.all([page.waitForURL(/\/cart\/add\?id=400[12]/), drawer.getByRole("button", { name: "Add all to cart" }).click()]);
    const cartRequests = shop.requests.slice(before).filter((r) => r.startsWith("/cart/add"));
    const lines = cartRequests.map((r) => new URL(r, origin()).searchParams);
    expect(lines.map((q) => `${q.get("id")}x${q.get("quantity")}`).sort()).toEqual(["4001x2", "4002x1"]);
    const refs = lines.map((q) => q.get("properties[_wish_ref]") ?? "");
    expect(refs.every((r) => /^\d+\.[\w-]{22}$/.test(r))).toBe(true);
    expect(new Set(refs).size).toBe(2);
    await context.close();
  });

  it("an opener clicked before the drawer's configuration arrived opens the drawer once it has", async () => {
    const a = await arrange();
    shopPage("/early-click", a.key, a.basketId, api.server.url);
    const context = await browser.newContext();
    await context.addInitScript(seedSid, { sid: a.sid, origin: origin() });
    // A slow network: the configuration answers only after the shopper clicked.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(`${api.server.url}/api/v1/baskets/${a.basketId}`, async (route) => {
      await held;
      await route.continue();
    });
    const page = await context.newPage();
    await page.goto(`${origin()}/early-click`);
    await page.getByRole("button", { name: "My wishlist" }).click();
    expect(await page.locator("iframe").count()).toBe(0);
    release();
    await page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`).getByText("Blue mug").waitFor();
    await context.close();
  });

  it("a shopper without a widget session sees how to fill the drawer", async () => {
    const a = await arrange();
    shopPage("/no-session", a.key, a.basketId, api.server.url);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin()}/no-session`);
    await page.getByRole("button", { name: "My wishlist" }).click();
    const drawer = page.frameLocator(`iframe[src^="${api.server.url}/dialog/basket"]`);
    await drawer.getByText("Save products with the heart button").waitFor();
    await context.close();
  });
});

describe("/dialog/basket framing", () => {
  it("only the hosts the partner's keys allow may frame the drawer; unknown baskets are 404", async () => {
    const a = await arrange({ domains: [HOST, "*.other.example"] });
    const res = await fetch(`${api.server.url}/dialog/basket?config=${a.basketId}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`frame-ancestors localhost:* 127.0.0.1:* ${HOST}:* *.other.example:*`);
    expect(res.headers.get("x-wish-frame-ancestors")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");

    const unknown = await fetch(`${api.server.url}/dialog/basket?config=bkt_doesnotexist`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("a partner with a key without allow-list may be framed anywhere, as its init accepts any origin", async () => {
    const partner = await p.partner("free");
    await p.key(partner.id, { domains: [] });
    const basket = await baskets.createBasketConfig(partner.id, {});
    const res = await fetch(`${api.server.url}/dialog/basket?config=${basket.basket.id}`);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
  });

  it("the save dialog may not be framed", async () => {
    const res = await fetch(`${api.server.url}/dialog/save`);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
