// The app proxy (docs/shopify.md "App proxy"): requests signed exactly as
// Shopify signs them reach /proxy/* over HTTP on the built server. Only valid,
// fresh signatures of installed shops are served; a refused request changes
// nothing. A signed-in customer is their linked shopper account: what they
// save lands there, nothing is ever merged into it from a page's id, and the
// same customer id at two shops is two people.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { getHmac, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Api, jsonOrNull, sharedShopifyApi } from "../support/api.ts";
import { signedProxyQuery, type ProxyParams } from "../support/app-proxy.ts";
import { provisioner } from "../support/provision.ts";
import { root } from "../support/server.ts";
import { SHARED_SHOPIFY } from "../support/shared-shopify.ts";

// The shared server with the Shopify app's keys: every shop, partner and customer here is this file's own.
const SECRET = SHARED_SHOPIFY.secret;
let server: Awaited<ReturnType<typeof sharedShopifyApi>>["server"];
let api: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
let db: Awaited<typeof import("~/db.server")>["db"];

beforeAll(async () => {
  const shared = await sharedShopifyApi();
  [api, server] = [shared, shared.server];
  p = await provisioner(server);
  ({ db } = await import("~/db.server"));
});

const rand = () => randomBytes(4).toString("hex");
const customerId = () => String(7_000_000_000 + randomBytes(3).readUIntBE(0, 3));
const now = () => Math.floor(Date.now() / 1000);

/** An installed shop with its partner's public key for the shop's domain. */
async function newShop() {
  const partner = await p.partner();
  const domain = `proxy-${rand()}.myshopify.com`;
  const shop = await p.shop(partner.id, { domain });
  const key = await p.key(partner.id, { domains: [domain] });
  return { partner, shop, domain, key: key.key as string, origin: `https://${domain}` };
}
type Shop = Awaited<ReturnType<typeof newShop>>;

interface Call extends Partial<ProxyParams> {
  method?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  secret?: string;
  /** Changes the query after signing. */
  tamper?: (q: URLSearchParams) => void;
}

/** A request to APP_URL/proxy/<path> as Shopify forwards it. */
async function proxied(shop: Shop | string, path: string, c: Call = {}) {
  const domain = typeof shop === "string" ? shop : shop.domain;
  const query = signedProxyQuery({ shop: domain, customerId: c.customerId, timestamp: c.timestamp, extra: c.extra }, c.secret ?? SECRET);
  c.tamper?.(query);
  const body = c.rawBody ?? (c.body === undefined ? undefined : JSON.stringify(c.body));
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = c.contentType ?? "application/json";
  // Shopify forwards the storefront's Origin; the server must not take it for a cross-site page write.
  if ((c.method ?? "GET") !== "GET") headers.origin = `https://${domain}`;
  const res = await fetch(`${server.url}/proxy${path}?${query}`, { method: c.method ?? "GET", headers, body });
  const text = await res.text();
  const json = jsonOrNull(text);
  return { status: res.status, headers: res.headers, text, body: json };
}

const session = (shop: Shop, customer: string | undefined, body: unknown = {}, c: Call = {}) =>
  proxied(shop, "/session", { method: "POST", customerId: customer, body, ...c });

async function widget(shop: Shop, sid?: string) {
  const res = await api.post("/widget/init", { headers: { authorization: `Bearer ${shop.key}` }, body: sid ? { origin: shop.origin, sid } : { origin: shop.origin } });
  expect(res.status, res.text).toBe(200);
  return { token: res.body.token as string, sid: res.body.sid as string };
}

const save = (shop: Shop, w: { token: string }, bearer: string, wishlistId: number, title: string, variant = "4711") =>
  api.post("/widget/save", {
    token: bearer,
    headers: { "x-widget-token": w.token, origin: shop.origin },
    body: { wishlistId, product: { url: `${shop.origin}/products/${title.toLowerCase().replace(/\W+/g, "-")}`, title, metadata: { variantId: variant, quantity: 1 } }, siteDomain: shop.domain },
  });

const linkOf = (shopId: number, customer: string) => db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId, customerId: customer } } });

function expectRefused(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ error: "unauthorized", message: expect.any(String) });
}

