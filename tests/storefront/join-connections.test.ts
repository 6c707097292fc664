// Joins seen and undone, in Chromium against the built server
// (docs/identity.md, "Joins and merges"). A hostile store forwards its own
// customer's join link to a shopper signed in on APP_URL: the join page names
// the store, the store's customer account (e-mail masked, read from the fake
// Admin API through the shop's offline session) and what would move, and
// nothing is joined until the shopper confirms; Cancel leaves nothing joined.
// "Connected shops" on My lists lists the join and a shop's consent, and
// Disconnect ends them: the store's next signed request for that customer gets
// a fresh store account, and the items stay in the account. Screenshots of
// both at 375 and 1280 px in tests/screenshots/, axe-clean.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { signedProxyQuery } from "../support/app-proxy.ts";
import { launchBrowser, seriousA11yViolations, watchConsole } from "../support/browser.ts";
import { provisioner } from "../support/provision.ts";
import { root, startServer, type TestServer } from "../support/server.ts";
import { FakeAdminApi, fakeAdminForServer } from "../support/shopify.ts";

const SECRET = "shpss_join_connections_secret";
const screenshots = path.join(root, "tests/screenshots");
const PASSWORD = "correct horse battery";
const rand = () => randomBytes(4).toString("hex");

let server: TestServer;
let api: Api;
let browser: Browser;
let admin: FakeAdminApi;
let fake: Awaited<ReturnType<typeof fakeAdminForServer>>;
let db: Awaited<typeof import("~/db.server")>["db"];
let p: Awaited<ReturnType<typeof provisioner>>;
const consoles: { errors: string[] }[] = [];

beforeAll(async () => {
  admin = new FakeAdminApi();
  fake = await fakeAdminForServer(admin);
  server = await startServer({ SHOPIFY_API_KEY: "test-client-id", SHOPIFY_API_SECRET: SECRET, OUTBOX_POLL_MS: "200", ...fake.env });
  api = await apiFor(server);
  p = await provisioner(server);
  ({ db } = await import("~/db.server"));
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
  expect(consoles.flatMap((c) => c.errors)).toEqual([]);
});

/** An installed store with a name, a primary domain and an offline session the server reads the Admin API with. */
async function newStore(name: string, primaryHost: string) {
  const partner = await p.partner("free", name);
  const domain = `join-${rand()}.myshopify.com`;
  const shop = await p.shop(partner.id, { domain });
  await db.platformShop.update({ where: { id: shop.id }, data: { name, primaryDomain: primaryHost } });
  await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: `shpat_${rand()}`, scope: "write_customers" } });
  const key = (await p.key(partner.id, { domains: [domain] })).key as string;
  return { partnerId: partner.id, shopId: shop.id, domain, primaryHost, name, key, fake: admin.addShop(domain, { primaryHost, name }) };
}
type Store = Awaited<ReturnType<typeof newStore>>;

