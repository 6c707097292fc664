// Shop storefront pages (SPEC 4.8 Shops, docs/api.md "Shops"): public page data,
// products, categories, search, curated lists, trending, follows and
// follower counts, and the merchant's partner routes that control them.
// Every error code the routes declare is produced here.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedApi, type Api } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

// The shared server: every shop, partner and list here is this file's own.
let server: Awaited<ReturnType<typeof sharedApi>>["server"];
let api: Api;
let db: Awaited<typeof import("~/db.server")>["db"];
let shops: typeof import("~/domains/shops/shops.server");
let partners: typeof import("~/domains/partners/partners.server");
let pats: typeof import("~/domains/partners/access-tokens.server");
let keys: typeof import("~/domains/keys/keys.server");

beforeAll(async () => {
  const shared = await sharedApi();
  [api, server] = [shared, shared.server];
  await provisioner(server);
  ({ db } = await import("~/db.server"));
  shops = await import("~/domains/shops/shops.server");
  partners = await import("~/domains/partners/partners.server");
  pats = await import("~/domains/partners/access-tokens.server");
  keys = await import("~/domains/keys/keys.server");
});

afterAll(() => {
  // Every error code a route answered with is one it declares (the OpenAPI document promises them); the shared server's log holds every file's answers.
  expect(server?.output() ?? "").not.toContain("undocumented error code");
});

const DAY = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const rand = () => randomBytes(4).toString("hex");
const q = (text: string, params: unknown[] = []) => sql<any>(server.databaseUrl, text, params);

async function newShop(opts: { name?: string; handle?: string; published?: boolean } = {}) {
  const partner = await partners.createPartner({ name: "Storefront", email: "owner@store.example" });
  const shop = await shops.createPlatformShop(partner.id, {
    domain: `s${rand()}.myshopify.com`,
    name: opts.name ?? `Shop ${rand()}`,
    handle: opts.handle,
    published: opts.published ?? true,
  });
  return { partner, shop, handle: shop.handle! };
}

let productSeq = 0;
async function newProduct(shopId: number, opts: { title?: string; type?: string | null; brand?: string; markets?: Array<[string, string, number, string]> } = {}) {
  const title = opts.title ?? `Product ${++productSeq}`;
  const markets = opts.markets ?? [["", title, 1999, "EUR"]];
  return db.product.create({
    data: {
      canonicalUrl: `https://store.example/products/${rand()}`,
      sourceShopId: shopId,
      productType: opts.type === undefined ? "Mugs" : opts.type,
      brand: opts.brand ?? null,
      available: true,
      localizations: { create: markets.map(([market, t, priceMinor, currency]) => ({ market, title: t, priceMinor, currency })) },
    },
  });
}

async function saveOf(userId: string, productId: number, addedAt: Date) {
  const list = await db.wishlist.create({ data: { shareToken: rand() + rand(), ownerId: userId, name: "Saves" } });
  await db.listItem.create({ data: { wishlistId: list.id, productId, addedAt } });
}

async function expectError(res: { status: number; body: any; text: string }, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toBe(error);
}

describe("handles", () => {
  it("are derived from the shop's name, unique with a numeric suffix, never a reserved word", async () => {
    const name = `Käse & Co ${rand()}`;
    const a = await newShop({ name });
    const b = await newShop({ name });
    const slug = name.toLowerCase().replace("ä", "a").replace(" & ", "-").replace(/ /g, "-");
    expect(a.handle).toBe(slug);
    expect(b.handle).toBe(`${slug}-2`);
    const partner = await partners.createPartner({ name: "R", email: "r@store.example" });
    const reserved = await shops.createPlatformShop(partner.id, { domain: `r${rand()}.myshopify.com`, name: "By Domain" });
    expect(reserved.handle).toMatch(/^by-domain-shop(-\d+)?$/);
    expect(reserved.published).toBe(false);
    const unnamed = await shops.createPlatformShop(partner.id, { domain: `plain-${rand()}.myshopify.com` });
    expect(unnamed.handle).toBe(unnamed.domain.replace(".myshopify.com", ""));
  });

  it("@me is a static segment that wins over {handle}", async () => {
    const res = await api.get("/shops/@me/following");
    await expectError(res, 401, "unauthorized");
  });
});