describe("declaration", () => {
  it("is declared in shopify.app.toml at /proxy under /apps/wishlist, with write_app_proxy in the scopes and in the SCOPES default", async () => {
    const toml = readFileSync(path.join(root, "shopify.app.toml"), "utf8");
    expect(toml).toMatch(/^\[app_proxy\]\nurl = "\/proxy"\nprefix = "apps"\nsubpath = "wishlist"$/m);
    const scopes = /^scopes = "([^"]+)"$/m.exec(toml)![1]!;
    expect(scopes.split(",")).toContain("write_app_proxy");
    const { env } = await import("~/env.server");
    expect(process.env.SCOPES).toBeUndefined();
    expect(env.SCOPES).toBe(scopes);
  });
});

describe("signatures", () => {
  it("serves valid signatures with and without logged_in_customer_id, and nothing else", async () => {
    const shop = await newShop();
    const guest = await proxied(shop, "");
    expect(guest.status).toBe(200);
    expect(guest.headers.get("content-type")).toBe("application/liquid");
    expect(guest.text).toContain('href="/account/login?return_url=%2Fapps%2Fwishlist"');

    const customer = customerId();
    const signedIn = await proxied(shop, "", { customerId: customer });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("content-type")).toBe("application/liquid");
    expect(signedIn.text).not.toContain("/account/login");
    expect(await linkOf(shop.shop.id, customer)).not.toBeNull();

    // Inside the window (the library allows 90 seconds either way), a request is still fresh.
    expect((await proxied(shop, "", { customerId: customer, timestamp: now() - 60 })).status).toBe(200);

    // Repeated storefront parameters are signed with their values joined by commas.
    const repeated = await proxied(shop, "", { extra: { extra: ["1", "2"], locale: "de" } });
    expect(repeated.status).toBe(200);
    expect(repeated.text).toContain("<h1>Wunschliste</h1>");

    // The library's own test signer agrees.
    const url = new URL(`${server.url}/proxy`);
    url.searchParams.set("logged_in_customer_id", "");
    url.searchParams.set("path_prefix", "/apps/wishlist");
    const request = await setUpValidRequest({ type: RequestType.Public, store: shop.domain.replace(".myshopify.com", ""), apiSecretKey: SECRET }, new Request(url));
    expect((await fetch(request.url)).status).toBe(200);
  });

  it("refuses a wrong secret, an altered parameter, a stale or future timestamp and a missing signature, and changes nothing", async () => {
    const shop = await newShop();
    const cases: Array<[string, Call]> = [
      ["wrong secret", { secret: "shpss_someone_else" }],
      ["altered customer", { tamper: (q) => q.set("logged_in_customer_id", customerId()) }],
      ["altered shop", { tamper: (q) => q.set("shop", `x${shop.domain}`) }],
      ["added parameter", { tamper: (q) => q.append("extra", "1") }],
      ["stale timestamp", { timestamp: now() - 91 }],
      ["old timestamp", { timestamp: now() - 86_400 }],
      // Ahead of the server by more than the window however long the request takes to arrive.
      ["future timestamp", { timestamp: now() + 120 }],
      ["missing signature", { tamper: (q) => q.delete("signature") }],
      ["missing timestamp", { tamper: (q) => q.delete("timestamp") }],
      ["repeated signature", { tamper: (q) => q.append("signature", q.get("signature")!) }],
    ];
    for (const [name, c] of cases) {
      const customer = customerId();
      const page = await proxied(shop, "", { customerId: customer, ...c });
      expect(page.status, name).toBe(401);
      expectRefused(page);
      const write = await session(shop, customer, {}, c);
      expectRefused(write);
      // Nothing was made for the customer the request named.
      expect(await linkOf(shop.shop.id, customer), name).toBeNull();
    }
    // A refused removal leaves the item.
    const customer = customerId();
    const s = await session(shop, customer);
    const w = await widget(shop);
    const saved = await save(shop, w, s.body.session.access_token, s.body.list.id, "Kept boot");
    expect(saved.status, saved.text).toBe(200);
    const removal = await proxied(shop, "/remove", { method: "POST", customerId: customer, body: { item_id: saved.body.item_id }, secret: "wrong" });
    expectRefused(removal);
    expect(await db.listItem.findUnique({ where: { id: saved.body.item_id } })).not.toBeNull();
  });

  it("answers 404 for a signed request of a store that did not install the app, and 405/415/413/400 for wrong requests", async () => {
    const unknown = await proxied(`nobody-${rand()}.myshopify.com`, "", { customerId: customerId() });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "shop_not_found", message: expect.any(String) });

    const shop = await newShop();
    const wrongMethod = await proxied(shop, "/session", { customerId: customerId() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    const form = await proxied(shop, "/session", { method: "POST", customerId: customerId(), rawBody: "sid=abc", contentType: "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect(form.body.error).toBe("unsupported_media_type");
    const big = await proxied(shop, "/session", { method: "POST", customerId: customerId(), body: { sid: "x".repeat(5000) } });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe("payload_too_large");
    const broken = await proxied(shop, "/session", { method: "POST", customerId: customerId(), rawBody: "{nope" });
    expect(broken.status).toBe(400);
    const badCustomer = await proxied(shop, "", { customerId: "12ab" });
    expect(badCustomer.status).toBe(400);
    expect(badCustomer.body.error).toBe("invalid_customer");
    // Guests may not change lists.
    const guestRemove = await proxied(shop, "/remove", { method: "POST", body: { item_id: 1 } });
    expect(guestRemove.status).toBe(401);
  });
});

describe("signed-in customers", () => {
  it("a customer's one-click save lands in the linked account, shows on the page, and can be removed and shared", async () => {
    const shop = await newShop();
    const customer = customerId();
    const s = await session(shop, customer);
    expect(s.status, s.text).toBe(200);
    expect(s.body).toMatchObject({
      ok: true,
      customer: true,
      session: { access_token: expect.any(String), token_type: "bearer", scope: "shopper", user: { is_anonymous: true } },
      list: { id: expect.any(Number) },
    });
    expect(s.body).not.toHaveProperty("merged");
    const link = await linkOf(shop.shop.id, customer);
    // The shop sees its pairwise id of the shopper, never the account id.
    expect(s.body.session.user.id).toMatch(/^ps_/);
    expect(s.body.session.user.id).not.toBe(link!.userId);

    const w = await widget(shop);
    const saved = await save(shop, w, s.body.session.access_token, s.body.list.id, "Red {{ shop.name }} boot");
    expect(saved.status, saved.text).toBe(200);
    const item = await db.listItem.findUnique({ where: { id: saved.body.item_id }, include: { wishlist: true } });
    expect(item!.wishlist.ownerId).toBe(link!.userId);

    // Another device: a new session request for the same customer is the same account.
    const again = await session(shop, customer);
    expect(again.body.session.user.id).toBe(s.body.session.user.id);
    // Their saved products of this shop ride along: the page's hearts need no other request.
    expect(s.body.saved).toEqual([]);
    expect(again.body.saved).toEqual([{ url: expect.any(String), item_id: saved.body.item_id }]);
    expect(await linkOf(shop.shop.id, customer)).toMatchObject({ userId: link!.userId });

    const page = await proxied(shop, "", { customerId: customer, extra: { locale: "en" } });
    expect(page.status).toBe(200);
    // The product's title arrives inert: no Liquid can form from it.
    expect(page.text).toContain("Red &#123;&#123; shop.name &#125;&#125; boot");
    expect(page.text).not.toMatch(/\{\{|\{%/);
    expect(page.text).toContain(`data-ref="${saved.body.item_id}.`);
    expect(page.text).toContain('data-variant="4711"');

    const listToken = page.text.match(/data-list="([^"]+)"/)![1]!;
    const shared = await proxied(shop, "/share", { method: "POST", customerId: customer, body: { list: listToken } });
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.url).toBe(`${server.url}/en/list/${listToken}`);
    expect((await fetch(shared.body.url)).status).toBe(200);

    // Another customer cannot remove or share it.
    const other = customerId();
    const foreignRemove = await proxied(shop, "/remove", { method: "POST", customerId: other, body: { item_id: saved.body.item_id } });
    expect(foreignRemove.status).toBe(404);
    const foreignShare = await proxied(shop, "/share", { method: "POST", customerId: other, body: { list: listToken } });
    expect(foreignShare.status).toBe(403);

    const removed = await proxied(shop, "/remove", { method: "POST", customerId: customer, body: { item_id: saved.body.item_id } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ ok: true, deleted: saved.body.item_id });
    expect(await db.listItem.findUnique({ where: { id: saved.body.item_id } })).toBeNull();
  });

  it("a hostile store cannot absorb a guest who saved on its page: its proxy session with the page's sid moves nothing", async () => {
    // The attacker's own store: the victim, a guest of APP_URL, saves there through the dialog,
    // which grants the page (its widget session id) a credential.
    const shop = await newShop();
    const w = await widget(shop);
    const victim = await api.anonymousUser();
    const init = await api.post("/hosted/me/init", { token: victim.accessToken });
    const private_ = await api.post("/hosted/me/lists", { token: victim.accessToken, body: { name: "Medical supplies" } });
    const stored = await api.post("/widget/session-store", { headers: { "x-widget-token": w.token }, body: { sid: w.sid, access_token: victim.accessToken } });
    expect(stored.status, stored.text).toBe(200);
    const guestSave = await save(shop, w, victim.accessToken, init.body.list.db_id, "Guest scarf");
    expect(guestSave.status, guestSave.text).toBe(200);

    // The attacker posts the page's sid, signed for its own customer.
    const attacker = customerId();
    const s = await session(shop, attacker, { sid: w.sid });
    expect(s.status, s.text).toBe(200);
    expect(s.body).not.toHaveProperty("merged");
    const item = await db.listItem.findUnique({ where: { id: guestSave.body.item_id }, include: { wishlist: true } });
    expect(item!.wishlist.ownerId).toBe(victim.userId);
    expect((await proxied(shop, "", { customerId: attacker })).text).not.toContain("Guest scarf");
    // The victim's account is untouched: tokens work, lists are theirs and private.
    expect((await api.get("/auth/user", { token: victim.accessToken })).status).toBe(200);
    const lists = await api.post("/hosted/lists", { token: victim.accessToken, body: {} });
    expect((lists.body.lists as Array<{ id: string }>).map((l) => l.id)).toEqual(expect.arrayContaining([init.body.list.id, private_.body.token]));
    expect((await db.wishlist.findUnique({ where: { shareToken: private_.body.token } }))!.sharePublic).toBe(false);
    expect(await db.user.findUnique({ where: { id: victim.userId }, select: { migratedAt: true } })).toEqual({ migratedAt: null });
  });

  it("never merges another customer's account that used this browser", async () => {
    const shop = await newShop();
    const first = customerId();
    const s1 = await session(shop, first);
    const w = await widget(shop);
    await save(shop, w, s1.body.session.access_token, s1.body.list.id, "First's lamp");
    // Even a grant naming the first customer's account (it cannot be stored for it: it has no sign-in session) is left alone.
    const second = customerId();
    const s2 = await session(shop, second, { sid: w.sid });
    expect(s2.status).toBe(200);
    expect((await proxied(shop, "", { customerId: second })).text).not.toContain("lamp");
    expect((await proxied(shop, "", { customerId: first })).text).toContain("lamp");
  });

  it("keeps two shops' customers with the same id apart", async () => {
    const a = await newShop();
    const b = await newShop();
    const customer = customerId();
    const sa = await session(a, customer);
    const sb = await session(b, customer);
    expect(sa.body.session.user.id).not.toBe(sb.body.session.user.id);
    const wa = await widget(a);
    expect((await save(a, wa, sa.body.session.access_token, sa.body.list.id, "Shop A kettle")).status).toBe(200);
    expect((await proxied(a, "", { customerId: customer })).text).toContain("Shop A kettle");
    expect((await proxied(b, "", { customerId: customer })).text).not.toContain("Shop A kettle");
    // Shop A's credential does not work with shop B's widget.
    const wb = await widget(b);
    const cross = await api.get("/widget/saved-products", { token: sa.body.session.access_token, headers: { "x-widget-token": wb.token, origin: b.origin } });
    expect(cross.status).toBe(401);
  });
});

describe("joining a store wishlist with an account of ours", () => {
  /** An account with an e-mail address and password, as "My lists" or the dialog makes it. */
  async function account() {
    const res = await api.post("/auth/signup", { body: { email: `join-${rand()}@example.test`, password: "correct horse battery" } });
    expect(res.status, res.text).toBe(200);
    return { userId: res.body.user.id as string, accessToken: res.body.access_token as string };
  }
  /** A customer with one product saved at the shop. */
  async function customerWith(shop: Shop, title: string) {
    const customer = customerId();
    const s = await session(shop, customer);
    const saved = await save(shop, await widget(shop), s.body.session.access_token, s.body.list.id, title);
    expect(saved.status, saved.text).toBe(200);
    return { customer, storeUserId: (await linkOf(shop.shop.id, customer))!.userId, itemId: saved.body.item_id as number };
  }
  /** The link token of the join page's address that `/apps/wishlist/link` answers. */
  async function linkToken(shop: Shop, customer: string) {
    const res = await proxied(shop, "/link", { method: "POST", customerId: customer, body: {}, extra: { locale: "de" } });
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/dialog/link`);
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get("locale")).toBe("de");
    return fragment.get("token")!;
  }
  const join = (token: string | undefined, body: unknown) => api.post("/hosted/link-shop-customer", { token, body });

  it("a customer of two shops joins both with one account: each store recognises it, the account holds everything, each page shows its own shop's items", async () => {
    const [a, b] = [await newShop(), await newShop()];
    const atA = await customerWith(a, "A kettle");
    const atB = await customerWith(b, "B lamp");
    const me = await account();
    // The store's page offers the join while the store account is the store's own.
    expect((await proxied(a, "", { customerId: atA.customer })).text).toContain('data-action="join"');

    const tokenA = await linkToken(a, atA.customer);
    const joined = await join(me.accessToken, { link_token: tokenA });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toEqual({ ok: true, shop_domain: a.domain, joined: true, moved: { lists: 1, memberships: 0, friendships: 0, items: 1, duplicates: 0, renamed: 0 } });
    expect(await linkOf(a.shop.id, atA.customer)).toMatchObject({ userId: me.userId });
    expect((await db.user.findUnique({ where: { id: atA.storeUserId } }))!.migratedAt).not.toBeNull();
    // Clicked twice: nothing more moves.
    expect((await join(me.accessToken, { link_token: tokenA })).body).toMatchObject({ joined: false, moved: { lists: 0, items: 0 } });

    // Store A recognises the account (no longer anonymous); its page shows its items and no offer.
    const sA = await session(a, atA.customer);
    expect(sA.body.session.user).toEqual({ id: expect.stringMatching(/^ps_/), is_anonymous: false });
    const pageA = await proxied(a, "", { customerId: atA.customer });
    expect(pageA.text).toContain("A kettle");
    expect(pageA.text).not.toContain('data-action="join"');

    // Shop B is joined the same way, once.
    expect((await join(me.accessToken, { link_token: await linkToken(b, atB.customer) })).status).toBe(200);
    expect((await session(b, atB.customer)).body.session.user.is_anonymous).toBe(false);
    expect(await linkOf(b.shop.id, atB.customer)).toMatchObject({ userId: me.userId });
    const pageB = await proxied(b, "", { customerId: atB.customer });
    expect(pageB.text).toContain("B lamp");
    expect(pageB.text).not.toContain("A kettle");
    // The two stores' default lists became the account's one default list.
    expect(await db.wishlist.count({ where: { ownerId: me.userId, defaultKey: "default" } })).toBe(1);
    expect(await db.wishlist.count({ where: { ownerId: me.userId } })).toBe(1);
    // Store B's page acts only on lists it shows: a list of the account with only shop A's products is not B's to share.
    const onlyA = await api.post("/hosted/me/lists", { token: me.accessToken, body: { name: "From A" } });
    expect((await save(a, await widget(a), me.accessToken, onlyA.body.list.db_id, "A vase")).status).toBe(200);
    const shareAtB = await proxied(b, "/share", { method: "POST", customerId: atB.customer, body: { list: onlyA.body.token } });
    expect(shareAtB.status, shareAtB.text).toBe(403);
    expect((await db.wishlist.findUnique({ where: { shareToken: onlyA.body.token } }))!.sharePublic).toBe(false);
    // On APP_URL the account holds what was saved at both.
    const lists = await api.post("/hosted/lists", { token: me.accessToken, body: {} });
    expect(lists.status, lists.text).toBe(200);
    const itemsOf = await Promise.all(
      (lists.body.lists as Array<{ id: string }>).map((l) => api.get(`/hosted/lists/${l.id}/items`, { token: me.accessToken })),
    );
    const ids = itemsOf.flatMap((r) => (r.body.products as Array<{ item_id: number }>).map((p) => p.item_id));
    expect(ids).toEqual(expect.arrayContaining([atA.itemId, atB.itemId]));

    // The shop's redaction of the customer forgets the link, never the account the shopper signed up for.
    const body = JSON.stringify({ shop_domain: a.domain, customer: { id: Number(atA.customer) }, orders_to_redact: [] });
    const redact = await fetch(`${server.url}/webhooks/compliance`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-shopify-topic": "customers/redact", "x-shopify-hmac-sha256": getHmac(body, SECRET), "x-shopify-shop-domain": a.domain, "x-shopify-webhook-id": `wh_${rand()}`, "x-shopify-api-version": "2026-01" },
    });
    expect(redact.status).toBe(200);
    expect(await linkOf(a.shop.id, atA.customer)).toBeNull();
    expect((await db.user.findUnique({ where: { id: me.userId } }))!.deletedAt).toBeNull();
    expect(await linkOf(b.shop.id, atB.customer)).toMatchObject({ userId: me.userId });
  });

  it("a joined store can neither plant an item in the account's other lists nor publish any list holding other shops' items", async () => {
    const [hostile, honest] = [await newShop(), await newShop()];
    const me = await account();
    // The shopper's private list, with a product of another shop, made on APP_URL.
    const medical = await api.post("/hosted/me/lists", { token: me.accessToken, body: { name: "Medical supplies" } });
    const honestWidget = await widget(honest);
    expect((await save(honest, honestWidget, me.accessToken, medical.body.list.db_id, "Blood glucose strips")).status).toBe(200);
    const atHostile = await customerWith(hostile, "Hostile candle");
    expect((await join(me.accessToken, { link_token: await linkToken(hostile, atHostile.customer) })).status).toBe(200);

    // A script on the hostile store's page holds the shopper credential the proxy mints.
    const s = await session(hostile, atHostile.customer);
    const w = await widget(hostile);
    const planted = await save(hostile, w, s.body.session.access_token, medical.body.list.db_id, "Planted item");
    expect(planted.status, planted.text).toBe(403);
    expect(planted.body.error).toBe("invalid_wishlist");
    const shareMedical = await proxied(hostile, "/share", { method: "POST", customerId: atHostile.customer, body: { list: medical.body.token } });
    expect(shareMedical.status).toBe(403);
    // The default list holds the hostile store's item and, once the shopper saves one there, another shop's: not the store's to publish.
    const defaultList = await db.wishlist.findFirst({ where: { ownerId: me.userId, defaultKey: "default" } });
    expect((await save(honest, honestWidget, me.accessToken, defaultList!.id, "Honest teapot")).status).toBe(200);
    const shareDefault = await proxied(hostile, "/share", { method: "POST", customerId: atHostile.customer, body: { list: defaultList!.shareToken } });
    expect(shareDefault.status).toBe(403);
    const publicLists = await db.wishlist.count({ where: { ownerId: me.userId, sharePublic: true } });
    expect(publicLists).toBe(0);
  });

  it("a customer who saved what the account has saved too joins into one default list with each product once", async () => {
    const shop = await newShop();
    const atShop = await customerWith(shop, "Shared kettle");
    const me = await account();
    const mine = (await api.post("/hosted/me/init", { token: me.accessToken })).body.list as { id: string; db_id: number };
    // The account saved the same product (and another) on that shop through the dialog.
    const w = await widget(shop);
    const kettle = await save(shop, w, me.accessToken, mine.db_id, "Shared kettle");
    expect(kettle.status, kettle.text).toBe(200);
    expect((await save(shop, w, me.accessToken, mine.db_id, "Own lamp")).status).toBe(200);

    const joined = await join(me.accessToken, { link_token: await linkToken(shop, atShop.customer) });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.moved).toMatchObject({ lists: 0, duplicates: 1 });

    const lists = await db.wishlist.findMany({ where: { ownerId: me.userId }, include: { items: { include: { product: true } } } });
    expect(lists.map((l) => [l.id, l.defaultKey])).toEqual([[mine.db_id, "default"]]);
    const urls = lists[0]!.items.map((i) => i.product.canonicalUrl ?? "").sort();
    expect(urls).toEqual([`${shop.origin}/products/own-lamp`, `${shop.origin}/products/shared-kettle`]);
    expect(lists[0]!.items.find((i) => i.product.canonicalUrl?.endsWith("shared-kettle"))!.id).toBe(kettle.body.item_id);
    // The store's page, now the account's, shows the kettle once.
    const page = await proxied(shop, "", { customerId: atShop.customer });
    expect(page.text.match(/Shared kettle/g)?.length).toBe(page.text.match(/Own lamp/g)?.length);
  });

  it("refuses a guest account, a forged or missing token, a spent token, a second customer of the same shop, and a store guest", async () => {
    const shop = await newShop();
    const first = await customerWith(shop, "First mug");
    const token = await linkToken(shop, first.customer);

    const guest = await api.anonymousUser();
    expect((await join(guest.accessToken, { link_token: token })).body).toMatchObject({ error: "account_required" });
    expect((await join(undefined, { link_token: token })).status).toBe(401);
    const me = await account();
    const forged = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(await join(me.accessToken, { link_token: forged })).toMatchObject({ status: 400, body: { error: "invalid_link" } });
    expect(await join(me.accessToken, {})).toMatchObject({ status: 400, body: { error: "missing_data" } });
    expect(await linkOf(shop.shop.id, first.customer)).toMatchObject({ userId: first.storeUserId });

    // Spent: once joined with one account, the token moves nothing into another.
    expect((await join(me.accessToken, { link_token: token })).status).toBe(200);
    const someoneElse = await account();
    expect(await join(someoneElse.accessToken, { link_token: token })).toMatchObject({ status: 409, body: { error: "link_used" } });
    expect(await linkOf(shop.shop.id, first.customer)).toMatchObject({ userId: me.userId });

    // One account is one customer per shop: a second customer's wishlist is not joined into it.
    const second = await customerWith(shop, "Second mug");
    expect(await join(me.accessToken, { link_token: await linkToken(shop, second.customer) })).toMatchObject({ status: 409, body: { error: "account_already_linked" } });
    expect(await linkOf(shop.shop.id, second.customer)).toMatchObject({ userId: second.storeUserId });

    // A store guest has nothing to join.
    expect((await proxied(shop, "/link", { method: "POST", body: {} })).status).toBe(401);
  });
});

describe("compliance", () => {
  const deliver = (shop: Shop, topic: string, payload: unknown) => {
    const body = JSON.stringify(payload);
    return fetch(`${server.url}/webhooks/compliance`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": topic,
        "x-shopify-hmac-sha256": getHmac(body, SECRET),
        "x-shopify-shop-domain": shop.domain,
        "x-shopify-webhook-id": `wh_${rand()}`,
        "x-shopify-api-version": "2026-01",
      },
    });
  };

  it("customers/data_request reports the customer's link and saves; customers/redact removes the link and the account made for it", async () => {
    const shop = await newShop();
    const customer = customerId();
    const s = await session(shop, customer);
    const w = await widget(shop);
    const saved = await save(shop, w, s.body.session.access_token, s.body.list.id, "Reported vase");
    expect(saved.status).toBe(200);
    // The same id at another shop is another customer, untouched by this shop's requests.
    const other = await newShop();
    await session(other, customer);
    const accountId = (await linkOf(shop.shop.id, customer))!.userId;
    const elsewhereId = (await linkOf(other.shop.id, customer))!.userId;

    expect((await deliver(shop, "customers/data_request", { shop_domain: shop.domain, customer: { id: Number(customer) }, data_request: { id: 1 } })).status).toBe(200);
    const request = await db.complianceRequest.findFirst({ where: { shopDomain: shop.domain, topic: "customers/data_request" } });
    expect(request!.data).toMatchObject({
      shop_customer: {
        customer_id: customer,
        account_id: s.body.session.user.id,
        saved_products: [{ url: `${shop.origin}/products/reported-vase`, saved_at: expect.any(String) }],
      },
    });

    expect((await deliver(shop, "customers/redact", { shop_domain: shop.domain, customer: { id: Number(customer) }, orders_to_redact: [] })).status).toBe(200);
    expect(await linkOf(shop.shop.id, customer)).toBeNull();
    expect(await db.listItem.findUnique({ where: { id: saved.body.item_id } })).toBeNull();
    expect((await db.user.findUnique({ where: { id: accountId } }))!.deletedAt).not.toBeNull();
    expect(await linkOf(other.shop.id, customer)).toMatchObject({ userId: elsewhereId });
    // Signed in again later: a fresh, empty account.
    const again = await session(shop, customer);
    expect(again.body.session.user.id).not.toBe(s.body.session.user.id);
    expect((await proxied(shop, "", { customerId: customer })).text).not.toContain("Reported vase");
  });
});
