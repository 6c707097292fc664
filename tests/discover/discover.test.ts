// Discover, stores and the /products catalogue (SPEC 4.8). A server of its
// own with the ranking cache off (DISCOVER_CACHE_SECONDS=0), so every answer
// reflects the saves just made; one more server with a long cache shows the
// cache. Saves go through the real API; catalogue facts (localizations,
// price points, source domains) are arranged in SQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { startServer } from "../support/server.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { sql } from "../support/sql.ts";

let server: InProcessServer;
let api: Api;
let db: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

beforeAll(async () => {
  server = await startInProcess({ DISCOVER_CACHE_SECONDS: "0" });
  api = await apiFor(server);
  db = (text, params) => sql(server.databaseUrl, text, params);
});

afterAll(async () => {
  const out = server?.output() ?? "";
  await server?.stop();
  expect(out).not.toContain("undocumented error code");
  expect(out).not.toContain('"msg":"unhandled error"');
});

const sqlite = () => server.databaseUrl.startsWith("file:");
/** A timestamp parameter as Prisma stores it (ISO text on SQLite, timestamp without zone on PostgreSQL). */
const ts = (d: Date) => (sqlite() ? d.toISOString().replace("Z", "+00:00") : d.toISOString().replace("Z", ""));
const rnd = () => Math.random().toString(36).slice(2, 10);
/** A market code no other test uses: rankings filtered by it hold only this test's products. */
const uniqueMarket = () => `x${rnd().slice(0, 4)}-${rnd().slice(0, 4).toUpperCase()}`;

type User = Awaited<ReturnType<Api["anonymousUser"]>>;

async function newList(user: User, body: Record<string, unknown> = {}) {
  const res = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: `List ${rnd()}` } });
  expect(res.status).toBe(200);
  const token = res.body.token as string;
  if (Object.keys(body).length) {
    const put = await api.put(`/hosted/lists/${token}`, { token: user.accessToken, body });
    expect(put.status).toBe(200);
  }
  return { token, dbId: res.body.list.db_id as number };
}

async function save(user: User, wishlistId: number, url: string): Promise<{ productId: number; itemId: number }> {
  const res = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId, product: { url, title: "typed by the saver" } } });
  expect(res.status, res.text).toBe(200);
  return { productId: res.body.product_id, itemId: res.body.item_id };
}

/** Gives a product catalogue facts in a market. */
async function localize(productId: number, market: string, title: string, priceMinor: number | null = 1999, currency = "EUR") {
  await db(
    `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "priceMinor", "currency", "updatedAt") VALUES (?, ?, ?, '', ?, ?, ?)`,
    [productId, market, title, priceMinor, priceMinor === null ? null : currency, ts(new Date())],
  );
}

/** One product saved into `count` lists of fresh users, localized in `market`. */
async function savedProduct(count: number, market: string, title: string, url = `https://shop-${rnd()}.example/p/${rnd()}`) {
  let productId = 0;
  const items: number[] = [];
  for (let i = 0; i < count; i++) {
    const user = await api.anonymousUser();
    const list = await newList(user);
    const saved = await save(user, list.dbId, url);
    productId = saved.productId;
    items.push(saved.itemId);
  }
  await localize(productId, market, title);
  return { productId, items, url };
}