describe("GET /shops/{handle} and /shops/by-domain/{domain}", () => {
  it("answers a published shop's page data", async () => {
    const { shop, handle } = await newShop({ name: "Tea Corner" });
    await db.platformShop.update({ where: { id: shop.id }, data: { description: "Loose leaf tea" } });
    const res = await api.get(`/shops/${handle}`, { noApiKey: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      shop: {
        handle,
        name: "Tea Corner",
        description: "Loose leaf tea",
        domain: shop.domain,
        primary_domain: null,
        url: `${server.url}/shops/${handle}`,
        follower_count: 0,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
  });

  it("unknown, unpublished and uninstalled shops are 404 shop_not_found", async () => {
    const hidden = await newShop({ published: false });
    const gone = await newShop();
    await db.platformShop.update({ where: { id: gone.shop.id }, data: { active: false } });
    await expectError(await api.get(`/shops/no-such-${rand()}`), 404, "shop_not_found");
    await expectError(await api.get(`/shops/${hidden.handle}`), 404, "shop_not_found");
    await expectError(await api.get(`/shops/${gone.handle}`), 404, "shop_not_found");
    for (const path of ["lists", "categories", "products", "search?q=x", "featured-lists", "trending", "analytics/followers", "lists/any/products"]) {
      await expectError(await api.get(`/shops/${hidden.handle}/${path}`), 404, "shop_not_found");
    }
  });

  it("finds a shop by its myshopify domain or primary domain (any case)", async () => {
    const { shop, handle } = await newShop();
    const primary = `www.${rand()}.example`;
    await db.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: primary } });
    const byMyshopify = await api.get(`/shops/by-domain/${shop.domain.toUpperCase()}`);
    expect(byMyshopify.status, byMyshopify.text).toBe(200);
    expect(byMyshopify.body.shop.handle).toBe(handle);
    const byPrimary = await api.get(`/shops/by-domain/${primary}`);
    expect(byPrimary.body.shop).toMatchObject({ handle, primary_domain: primary });
    await expectError(await api.get(`/shops/by-domain/nowhere-${rand()}.example`), 404, "shop_not_found");
    const hidden = await newShop({ published: false });
    await expectError(await api.get(`/shops/by-domain/${hidden.shop.domain}`), 404, "shop_not_found");
  });

  it("carries the rate-limit headers when a public key is resolvable (SPEC 8.3), not otherwise", async () => {
    const { partner, handle } = await newShop();
    const key = await keys.createApiKey(partner.id, { environment: "test" });
    const keyed = await api.get(`/shops/${handle}`, { token: key.key });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    const anonymous = await api.get(`/shops/${handle}`);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("the shop page /shops/{handle} (site)", () => {
  it("renders a published shop's name, description, featured lists and products; others are 404", async () => {
    const { shop, handle, partner } = await newShop({ name: "Page <Shop>" });
    await db.platformShop.update({ where: { id: shop.id }, data: { description: "Hand-made & fair" } });
    const mug = await newProduct(shop.id, { title: "Stoneware mug" });
    const pat = await pats.createPersonalAccessToken(partner.id);
    await api.post(`/partner/shops/${shop.id}/lists`, { token: pat.token, body: { slug: "best", title: "Best sellers", featured: true, product_ids: [mug.id] } });
    const res = await fetch(`${server.url}/shops/${handle}`);
    const html = await res.text();
    expect(res.status, html).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain("Page &lt;Shop&gt;");
    expect(html).toContain("Hand-made &amp; fair");
    expect(html).toContain("Best sellers");
    expect(html).toContain("Stoneware mug");
    expect(html).toContain("€19.99");
    expect(html).toContain(`<link rel="canonical" href="${server.url}/shops/${handle}"/>`);
    const hidden = await newShop({ published: false });
    expect((await fetch(`${server.url}/shops/${hidden.handle}`)).status).toBe(404);
    expect((await fetch(`${server.url}/shops/no-such-${rand()}`)).status).toBe(404);
  });
});

describe("products, categories and search", () => {
  it("lists the shop's products newest first in pages of `limit` (default 24) with a cursor", async () => {
    const { shop, handle } = await newShop();
    const other = await newShop();
    await newProduct(other.shop.id);
    const made = [];
    for (let i = 0; i < 30; i++) made.push(await newProduct(shop.id, { type: i % 3 === 0 ? "Teapots" : "Mugs" }));
    const first = await api.get(`/shops/${handle}/products`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.products).toHaveLength(24);
    expect(first.body.products[0]).toEqual({
      id: made[29]!.id,
      title: "Product " + productSeq,
      description: "",
      imageUrl: null,
      url: made[29]!.canonicalUrl,
      price_minor: 1999,
      currency: "EUR",
      compare_at_price_minor: null,
      brand: null,
      product_type: "Mugs",
      available: true,
      created_at: expect.stringMatching(ISO),
    });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api.get(`/shops/${handle}/products?cursor=${first.body.next_cursor}`);
    expect(second.body.products).toHaveLength(6);
    expect(second.body.next_cursor).toBeNull();
    const ids = [...first.body.products, ...second.body.products].map((p: any) => p.id);
    expect(ids).toEqual(made.map((p) => p.id).reverse());

    const teapots = await api.get(`/shops/${handle}/products?category=Teapots&limit=100`);
    expect(teapots.body.products).toHaveLength(10);
    expect(teapots.body.products.every((p: any) => p.product_type === "Teapots")).toBe(true);
    const small = await api.get(`/shops/${handle}/products?limit=5`);
    expect(small.body.products).toHaveLength(5);

    await expectError(await api.get(`/shops/${handle}/products?limit=101`), 400, "invalid_input");
    await expectError(await api.get(`/shops/${handle}/products?limit=0`), 400, "invalid_input");
    await expectError(await api.get(`/shops/${handle}/products?cursor=abc`), 400, "invalid_input");
  });

  it("shows the asked market's title and price", async () => {
    const { shop, handle } = await newShop();
    await newProduct(shop.id, { markets: [["", "Mug", 1000, "EUR"], ["de-DE", "Tasse", 1100, "EUR"], ["en-US", "Cup", 1200, "USD"]] });
    const de = await api.get(`/shops/${handle}/products?market=de-DE`);
    expect(de.body.products[0]).toMatchObject({ title: "Tasse", price_minor: 1100, currency: "EUR" });
    const us = await api.get(`/shops/${handle}/products?market=en-US`);
    expect(us.body.products[0]).toMatchObject({ title: "Cup", price_minor: 1200, currency: "USD" });
    const none = await api.get(`/shops/${handle}/products`);
    expect(none.body.products[0]).toMatchObject({ title: "Mug", price_minor: 1000 });
  });

  it("categories are the products' types with counts, most first", async () => {
    const { shop, handle } = await newShop();
    for (const type of ["Mugs", "Mugs", "Mugs", "Teapots", "Cups", "Cups", null]) await newProduct(shop.id, { type });
    const res = await api.get(`/shops/${handle}/categories`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      categories: [
        { name: "Mugs", product_count: 3 },
        { name: "Cups", product_count: 2 },
        { name: "Teapots", product_count: 1 },
      ],
    });
  });

  it("search needs q (400 missing_params) and matches title, brand or type in any case, paginated", async () => {
    const { shop, handle } = await newShop();
    const other = await newShop();
    await newProduct(other.shop.id, { title: "Blue Teapot" });
    await newProduct(shop.id, { title: "Blue Teapot" });
    await newProduct(shop.id, { title: "Red mug", brand: "Bluebird" });
    await newProduct(shop.id, { title: "Green cup" });
    await newProduct(shop.id, { title: "Plain", type: "Blue things" });
    await expectError(await api.get(`/shops/${handle}/search`), 400, "missing_params");
    await expectError(await api.get(`/shops/${handle}/search?q=%20`), 400, "missing_params");
    const res = await api.get(`/shops/${handle}/search?q=BLUE&limit=2`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.q).toBe("BLUE");
    expect(res.body.products.map((p: any) => p.title)).toEqual(["Plain", "Red mug"]);
    const rest = await api.get(`/shops/${handle}/search?q=BLUE&limit=2&cursor=${res.body.next_cursor}`);
    expect(rest.body.products.map((p: any) => p.title)).toEqual(["Blue Teapot"]);
    expect(rest.body.next_cursor).toBeNull();
    const none = await api.get(`/shops/${handle}/search?q=purple`);
    expect(none.body).toEqual({ q: "purple", products: [], next_cursor: null });
  });
});

describe("trending", () => {
  it("ranks the shop's products by saves in the last 7 days; older saves do not count", async () => {
    const { shop, handle } = await newShop();
    const user = await api.anonymousUser();
    const [a, b, c] = [await newProduct(shop.id), await newProduct(shop.id), await newProduct(shop.id)];
    const now = Date.now();
    for (let i = 0; i < 3; i++) await saveOf(user.userId, b.id, new Date(now - i * DAY));
    await saveOf(user.userId, a.id, new Date(now - 2 * DAY));
    for (let i = 0; i < 5; i++) await saveOf(user.userId, c.id, new Date(now - (8 + i) * DAY));
    const res = await api.get(`/shops/${handle}/trending`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.window_days).toBe(7);
    expect(res.body.products.map((p: any) => [p.id, p.saves])).toEqual([
      [b.id, 3],
      [a.id, 1],
    ]);
    const one = await api.get(`/shops/${handle}/trending?limit=1`);
    expect(one.body.products).toHaveLength(1);
    await expectError(await api.get(`/shops/${handle}/trending?limit=51`), 400, "invalid_input");
  });
});

describe("curated lists", () => {
  async function shopWithLists() {
    const fixture = await newShop();
    const pat = await pats.createPersonalAccessToken(fixture.partner.id);
    const products = [];
    for (let i = 0; i < 10; i++) products.push(await newProduct(fixture.shop.id));
    const create = (body: unknown) => api.post(`/partner/shops/${fixture.shop.id}/lists`, { token: pat.token, body });
    return { ...fixture, pat: pat.token, products, create };
  }

  it("the merchant creates lists; the page shows them, the featured ones with their first products, and each list's products in order", async () => {
    const { shop, handle, products, create, pat } = await shopWithLists();
    const gifts = await create({ slug: "gifts", title: "Gifts", description: "For friends", featured: true, position: 2, product_ids: products.map((p) => p.id).reverse() });
    expect(gifts.status, gifts.text).toBe(201);
    expect(gifts.body.list).toEqual({
      slug: "gifts",
      title: "Gifts",
      description: "For friends",
      featured: true,
      position: 2,
      product_count: 10,
      updated_at: expect.stringMatching(ISO),
      product_ids: products.map((p) => p.id).reverse(),
    });
    expect((await create({ slug: "new-in", title: "New in", position: 1, product_ids: [products[0]!.id] })).status).toBe(201);

    const lists = await api.get(`/shops/${handle}/lists`);
    expect(lists.status, lists.text).toBe(200);
    expect(lists.body.lists.map((l: any) => [l.slug, l.featured, l.product_count])).toEqual([
      ["new-in", false, 1],
      ["gifts", true, 10],
    ]);
    const featured = await api.get(`/shops/${handle}/featured-lists`);
    expect(featured.status, featured.text).toBe(200);
    expect(featured.body.lists).toHaveLength(1);
    expect(featured.body.lists[0].slug).toBe("gifts");
    expect(featured.body.lists[0].products.map((p: any) => p.id)).toEqual(products.map((p) => p.id).reverse().slice(0, 8));

    const page1 = await api.get(`/shops/${handle}/lists/gifts/products?limit=4`);
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.list.slug).toBe("gifts");
    expect(page1.body.products.map((p: any) => p.id)).toEqual(products.map((p) => p.id).reverse().slice(0, 4));
    const page3 = await api.get(`/shops/${handle}/lists/gifts/products?limit=4&cursor=o8`);
    expect(page3.body.products.map((p: any) => p.id)).toEqual([products[1]!.id, products[0]!.id]);
    expect(page3.body.next_cursor).toBeNull();
    await expectError(await api.get(`/shops/${handle}/lists/gifts/products?cursor=8`), 400, "invalid_input");
    await expectError(await api.get(`/shops/${handle}/lists/nope/products`), 404, "not_found");

    // Change and remove.
    const put = await api.put(`/partner/shops/${shop.id}/lists/gifts`, { token: pat, body: { title: "Top gifts", featured: false, product_ids: [products[3]!.id, products[2]!.id] } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.list).toMatchObject({ title: "Top gifts", featured: false, product_count: 2, product_ids: [products[3]!.id, products[2]!.id] });
    const admin = await api.get(`/partner/shops/${shop.id}/lists`, { token: pat });
    expect(admin.body.lists.map((l: any) => l.slug)).toEqual(["new-in", "gifts"]);
    const del = await api.delete(`/partner/shops/${shop.id}/lists/new-in`, { token: pat });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ ok: true });
    await expectError(await api.delete(`/partner/shops/${shop.id}/lists/new-in`, { token: pat }), 404, "not_found");
    await expectError(await api.put(`/partner/shops/${shop.id}/lists/new-in`, { token: pat, body: { title: "x" } }), 404, "not_found");
    expect((await api.get(`/shops/${handle}/featured-lists`)).body.lists).toEqual([]);
  });

  it("rejects a taken slug (409 list_exists), missing fields (missing_params), bad slugs and other shops' products", async () => {
    const { shop, products, create, pat } = await shopWithLists();
    const other = await newShop();
    const foreign = await newProduct(other.shop.id);
    expect((await create({ slug: "a", title: "A" })).status).toBe(201);
    await expectError(await create({ slug: "a", title: "Again" }), 409, "list_exists");
    await expectError(await create({ title: "No slug" }), 400, "missing_params");
    await expectError(await create({ slug: "b" }), 400, "missing_params");
    await expectError(await create({ slug: "Bad Slug", title: "B" }), 400, "invalid_input");
    await expectError(await create({ slug: "c", title: "C", product_ids: [products[0]!.id, foreign.id] }), 400, "invalid_product_ids");
    await expectError(await api.put(`/partner/shops/${shop.id}/lists/a`, { token: pat, body: { product_ids: [foreign.id] } }), 400, "invalid_product_ids");
  });
});

describe("follows", () => {
  it("POST and DELETE /shops/{handle}/follow are idempotent and answer the state and follower count", async () => {
    const { handle } = await newShop();
    const alice = await api.anonymousUser();
    const bob = await api.anonymousUser();
    await expectError(await api.post(`/shops/${handle}/follow`), 401, "unauthorized");
    const first = await api.post(`/shops/${handle}/follow`, { token: alice.accessToken });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ following: true, follower_count: 1 });
    expect((await api.post(`/shops/${handle}/follow`, { token: alice.accessToken })).body).toEqual({ following: true, follower_count: 1 });
    expect((await api.post(`/shops/${handle}/follow`, { token: bob.accessToken })).body).toEqual({ following: true, follower_count: 2 });
    expect((await api.get(`/shops/${handle}`)).body.shop.follower_count).toBe(2);
    expect((await api.delete(`/shops/${handle}/follow`, { token: alice.accessToken })).body).toEqual({ following: false, follower_count: 1 });
    const again = await api.delete(`/shops/${handle}/follow`, { token: alice.accessToken });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ following: false, follower_count: 1 });
    await expectError(await api.post(`/shops/no-such-${rand()}/follow`, { token: alice.accessToken }), 404, "shop_not_found");
    await expectError(await api.delete(`/shops/no-such-${rand()}/follow`, { token: alice.accessToken }), 404, "shop_not_found");
  });

  it("GET /shops/@me/following lists only the caller's published follows, newest first, paginated", async () => {
    const alice = await api.anonymousUser();
    const bob = await api.anonymousUser();
    const followed = [];
    for (let i = 0; i < 3; i++) {
      const s = await newShop();
      followed.push(s);
      await db.shopFollow.create({ data: { shopId: s.shop.id, userId: alice.userId, createdAt: new Date(Date.now() - (10 - i) * DAY) } });
    }
    const bobs = await newShop();
    await api.post(`/shops/${bobs.handle}/follow`, { token: bob.accessToken });
    const hidden = await newShop();
    await api.post(`/shops/${hidden.handle}/follow`, { token: alice.accessToken });
    await db.platformShop.update({ where: { id: hidden.shop.id }, data: { published: false } });

    const page1 = await api.get("/shops/@me/following?limit=2", { token: alice.accessToken });
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.shops.map((s: any) => s.handle)).toEqual([followed[2]!.handle, followed[1]!.handle]);
    expect(page1.body.shops[0]).toMatchObject({ follower_count: 1, followed_at: expect.stringMatching(ISO) });
    const page2 = await api.get(`/shops/@me/following?limit=2&cursor=${page1.body.next_cursor}`, { token: alice.accessToken });
    expect(page2.body.shops.map((s: any) => s.handle)).toEqual([followed[0]!.handle]);
    expect(page2.body.next_cursor).toBeNull();
    // Each user sees their own follows only.
    const bobView = await api.get("/shops/@me/following", { token: bob.accessToken });
    expect(bobView.body.shops.map((s: any) => s.handle)).toEqual([bobs.handle]);
    await expectError(await api.get("/shops/@me/following?cursor=zz", { token: alice.accessToken }), 400, "invalid_input");
  });

  it("GET /shops/{handle}/analytics/followers counts total and the last 7 and 30 days, without naming anyone", async () => {
    const { shop, handle } = await newShop();
    const ages = [1, 3, 10, 20, 45];
    for (const age of ages) {
      const u = await api.anonymousUser();
      await db.shopFollow.create({ data: { shopId: shop.id, userId: u.userId, createdAt: new Date(Date.now() - age * DAY) } });
    }
    const res = await api.get(`/shops/${handle}/analytics/followers`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ handle, followers: { total: 5, last_7_days: 2, last_30_days: 4 } });
  });

  it("GET /shops/@me/analytics/followers: the portal user's partner's shops only; no_partner, no_linked_shop", async () => {
    const { partner, shop, handle } = await newShop();
    const rival = await newShop();
    const merchant = await api.anonymousUser();
    const stranger = await api.anonymousUser();
    await partners.addPartnerUser(partner.id, merchant.userId);
    for (const target of [handle, rival.handle, rival.handle]) {
      const u = await api.anonymousUser();
      await api.post(`/shops/${target}/follow`, { token: u.accessToken });
    }
    const mine = await api.get("/shops/@me/analytics/followers", { token: merchant.accessToken });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toEqual({
      shops: [{ shop_id: shop.id, handle, published: true, followers: { total: 1, last_7_days: 1, last_30_days: 1 } }],
      followers: { total: 1, last_7_days: 1, last_30_days: 1 },
    });
    await expectError(await api.get("/shops/@me/analytics/followers"), 401, "unauthorized");
    await expectError(await api.get("/shops/@me/analytics/followers", { token: stranger.accessToken }), 404, "no_partner");
    const shopless = await partners.createPartner({ name: "No shop", email: "n@store.example" });
    const owner = await api.anonymousUser();
    await partners.addPartnerUser(shopless.id, owner.userId);
    await expectError(await api.get("/shops/@me/analytics/followers", { token: owner.accessToken }), 400, "no_linked_shop");
  });
});