/** A request Shopify's app proxy forwards for `customer` of `store`. */
async function proxied(store: Store, pathname: string, customer: string) {
  const query = signedProxyQuery({ shop: store.domain, customerId: customer }, SECRET);
  const res = await fetch(`${server.url}/proxy${pathname}?${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `https://${store.domain}` },
    body: "{}",
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** A customer of the store with `titles` saved through the store (their store account). */
async function customerWith(store: Store, titles: string[]) {
  const customer = String(7_100_000_000 + randomBytes(3).readUIntBE(0, 3));
  const s = await proxied(store, "/session", customer);
  const origin = `https://${store.domain}`;
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${store.key}` }, body: { origin } });
  for (const title of titles) {
    const saved = await api.post("/widget/save", {
      token: s.session.access_token,
      headers: { "x-widget-token": init.body.token, origin },
      body: { wishlistId: s.list.id, product: { url: `${origin}/products/${title.toLowerCase().replace(/\W+/g, "-")}-${rand()}`, title }, siteDomain: store.domain },
    });
    expect(saved.status, saved.text).toBe(200);
  }
  return { customer, storeUserId: (await linkOf(store, customer))!.userId };
}

/** A shopper with an account of ours (one product of their own), signed in on APP_URL in a fresh browser context. */
async function signedInShopper(width = 1280) {
  const email = `victim-${rand()}@example.com`;
  const signup = await api.post("/auth/signup", { body: { email, password: PASSWORD } });
  expect(signup.status, signup.text).toBe(200);
  const me = { userId: signup.body.user.id as string, accessToken: signup.body.access_token as string, email };
  const ctx: BrowserContext = await browser.newContext({ viewport: { width, height: 900 } });
  ctx.setDefaultTimeout(10_000);
  consoles.push(watchConsole(ctx));
  const page = await ctx.newPage();
  await page.goto(`${server.url}/en/lists`);
  const status = await page.evaluate(async (accessToken) => {
    const res = await fetch("/session/cookie", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: accessToken }) });
    return res.status;
  }, me.accessToken);
  expect(status).toBe(200);
  return { ...me, ctx, page };
}

const linkOf = (store: Store, customer: string) => db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: store.shopId, customerId: customer } } });
const consentsOf = (userId: string) => db.shopperConsent.findMany({ where: { userId }, orderBy: { partnerId: "asc" } });
const itemsOf = (userId: string) => db.listItem.count({ where: { wishlist: { ownerId: userId } } });

async function openMyLists(page: Page) {
  await page.goto(`${server.url}/en/lists`);
  await page.locator(".ml[data-hydrated]").waitFor();
  return page.getByRole("region", { name: "Connected shops" });
}

describe("a forwarded join link", () => {
  it("joins nothing until the shopper confirms a confirmation naming the store, its customer (e-mail masked) and what moves; Cancel joins nothing", async () => {
    const hostile = await newStore("Mallory Goods", "mallory-goods.example");
    const mallory = await customerWith(hostile, ["Lure one", "Lure two"]);
    hostile.fake.customers.set(mallory.customer, { email: "mallory@attacker.example" });
    // The store's customer asks its own proxy for the join page and forwards the address.
    const { url } = await proxied(hostile, "/link", mallory.customer);
    const victim = await signedInShopper();
    const { page } = victim;

    await page.goto(url);
    await page.getByRole("heading", { name: "Before you join" }).waitFor();
    await page.getByText("Join your wishlist with the customer account m•••@attacker.example at mallory-goods.example?").waitFor();
    const facts = page.locator("dl.join-facts");
    expect(await facts.textContent()).toContain("Mallory Goods");
    expect(await facts.locator(".join-domains").allTextContents()).toEqual(["mallory-goods.example", hostile.domain]);
    expect(await facts.textContent()).toContain("1 list with 2 products");
    expect(await facts.textContent()).toContain(victim.email);
    expect(await page.getByRole("note").textContent()).toContain("If someone sent you this link, cancel.");
    // The customer's address is never shown in full, and nothing is joined yet.
    expect(await page.content()).not.toContain("mallory@attacker.example");
    expect(await linkOf(hostile, mallory.customer)).toMatchObject({ userId: mallory.storeUserId });
    expect(await consentsOf(victim.userId)).toEqual([]);

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: path.join(screenshots, `join-confirm-${width}.png`), fullPage: true });
      expect(await seriousA11yViolations(page)).toEqual([]);
    }

    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("heading", { name: "Nothing joined" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("not joined with anything");
    expect(await linkOf(hostile, mallory.customer)).toMatchObject({ userId: mallory.storeUserId });
    expect(await consentsOf(victim.userId)).toEqual([]);
    expect(await itemsOf(victim.userId)).toBe(0);
    await victim.ctx.close();
  });

  it("says 'a customer account of <store>' when the store's Admin API does not tell the e-mail, and joins only on Join", async () => {
    const store = await newStore("Quiet Shop", "quiet-shop.example");
    const customer = await customerWith(store, ["Teapot"]);
    // No such customer in the store's Admin API: the address cannot be read.
    const { url } = await proxied(store, "/link", customer.customer);
    const shopper = await signedInShopper(375);
    const { page } = shopper;
    await page.goto(url);
    await page.getByText("Join your wishlist with a customer account of Quiet Shop?").waitFor();
    expect(await page.locator("dl.join-facts").textContent()).toContain("a customer account of Quiet Shop");
    expect(await linkOf(store, customer.customer)).toMatchObject({ userId: customer.storeUserId });

    await page.getByRole("button", { name: "Join", exact: true }).click();
    await page.getByRole("heading", { name: "Joined" }).waitFor();
    expect(await linkOf(store, customer.customer)).toMatchObject({ userId: shopper.userId });
    expect(await consentsOf(shopper.userId)).toEqual([expect.objectContaining({ partnerId: store.partnerId, host: "quiet-shop.example" })]);
    expect(await itemsOf(shopper.userId)).toBe(1);
    await shopper.ctx.close();
  });
});

describe("Connected shops on My lists", () => {
  it("lists a join and a shop's consent; Disconnect ends each: the store's next request gets a fresh store account, the items stay", async () => {
    const store = await newStore("Linden & Co", "linden.example");
    const customer = await customerWith(store, ["Oak bowl", "Ash spoon"]);
    store.fake.customers.set(customer.customer, { email: "lena@linden.example" });
    const { url } = await proxied(store, "/link", customer.customer);
    const shopper = await signedInShopper();
    const { page } = shopper;
    await page.goto(url);
    await page.getByRole("button", { name: "Join", exact: true }).click();
    await page.getByRole("heading", { name: "Joined" }).waitFor();
    expect(await itemsOf(shopper.userId)).toBe(2);
    // Another shop the shopper let recognise them in the save dialog (a consent without a join).
    const other = await p.partner("free", "Birch Market");
    await db.shopperConsent.create({ data: { userId: shopper.userId, partnerId: other.id, host: "birch.example" } });

    const section = await openMyLists(page);
    const entries = section.locator("li.ml-conn");
    await expect.poll(() => entries.count()).toBe(2);
    const linden = entries.filter({ hasText: "Linden & Co" });
    const birch = entries.filter({ hasText: "birch.example" });
    expect(await linden.textContent()).toContain("linden.example · since");
    expect(await linden.getByRole("listitem").allTextContents()).toEqual(["Joined with your customer account", "Recognises you"]);
    expect(await birch.getByRole("listitem").allTextContents()).toEqual(["Recognises you"]);
    await section.scrollIntoViewIfNeeded();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await section.screenshot({ path: path.join(screenshots, `connected-shops-${width}.png`) });
      expect(await seriousA11yViolations(page)).toEqual([]);
    }

    // Without scripts the list is the server's, and Disconnect (which needs them) takes no room.
    const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 900 } });
    await plain.addCookies((await shopper.ctx.cookies()).filter((c) => c.name === "wish_user"));
    const noScript = await plain.newPage();
    await noScript.goto(`${server.url}/en/lists`);
    const plainSection = noScript.getByRole("region", { name: "Connected shops" });
    expect(await plainSection.locator("li.ml-conn").count()).toBe(2);
    expect(await plainSection.getByRole("button", { name: /Disconnect/ }).count()).toBe(0);
    // (Playwright's text matching skips <noscript>; the sentence is in the server's HTML.)
    expect(await plainSection.locator("noscript").textContent()).toContain("Turn on JavaScript to disconnect a shop.");
    await plain.close();

    // Disconnect asks first; "Keep connected" changes nothing.
    await linden.getByRole("button", { name: "Disconnect Linden & Co" }).click();
    await linden.getByText("Disconnect Linden & Co? It will no longer recognise you").waitFor();
    await page.setViewportSize({ width: 375, height: 900 });
    await section.screenshot({ path: path.join(screenshots, `connected-shops-confirm-375.png`) });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await linden.getByRole("button", { name: "Keep connected" }).click();
    expect(await linkOf(store, customer.customer)).toMatchObject({ userId: shopper.userId });

    await linden.getByRole("button", { name: "Disconnect Linden & Co" }).click();
    await linden.getByRole("button", { name: "Yes, disconnect" }).click();
    await section.getByRole("status").getByText("Linden & Co is disconnected.").waitFor();
    await expect.poll(() => entries.count()).toBe(1);
    expect(await linkOf(store, customer.customer)).toBeNull();
    expect((await consentsOf(shopper.userId)).map((c) => c.partnerId)).toEqual([other.id]);
    // The customer's mirror is rewritten (the server's outbox, through the shop's offline session): nothing is saved.
    const mirror = () => store.fake.customerMetafields.get(`gid://shopify/Customer/${customer.customer}`);
    await expect.poll(() => mirror()?.get("wishlist_count")?.value, { timeout: 15_000 }).toBe("0");
    expect(mirror()?.get("wishlist_handles")?.value).toBe("[]");
    // The store's next signed request for the customer: a fresh store account of their own, empty.
    const next = await proxied(store, "/session", customer.customer);
    const nextAccount = (await linkOf(store, customer.customer))!.userId;
    expect(nextAccount).not.toBe(shopper.userId);
    expect(nextAccount).not.toBe(customer.storeUserId);
    expect(next.session.user.is_anonymous).toBe(true);
    expect(await itemsOf(nextAccount)).toBe(0);
    // Everything stays in the account.
    expect(await itemsOf(shopper.userId)).toBe(2);

    await birch.getByRole("button", { name: "Disconnect birch.example" }).click();
    await birch.getByRole("button", { name: "Yes, disconnect" }).click();
    await section.getByText("No shop is connected with your account.").waitFor();
    expect(await consentsOf(shopper.userId)).toEqual([]);
    // What the page shows is what the server keeps.
    await openMyLists(page);
    await section.getByText("No shop is connected with your account.").waitFor();
    await shopper.ctx.close();
  });
});