describe("GET /discover/trending", () => {
  it("ranks the products of the window by saves, in the asked market, without a key's rate-limit headers", async () => {
    const market = uniqueMarket();
    const a = await savedProduct(3, market, "Alpha lamp");
    const b = await savedProduct(2, market, "Beta chair");
    const c = await savedProduct(1, market, "Gamma mug");
    const res = await api.get(`/discover/trending?market=${market}`, { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(res.body).toMatchObject({ days: 7, market });
    expect(res.body.products.map((p: { id: number; saves: number }) => [p.id, p.saves])).toEqual([
      [a.productId, 3],
      [b.productId, 2],
      [c.productId, 1],
    ]);
    expect(res.body.products[0]).toMatchObject({ title: "Alpha lamp", price_minor: 1999, currency: "EUR", market, url: a.url });
    // The saver's own typed title is not catalogue data.
    expect(res.text).not.toContain("typed by the saver");

    const limited = await api.get(`/discover/trending?market=${market}&limit=1`);
    expect(limited.body.products).toHaveLength(1);
  });

  it("saves older than the window do not count; `days` widens it", async () => {
    const market = uniqueMarket();
    const a = await savedProduct(1, market, "Recent");
    const b = await savedProduct(3, market, "Old");
    // Two of b's three saves were made 10 days ago.
    for (const item of b.items.slice(0, 2)) {
      await db(`UPDATE "ListItem" SET "addedAt" = ? WHERE "id" = ?`, [ts(new Date(Date.now() - 10 * 86_400_000)), item]);
    }
    const week = await api.get(`/discover/trending?market=${market}`);
    expect(week.body.products.map((p: { id: number; saves: number }) => [p.id, p.saves])).toEqual([
      [b.productId, 1],
      [a.productId, 1],
    ]);
    const month = await api.get(`/discover/trending?market=${market}&days=30`);
    expect(month.body.products.map((p: { id: number; saves: number }) => [p.id, p.saves])).toEqual([
      [b.productId, 3],
      [a.productId, 1],
    ]);
  });

  it("manual products (typed by a shopper) never trend", async () => {
    const user = await api.anonymousUser();
    const list = await newList(user);
    const manual = await api.post(`/hosted/lists/${list.token}/items/manual`, { token: user.accessToken, body: { title: "My secret gift idea" } });
    expect(manual.status).toBe(200);
    const res = await api.get(`/discover/trending?days=1&limit=100`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain("My secret gift idea");
  });

  it.each([["days=0"], ["days=31"], ["limit=0"], ["limit=101"], ["days=abc"]])("%s → 400 invalid_input", async (q) => {
    const res = await api.get(`/discover/trending?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_input");
  });
});

describe("GET /discover/search and /products/search", () => {
  it("finds titles case-insensitively, in a market, page by page", async () => {
    const market = uniqueMarket();
    const word = `Zebra${rnd()}`;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await savedProduct(1, market, `Striped ${word} cup ${i}`)).productId);
    const other = await savedProduct(1, uniqueMarket(), `Striped ${word} other market`);
    for (const path of ["/discover/search", "/products/search"]) {
      const first = await api.get(`${path}?q=${word.toLowerCase()}&market=${market}&limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.products.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1]]);
      expect(first.body).toMatchObject({ has_more: true, next_offset: 2 });
      const second = await api.get(`${path}?q=${word.toUpperCase()}&market=${market}&limit=2&offset=2`);
      expect(second.body.products.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
      expect(second.body).toMatchObject({ has_more: false, next_offset: null });
      const anyMarket = await api.get(`${path}?q=${word}`);
      expect(anyMarket.body.products.map((p: { id: number }) => p.id)).toEqual([other.productId, ...ids.toReversed()]);
    }
  });

  it("LIKE wildcards in q are literal", async () => {
    const res = await api.get(`/discover/search?q=${encodeURIComponent("%_%")}`);
    expect(res.status).toBe(200);
    expect(res.body.products).toEqual([]);
  });

  it.each(["/discover/search", "/discover/search?q=", "/discover/search?q=%20%20", "/products/search", "/products/search?q="])(
    "%s → 400 missing_params",
    async (path) => {
      const res = await api.get(path);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("missing_params");
    },
  );
});

describe("products", () => {
  it("GET /discover/products/{id} and /products/{id}: facts per market and save count", async () => {
    const market = uniqueMarket();
    const p = await savedProduct(2, market, "Kettle");
    await localize(p.productId, "de-DE", "Wasserkocher", 2499, "EUR");
    await db(`UPDATE "Product" SET "brand" = 'Acme', "productType" = 'Kitchen' WHERE "id" = ?`, [p.productId]);
    for (const path of [`/discover/products/${p.productId}?market=de-DE`, `/products/${p.productId}?market=de-DE`]) {
      const res = await api.get(path);
      expect(res.status).toBe(200);
      expect(res.body.product).toMatchObject({
        id: p.productId,
        title: "Wasserkocher",
        price_minor: 2499,
        market: "de-DE",
        brand: "Acme",
        product_type: "Kitchen",
        save_count: 2,
        url: p.url,
      });
      expect(res.body.product.localizations.map((l: { market: string }) => l.market)).toEqual(["de-DE", market].sort());
    }
  });

  it.each(["/discover/products", "/products"])("%s/{id}: invalid and unknown ids, manual products", async (base) => {
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      const res = await api.get(`${base}/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body.error).toBe("invalid_product_id");
    }
    const unknown = await api.get(`${base}/999999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("product_not_found");
    const user = await api.anonymousUser();
    const list = await newList(user);
    const manual = await api.post(`/hosted/lists/${list.token}/items/manual`, { token: user.accessToken, body: { title: "Private idea" } });
    expect(manual.status).toBe(200);
    const productId = manual.body.item.id as number;
    const hidden = await api.get(`${base}/${productId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe("product_not_found");
  });

  it("/products/* carries the rate-limit headers with a bearer public key, and not without; /discover/* never", async () => {
    const provision = await provisioner(server);
    const partner = await provision.partner();
    const key = await provision.key(partner.id);
    const p = await savedProduct(1, uniqueMarket(), "Metered");
    const withKey = await api.get(`/products/${p.productId}`, { token: key.key });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(withKey.headers.get("x-usage-month")).not.toBeNull();
    const search = await api.get(`/products/search?q=Metered`, { token: key.key });
    expect(search.headers.get("x-ratelimit-limit")).not.toBeNull();
    const without = await api.get(`/products/${p.productId}`);
    expect(without.status).toBe(200);
    expect(without.headers.get("x-ratelimit-limit")).toBeNull();
    const discover = await api.get(`/discover/products/${p.productId}`, { token: key.key });
    expect(discover.status).toBe(200);
    expect(discover.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("GET /discover/products/{id}/price-history", () => {
  it("one point per day per market and currency: the day's last price, low and high", async () => {
    const p = await savedProduct(1, uniqueMarket(), "Priced");
    const dayStart = (daysAgo: number) => Math.floor(Date.now() / 86_400_000) * 86_400_000 - daysAgo * 86_400_000;
    const at = (daysAgo: number, hour: number) => new Date(dayStart(daysAgo) + hour * 3_600_000);
    const points: Array<[string, string, number, Date]> = [
      ["de-DE", "EUR", 1000, at(3, 8)],
      ["de-DE", "EUR", 900, at(3, 12)],
      ["de-DE", "EUR", 950, at(3, 20)],
      ["de-DE", "EUR", 990, at(2, 9)],
      ["de-DE", "EUR", 1100, at(1, 1)],
      ["de-DE", "EUR", 1050, at(1, 23)],
      ["de-DE", "CHF", 1200, at(2, 10)],
      ["de-DE", "CHF", 1150, at(2, 11)],
      ["en-US", "USD", 1300, at(1, 5)],
      ["en-US", "USD", 1250, at(200, 5)],
    ];
    for (const [market, currency, price, when] of points) {
      await db(`INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "recordedAt") VALUES (?, ?, ?, ?, ?)`, [
        p.productId,
        market,
        price,
        currency,
        ts(when),
      ]);
    }
    const day = (n: number) => new Date(dayStart(n)).toISOString().slice(0, 10);
    const res = await api.get(`/discover/products/${p.productId}/price-history`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(res.body).toMatchObject({ product_id: p.productId, days: 90, since: day(89) });
    const series = res.body.series as Array<{ market: string; currency: string; points: Array<Record<string, unknown>> }>;
    expect(series.map((s) => `${s.market}/${s.currency}`)).toEqual(["de-DE/CHF", "de-DE/EUR", "en-US/USD"]);
    const eur = series[1]!.points;
    expect(eur.map((x) => [x.date, x.price_minor, x.low_minor, x.high_minor])).toEqual([
      [day(3), 950, 900, 1000],
      [day(2), 990, 990, 990],
      [day(1), 1050, 1050, 1100],
    ]);
    expect(eur[0]!.recorded_at).toBe(at(3, 20).toISOString());
    expect(series[0]!.points.map((x) => [x.date, x.price_minor, x.low_minor])).toEqual([[day(2), 1150, 1150]]);
    // The 200-day-old point is outside the default 90 days.
    expect(series[2]!.points.map((x) => x.price_minor)).toEqual([1300]);

    const usd = await api.get(`/discover/products/${p.productId}/price-history?market=en-US&currency=usd&days=365`);
    expect(usd.body.series).toHaveLength(1);
    expect(usd.body.series[0].points.map((x: { price_minor: number }) => x.price_minor)).toEqual([1250, 1300]);
    const chf = await api.get(`/discover/products/${p.productId}/price-history?currency=CHF`);
    expect(chf.body.series.map((s: { currency: string }) => s.currency)).toEqual(["CHF"]);
    const shortWindow = await api.get(`/discover/products/${p.productId}/price-history?days=2`);
    expect(shortWindow.body.series.map((s: { points: unknown[] }) => s.points.length)).toEqual([1, 1]);
  });

  it("codes: invalid id, unknown product, bad query", async () => {
    const bad = await api.get(`/discover/products/x1/price-history`);
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_product_id"]);
    const unknown = await api.get(`/discover/products/999999999/price-history`);
    expect([unknown.status, unknown.body.error]).toEqual([404, "product_not_found"]);
    for (const q of ["days=0", "days=366", "currency=EU"]) {
      const res = await api.get(`/discover/products/1/price-history?${q}`);
      expect([res.status, res.body.error], q).toEqual([400, "invalid_input"]);
    }
  });
});

describe("lists, occasions and seasonal", () => {
  it("curated lists: public lists ranked by recent saves; private lists and e-mails never shown", async () => {
    const owner = await api.anonymousUser();
    const popular = await newList(owner, { share_public: true, occasion_slug: "wedding" });
    const quiet = await newList(owner, { share_public: true, occasion_slug: "wedding" });
    const secret = await newList(owner, { occasion_slug: "wedding" });
    for (let i = 0; i < 3; i++) await save(owner, popular.dbId, `https://shop-${rnd()}.example/p/${i}`);
    await save(owner, quiet.dbId, `https://shop-${rnd()}.example/p/q`);
    for (let i = 0; i < 5; i++) await save(owner, secret.dbId, `https://shop-${rnd()}.example/p/s${i}`);
    const res = await api.get(`/discover/curated-lists?occasion=wedding&lang=de`);
    expect(res.status).toBe(200);
    const tokens = res.body.lists.map((l: { id: string }) => l.id);
    expect(tokens).toContain(popular.token);
    expect(tokens).toContain(quiet.token);
    expect(tokens.indexOf(popular.token)).toBeLessThan(tokens.indexOf(quiet.token));
    expect(tokens).not.toContain(secret.token);
    expect(res.body.lists.find((l: { id: string }) => l.id === popular.token)).toMatchObject({
      recent_saves: 3,
      productCount: 3,
      occasion_slug: "wedding",
      occasion_title: "Hochzeit",
    });
    expect(res.text).not.toContain(owner.userId);
    expect(res.text).not.toMatch(/@|email/i);
    const birthday = await api.get(`/discover/curated-lists?occasion=birthday`);
    expect(birthday.body.lists.map((l: { id: string }) => l.id)).not.toContain(popular.token);
  });

  it("occasions: the catalogue with next dates from a reference day", async () => {
    const res = await api.get(`/discover/occasions?date=2026-12-01&lang=en`);
    expect(res.status).toBe(200);
    const bySlug = Object.fromEntries(res.body.occasions.map((o: { slug: string }) => [o.slug, o]));
    expect(bySlug.christmas).toMatchObject({ title: "Christmas", next_date: "2026-12-24", days_until: 23 });
    expect(bySlug.easter).toMatchObject({ next_date: "2027-03-28" });
    expect(bySlug["mothers-day"]).toMatchObject({ next_date: "2027-05-09" });
    expect(bySlug.birthday).toMatchObject({ next_date: null, days_until: null });
    const de = await api.get(`/discover/occasions?date=2027-01-01&market=de-DE`);
    const fathers = de.body.occasions.find((o: { slug: string }) => o.slug === "fathers-day");
    expect(fathers).toMatchObject({ title: "Vatertag", next_date: "2027-05-06" });
    for (const date of ["2026-13-01", "2026-02-30", "tomorrow"]) {
      const bad = await api.get(`/discover/occasions?date=${date}`);
      expect([bad.status, bad.body.error], date).toEqual([400, "invalid_input"]);
    }
  });

  it("seasonal: upcoming occasions with their public lists and most saved products", async () => {
    const market = uniqueMarket();
    const owner = await api.anonymousUser();
    const xmas = await newList(owner, { share_public: true, occasion_slug: "christmas" });
    const privateXmas = await newList(owner, { occasion_slug: "christmas" });
    const url = `https://shop-${rnd()}.example/p/sled`;
    const sled = await save(owner, xmas.dbId, url);
    await localize(sled.productId, market, "Wooden sled");
    const hidden = await save(owner, privateXmas.dbId, `https://shop-${rnd()}.example/p/hidden`);
    const res = await api.get(`/discover/seasonal?date=2026-12-01&days=30&market=${market}&limit=24`);
    expect(res.status).toBe(200);
    expect(res.body.occasions.map((o: { slug: string }) => o.slug)).toEqual(["hanukkah", "christmas"]);
    const christmas = res.body.occasions[1];
    expect(christmas).toMatchObject({ date: "2026-12-24", days_until: 23 });
    expect(christmas.lists.map((l: { id: string }) => l.id)).toContain(xmas.token);
    expect(christmas.lists.map((l: { id: string }) => l.id)).not.toContain(privateXmas.token);
    const products = christmas.products.map((p: { id: number }) => p.id);
    expect(products).toContain(sled.productId);
    expect(products).not.toContain(hidden.productId);
    expect(christmas.products.find((p: { id: number }) => p.id === sled.productId)).toMatchObject({ title: "Wooden sled", saves: 1 });
    const narrow = await api.get(`/discover/seasonal?date=2026-12-01&days=2`);
    expect(narrow.body.occasions).toEqual([]);
  });
});

describe("shops and partners", () => {
  it("published shops and partners with an active shop, without e-mail addresses", async () => {
    const provision = await provisioner(server);
    const active = await provision.partner();
    const inactive = await provision.partner();
    const shop = await provision.shop(active.id, { domain: `act-${rnd()}.myshopify.com` });
    const gone = await provision.shop(inactive.id, { domain: `gone-${rnd()}.myshopify.com` });
    await db(`UPDATE "PlatformShop" SET "active" = ? WHERE "id" = ?`, [sqlite() ? 0 : false, gone.id]);
    const unpublished = await provision.shop(active.id, { domain: `unpub-${rnd()}.myshopify.com` });
    const handle = `active-shop-${rnd()}`;
    await db(`UPDATE "PlatformShop" SET "name" = 'Active Shop', "primaryDomain" = 'www.active-shop.example', "handle" = ?, "published" = ? WHERE "id" = ?`, [
      handle,
      sqlite() ? 1 : true,
      shop.id,
    ]);

    const shops = await api.get(`/discover/shops?limit=100`);
    expect(shops.status).toBe(200);
    expect(shops.body.shops).toContainEqual({
      handle,
      name: "Active Shop",
      domain: "www.active-shop.example",
      url: "https://www.active-shop.example",
      page_url: `${server.url}/shops/${handle}`,
    });
    expect(shops.text).not.toContain(gone.domain);
    expect(shops.text).not.toContain(unpublished.domain);
    expect(shops.text).not.toContain("@");

    const partners = await api.get(`/discover/partners?limit=100`);
    expect(partners.status).toBe(200);
    expect(partners.body.partners).toContainEqual({ id: active.id, name: active.name, shop_count: 2 });
    expect(partners.body.partners.map((p: { id: number }) => p.id)).not.toContain(inactive.id);
    expect(partners.text).not.toContain("@");

    const page = await api.get(`/discover/partners?limit=1&offset=0`);
    expect(page.body.partners).toHaveLength(1);
    const bad = await api.get(`/discover/shops?offset=-1`);
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_input"]);
  });
});

describe("stores", () => {
  it("stores by source domain, categories, detail and products; unknown → 404 not_found", async () => {
    const market = uniqueMarket();
    const domain = `store-${rnd()}.example`;
    const ids: number[] = [];
    for (const [i, type] of ["Lamps", "Lamps", "Chairs"].entries()) {
      const p = await savedProduct(1, market, `${type} ${i}`, `https://${domain}/p/${i}`);
      await db(`UPDATE "Product" SET "sourceDomain" = ?, "productType" = ? WHERE "id" = ?`, [domain, type, p.productId]);
      ids.push(p.productId);
    }
    const provision = await provisioner(server);
    const partner = await provision.partner();
    const shop = await provision.shop(partner.id);
    await db(`UPDATE "PlatformShop" SET "name" = 'The Lamp Store', "primaryDomain" = ? WHERE "id" = ?`, [domain, shop.id]);

    const list = await api.get(`/stores?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.stores).toContainEqual({ domain, name: "The Lamp Store", product_count: 3 });
    const chairs = await api.get(`/stores?category=Chairs&limit=100`);
    expect(chairs.body.stores).toContainEqual({ domain, name: "The Lamp Store", product_count: 1 });

    const categories = await api.get(`/stores/categories`);
    expect(categories.status).toBe(200);
    const lamps = categories.body.categories.find((c: { category: string }) => c.category === "Lamps");
    expect(lamps.product_count).toBeGreaterThanOrEqual(2);
    expect(lamps.store_count).toBeGreaterThanOrEqual(1);

    const detail = await api.get(`/stores/${domain.toUpperCase()}`);
    expect(detail.status).toBe(200);
    expect(detail.body.store).toEqual({
      domain,
      name: "The Lamp Store",
      product_count: 3,
      categories: [
        { category: "Lamps", product_count: 2 },
        { category: "Chairs", product_count: 1 },
      ],
      partner_shop: true,
    });

    const products = await api.get(`/stores/${domain}/products?limit=2&market=${market}`);
    expect(products.status).toBe(200);
    expect(products.body.products.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(products.body.has_more).toBe(true);
    const lampProducts = await api.get(`/stores/${domain}/products?category=Lamps`);
    expect(lampProducts.body.products.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0]]);

    for (const path of [`/stores/unknown-${rnd()}.example`, `/stores/unknown-${rnd()}.example/products`, `/stores/bad%20domain`]) {
      const res = await api.get(path);
      expect([res.status, res.body.error], path).toEqual([404, "not_found"]);
    }
  });
});

describe("the ranking cache", () => {
  it("keeps a computed ranking for DISCOVER_CACHE_SECONDS; another window is computed afresh", async () => {
    const cachedServer = await startServer({ DISCOVER_CACHE_SECONDS: "3600" });
    try {
      const client = await apiFor(cachedServer);
      const user = await client.anonymousUser();
      const list = await client.post("/hosted/me/lists", { token: user.accessToken, body: { name: "L" } });
      const market = uniqueMarket();
      const saveLocalized = async () => {
        const saved = await client.post("/hosted/save", {
          token: user.accessToken,
          body: { wishlistId: list.body.list.db_id, product: { url: `https://shop-${rnd()}.example/p`, title: "x" } },
        });
        const now = new Date().toISOString();
        await sql(cachedServer.databaseUrl, `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "updatedAt") VALUES (?, ?, 'Cached', '', ?)`, [
          saved.body.product_id,
          market,
          cachedServer.databaseUrl.startsWith("file:") ? now.replace("Z", "+00:00") : now.replace("Z", ""),
        ]);
        return saved.body.product_id as number;
      };
      const a = await saveLocalized();
      const first = await client.get(`/discover/trending?market=${market}`);
      expect(first.body.products.map((p: { id: number }) => p.id)).toEqual([a]);
      const b = await saveLocalized();
      const again = await client.get(`/discover/trending?market=${market}`);
      expect(again.body.products.map((p: { id: number }) => p.id)).toEqual([a]);
      expect(again.body.computed_at).toBe(first.body.computed_at);
      // Another window is another key: computed now.
      const wider = await client.get(`/discover/trending?market=${market}&days=8`);
      expect(wider.body.products.map((p: { id: number }) => p.id).sort()).toEqual([a, b].sort());
    } finally {
      await cachedServer.stop();
    }
  });
});