describe("merchant control: /partner/shops", () => {
  it("the merchant sets handle, published and description; the page follows", async () => {
    const { partner, shop } = await newShop({ published: false });
    const pat = (await pats.createPersonalAccessToken(partner.id)).token;
    const list = await api.get("/partner/shops", { token: pat });
    expect(list.status, list.text).toBe(200);
    expect(list.body.shops).toEqual([
      {
        id: shop.id,
        domain: shop.domain,
        name: shop.name,
        handle: shop.handle,
        published: false,
        description: "",
        url: `${server.url}/shops/${shop.handle}`,
        updated_at: expect.stringMatching(ISO),
      },
    ]);
    const handle = `my-page-${rand()}`;
    const patch = await api.request("PATCH", `/partner/shops/${shop.id}`, { token: pat, body: { handle, published: true, description: "Hello" } });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.shop).toMatchObject({ handle, published: true, description: "Hello" });
    expect((await api.get(`/shops/${handle}`)).body.shop).toMatchObject({ handle, description: "Hello" });
    await expectError(await api.get(`/shops/${shop.handle}`), 404, "shop_not_found");
    const one = await api.get(`/partner/shops/${shop.id}`, { token: pat });
    expect(one.body.shop.handle).toBe(handle);
    const unpublish = await api.request("PATCH", `/partner/shops/${shop.id}`, { token: pat, body: { published: false } });
    expect(unpublish.body.shop.published).toBe(false);
    await expectError(await api.get(`/shops/${handle}`), 404, "shop_not_found");
  });

  it("a shop without a handle (from before handles) gets one on first use", async () => {
    const { partner, shop } = await newShop({ name: `Legacy ${rand()}` });
    await db.platformShop.update({ where: { id: shop.id }, data: { handle: null } });
    const pat = (await pats.createPersonalAccessToken(partner.id)).token;
    const res = await api.get(`/partner/shops/${shop.id}`, { token: pat });
    expect(res.status, res.text).toBe(200);
    expect(res.body.shop.handle).toBe(shop.handle);
  });

  it("rejects bad and taken handles, other partners' shops, bad ids, members and users without a partner", async () => {
    const { partner, shop } = await newShop();
    const rival = await newShop();
    const pat = (await pats.createPersonalAccessToken(partner.id)).token;
    const patch = (id: number | string, body: unknown, token = pat) => api.request("PATCH", `/partner/shops/${id}`, { token, body });
    for (const handle of ["Upper", "-dash", "by-domain", "a".repeat(61), "with space", "@me"]) {
      await expectError(await patch(shop.id, { handle }), 400, "invalid_handle");
    }
    await expectError(await patch(shop.id, { handle: rival.handle }), 409, "handle_taken");
    await expectError(await patch(shop.id, { published: "yes" }), 400, "invalid_input");
    // Another partner's shop does not exist for this partner.
    await expectError(await patch(rival.shop.id, { published: false }), 404, "not_found");
    await expectError(await api.get(`/partner/shops/${rival.shop.id}`, { token: pat }), 404, "not_found");
    await expectError(await api.get(`/partner/shops/${rival.shop.id}/lists`, { token: pat }), 404, "not_found");
    await expectError(await api.post(`/partner/shops/${rival.shop.id}/lists`, { token: pat, body: { slug: "x", title: "X" } }), 404, "not_found");
    expect((await api.get(`/shops/${rival.handle}`)).status).toBe(200);
    // Ids.
    await expectError(await patch("abc", { published: true }), 400, "invalid_id");
    await expectError(await api.get("/partner/shops/abc", { token: pat }), 400, "invalid_id");
    await expectError(await api.get("/partner/shops/abc/lists", { token: pat }), 400, "invalid_id");
    await expectError(await api.post("/partner/shops/abc/lists", { token: pat, body: { slug: "x", title: "X" } }), 400, "invalid_id");
    await expectError(await api.put("/partner/shops/abc/lists/x", { token: pat, body: {} }), 400, "invalid_id");
    await expectError(await api.delete("/partner/shops/abc/lists/x", { token: pat }), 400, "invalid_id");
    // Without credentials, and portal users without a partner.
    await expectError(await api.get("/partner/shops"), 401, "unauthorized");
    const loner = await api.anonymousUser();
    await expectError(await api.get("/partner/shops", { token: loner.accessToken }), 404, "no_partner");
    await expectError(await api.get(`/partner/shops/${shop.id}`, { token: loner.accessToken }), 404, "no_partner");
    await expectError(await patch(shop.id, { published: true }, loner.accessToken), 404, "no_partner");
    await expectError(await api.get(`/partner/shops/${shop.id}/lists`, { token: loner.accessToken }), 404, "no_partner");
    await expectError(await api.post(`/partner/shops/${shop.id}/lists`, { token: loner.accessToken, body: { slug: "x", title: "X" } }), 404, "no_partner");
    await expectError(await api.put(`/partner/shops/${shop.id}/lists/x`, { token: loner.accessToken, body: {} }), 404, "no_partner");
    await expectError(await api.delete(`/partner/shops/${shop.id}/lists/x`, { token: loner.accessToken }), 404, "no_partner");
    // A member (not owner) of the partner reads but does not change.
    const member = await api.anonymousUser();
    await partners.addPartnerUser(partner.id, member.userId, "member");
    expect((await api.get(`/partner/shops/${shop.id}`, { token: member.accessToken })).status).toBe(200);
    await expectError(await patch(shop.id, { published: false }, member.accessToken), 403, "forbidden");
    await expectError(await api.post(`/partner/shops/${shop.id}/lists`, { token: member.accessToken, body: { slug: "x", title: "X" } }), 403, "forbidden");
    expect((await api.post(`/partner/shops/${shop.id}/lists`, { token: pat, body: { slug: "x", title: "X" } })).status).toBe(201);
    await expectError(await api.put(`/partner/shops/${shop.id}/lists/x`, { token: member.accessToken, body: { title: "Y" } }), 403, "forbidden");
    await expectError(await api.delete(`/partner/shops/${shop.id}/lists/x`, { token: member.accessToken }), 403, "forbidden");
    // An owner portal user may.
    const owner = await api.anonymousUser();
    await partners.addPartnerUser(partner.id, owner.userId, "owner");
    expect((await patch(shop.id, { description: "by the owner" }, owner.accessToken)).status).toBe(200);
  });

  it("the CLI creates a published shop with a chosen handle", async () => {
    const { wish } = await import("../support/api.ts");
    const partner = await partners.createPartner({ name: "CLI", email: "cli@store.example" });
    const handle = `cli-${rand()}`;
    const created = (await wish(server.databaseUrl, ["shop", "create", "--partner", String(partner.id), "--domain", `c${rand()}.myshopify.com`, "--name", "CLI Shop", "--handle", handle, "--published"])).shop;
    expect(created).toMatchObject({ handle, published: true, name: "CLI Shop" });
    expect((await api.get(`/shops/${handle}`)).status).toBe(200);
    const rows = await q(`SELECT "handle" FROM "PlatformShop" WHERE "id" = ?`, [created.id]);
    expect(rows).toEqual([{ handle }]);
  });
});
