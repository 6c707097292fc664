// What a partner's page holds after a shopper saved there, tried by a hostile
// partner in Chromium: anyone can become a partner (anonymous sign-up,
// bootstrap, a test key without an allow-list) and put a heart on their own
// page. A shopper who signed in before clicks it once. The page must never see
// a refresh token or the shopper's account session; what it gets works for its
// own widget's saved products and nothing else (docs/storefront-protocol.md).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { sharedApi } from "../support/api.ts";
import type { ShopServer } from "../support/browser.ts";
import { startBrowserAndShop, type BrowserAndShop } from "../support/browser-shop.ts";
import { provisioner } from "../support/provision.ts";
import { until } from "../support/wait.ts";

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

const hex = () => randomBytes(3).toString("hex");

function heartPage(key: string, productUrl: string) {
  const path = `/heart-${hex()}`;
  shop.page(
    path,
    `<!doctype html><html lang="en"><head><title>Shop</title>
<script src="${api.server.url}/sdk/v1/widget.js" data-wish-key="${key}" async></script></head>
<body><main><h1>Shop</h1><button type="button" id="heart" data-wish data-url="${productUrl}" data-title="Thing">Save</button></main></body></html>`,
  );
  return path;
}

/** A partner made the way anybody can: anonymous sign-up, bootstrap, a test key without an allow-list. */
async function selfMadePartner() {
  const owner = await api.anonymousUser();
  const boot = await api.post("/partner/bootstrap", { token: owner.accessToken, body: { name: "Totally a shop", email: `owner-${hex()}@evil.example` } });
  expect(boot.status, boot.text).toBeLessThan(300);
  const key = await api.post("/partner/keys", { token: owner.accessToken, body: { environment: "test" } });
  expect(key.status, key.text).toBe(201);
  return key.body.key.key as string;
}

describe("a partner's page after the shopper saved there", () => {
  it("never sees a refresh token, and its credential works nowhere but its own widget's saved products", async () => {
    // The shopper's own favourite shop, where they signed up and saved before.
    const good = await p.partner("growth");
    const goodKey = (await p.key(good.id, { domains: ["good.shop.test"] })).key as string;
    const goodProduct = `https://good.shop.test/products/scarf-${hex()}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(shop.origin("good.shop.test") + heartPage(goodKey, goodProduct));
    const [signup] = await Promise.all([page.waitForEvent("popup"), page.click("#heart")]);
    await signup.getByRole("button", { name: "Create account" }).click();
    await signup.getByLabel("E-mail").fill(`victim-${hex()}@example.com`);
    await signup.getByLabel("Password").fill("a good password");
    await signup.getByRole("button", { name: "Create account" }).first().click();
    await signup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    await signup.close();

    // The hostile page: one click by the returning shopper.
    const evilKey = await selfMadePartner();
    const evilOrigin = shop.origin("evil.shop.test");
    const evil = await context.newPage();
    const seen: Array<{ path: string; body: string }> = [];
    evil.on("response", async (res) => {
      if (res.frame() !== evil.mainFrame() || !res.url().startsWith(api.server.url)) return;
      seen.push({ path: new URL(res.url()).pathname, body: await res.text().catch(() => "") });
    });
    await evil.goto(evilOrigin + heartPage(evilKey, `https://evil.shop.test/products/bait-${hex()}`));
    const [popup] = await Promise.all([evil.waitForEvent("popup"), evil.click("#heart")]);
    await popup.getByRole("heading", { name: /^Saved to/ }).waitFor();
    await expect.poll(() => evil.getAttribute("#heart", "aria-pressed")).toBe("true");
    await popup.close();

    // Bodies are read as they arrive: the list fills a moment after the page has what it asked for.
    const restore = await until("the session-restore answer", () => seen.find((r) => r.path === "/api/v1/widget/session-restore" && r.body.includes("access_token")), Boolean);
    for (const r of seen) expect(r.body, r.path).not.toContain("refresh_token");
    const held = JSON.parse(restore!.body).session;
    expect(held.scope).toBe("shopper");

    // Everything the page tries with what it holds, from the page itself.
    const attempts = await evil.evaluate(
      async ({ base, anonKey, credential, otherKey }) => {
        const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
          const res = await fetch(base + path, {
            method,
            headers: { apikey: anonKey, authorization: `Bearer ${credential}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
            body: body ? JSON.stringify(body) : undefined,
          });
          return { path: `${method} ${path}`, status: res.status, body: await res.text() };
        };
        const init = async (key: string) => {
          const res = await fetch(base + "/widget/init", {
            method: "POST",
            headers: { apikey: anonKey, authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ origin: location.origin }),
          });
          return (await res.json()).token as string;
        };
        const other = await init(otherKey);
        return [
          await call("POST", "/hosted/lists"),
          await call("POST", "/hosted/saved-products"),
          await call("POST", "/hosted/me/init"),
          await call("GET", "/auth/user"),
          await call("GET", "/me/usage"),
          await call("GET", "/partner/keys"),
          await call("GET", "/partner/access-tokens"),
          await call("POST", "/partner/access-tokens", {}, { name: "mine now", expires_in_days: 365 }),
          await call("POST", "/widget/lists", { "x-widget-token": other }, {}),
          await call("GET", "/widget/saved-products", { "x-widget-token": other }),
          await call("POST", "/widget/session-store", { "x-widget-token": other }, { access_token: credential, sid: "s".repeat(22) }),
        ];
      },
      { base: api.server.baseUrl, anonKey: api.anonKey, credential: held.access_token, otherKey: (await p.key((await p.partner()).id)).key as string },
    );
    for (const a of attempts) {
      // 401 exactly: the credential is no account token anywhere (a 404 `no_partner` would mean it was taken for one).
      expect(a.status, `${a.path}: ${a.body}`).toBe(401);
      expect(a.body).not.toContain("refresh_token");
      expect(a.body).not.toContain("wpat_");
    }

    // Its own widget's saved products: only what was saved on this page, never the shopper's other shops.
    const own = await evil.evaluate(
      async ({ base, anonKey, credential, key }) => {
        const init = await fetch(base + "/widget/init", {
          method: "POST",
          headers: { apikey: anonKey, authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ origin: location.origin }),
        });
        const token = (await init.json()).token as string;
        const res = await fetch(base + "/widget/saved-products", { headers: { apikey: anonKey, authorization: `Bearer ${credential}`, "x-widget-token": token } });
        return { status: res.status, urls: ((await res.json()).products as Array<{ url: string }>).map((x) => x.url) };
      },
      { base: api.server.baseUrl, anonKey: api.anonKey, credential: held.access_token, key: evilKey },
    );
    expect(own.status).toBe(200);
    expect(own.urls.every((u) => u.startsWith("https://evil.shop.test/"))).toBe(true);
    expect(own.urls).not.toContain(goodProduct);
    await context.close();
  });
});