describe("made-up filters", () => {
  it("an unknown market, occasion or category gives an empty answer (no ranking computed for it)", async () => {
    const trending = await api.get(`/discover/trending?market=${uniqueMarket()}`);
    expect([trending.status, trending.body.products]).toEqual([200, []]);
    const curated = await api.get(`/discover/curated-lists?occasion=no-such-occasion`);
    expect([curated.status, curated.body.lists]).toEqual([200, []]);
    const stores = await api.get(`/stores?category=${rnd()}`);
    expect([stores.status, stores.body.stores]).toEqual([200, []]);
  });
});

describe("answers match the documented response schemas", () => {
  it("every route's success body parses with its route's `response` schema", async () => {
    await provisioner(server); // points this worker's app modules at the server's database
    const market = uniqueMarket();
    const domain = `schema-${rnd()}.example`;
    const p = await savedProduct(2, market, "Schema lamp", `https://${domain}/p/1`);
    await db(`UPDATE "Product" SET "sourceDomain" = ?, "productType" = 'Lamps', "tags" = ? WHERE "id" = ?`, [domain, '["a"]', p.productId]);
    await db(`INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "recordedAt") VALUES (?, ?, 100, 'EUR', ?)`, [
      p.productId,
      market,
      ts(new Date()),
    ]);
    const owner = await api.anonymousUser();
    const list = await newList(owner, { share_public: true, occasion_slug: "christmas" });
    await save(owner, list.dbId, p.url);
    const cases: Array<[load: () => Promise<unknown>, path: string]> = [
      [() => import("../../app/api/discover/trending.ts"), `/discover/trending?market=${market}`],
      [() => import("../../app/api/discover/search.ts"), `/discover/search?q=schema`],
      [() => import("../../app/api/discover/shops.ts"), `/discover/shops`],
      [() => import("../../app/api/discover/partners.ts"), `/discover/partners`],
      [() => import("../../app/api/discover/curated-lists.ts"), `/discover/curated-lists`],
      [() => import("../../app/api/discover/seasonal.ts"), `/discover/seasonal?date=2026-12-01&days=30`],
      [() => import("../../app/api/discover/occasions.ts"), `/discover/occasions`],
      [() => import("../../app/api/discover/product.ts"), `/discover/products/${p.productId}`],
      [() => import("../../app/api/discover/price-history.ts"), `/discover/products/${p.productId}/price-history`],
      [() => import("../../app/api/stores/stores.ts"), `/stores`],
      [() => import("../../app/api/stores/categories.ts"), `/stores/categories`],
      [() => import("../../app/api/stores/store.ts"), `/stores/${domain}`],
      [() => import("../../app/api/stores/store-products.ts"), `/stores/${domain}/products`],
      [() => import("../../app/api/products/product.ts"), `/products/${p.productId}`],
      [() => import("../../app/api/products/search.ts"), `/products/search?q=schema`],
    ];
    for (const [load, path] of cases) {
      const { loader } = (await load()) as {
        loader: { routes: { GET: { schemas: { response: { safeParse: (v: unknown) => { success: boolean; error?: unknown } } } } } };
      };
      const res = await api.get(path);
      expect(res.status, path).toBe(200);
      const parsed = loader.routes.GET.schemas.response.safeParse(res.body);
      expect(parsed.success, `${path}: ${JSON.stringify(parsed.error)}`).toBe(true);
    }
    // Non-empty answers, so the item schemas were exercised too.
    expect((await api.get(`/discover/curated-lists`)).body.lists.length).toBeGreaterThan(0);
    expect((await api.get(`/discover/seasonal?date=2026-12-01&days=30`)).body.occasions[1].products.length).toBeGreaterThan(0);
  });
});
