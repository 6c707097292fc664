// Saving products (SPEC 2.6) and editing items (SPEC 4.2 further routes).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, sharedApi, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

type User = Awaited<ReturnType<Api["anonymousUser"]>>;

async function newList(client: Api, user: User, name = "List") {
  const res = await client.post("/hosted/me/lists", { token: user.accessToken, body: { name } });
  return { token: res.body.token as string, dbId: res.body.list.db_id as number };
}

const save = (client: Api, user: User, wishlistId: unknown, product?: unknown) =>
  client.post("/hosted/save", { token: user.accessToken, body: { wishlistId, product } });

const uniqueUrl = (path = "") => `https://shop.example.com/products/${Math.random().toString(36).slice(2)}${path}`;

describe("save request validation", () => {
  it.each([
    [{ product: { url: "https://shop.example.com/p" } }, 400, "missing_wishlist"],
    [{ wishlistId: "abc", product: { url: "https://shop.example.com/p" } }, 400, "missing_wishlist"],
    [{ wishlistId: 1 }, 400, "missing_url"],
    [{ wishlistId: 1, product: { title: "no url" } }, 400, "missing_url"],
    [{ wishlistId: 1, product: { url: "javascript:alert(1)" } }, 400, "invalid_url"],
  ])("%j → %i %s", async (body, status, code) => {
    const user = await api.anonymousUser();
    const res = await api.post("/hosted/save", { token: user.accessToken, body });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
  });

  it("priority must be an integer from 1 to 4", async () => {
    const user = await api.anonymousUser();
    const { dbId } = await newList(api, user);
    for (const priority of [0, 5, 2.5, "high"]) {
      const res = await save(api, user, dbId, { url: uniqueUrl(), title: "x", priority });
      expect(res.status, String(priority)).toBe(400);
      expect(res.body.error).toBe("invalid_priority");
    }
    for (const priority of [1, 4]) {
      const res = await save(api, user, dbId, { url: uniqueUrl(), title: "x", priority });
      expect(res.status).toBe(200);
    }
  });

  it("a list of another user, or an unknown list, gives 403 invalid_wishlist", async () => {
    const owner = await api.anonymousUser();
    const other = await api.anonymousUser();
    const { dbId } = await newList(api, owner);
    for (const id of [dbId, 999_999_999]) {
      const res = await save(api, other, id, { url: uniqueUrl(), title: "x" });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("invalid_wishlist");
    }
  });
});

describe("product upsert by canonical URL", () => {
  it("the same product behind different tracking parameters is one product, and one item per list", async () => {
    const user = await api.anonymousUser();
    const a = await newList(api, user, "A");
    const b = await newList(api, user, "B");
    const url = uniqueUrl();
    const first = await save(api, user, a.dbId, { url: `${url}?utm_source=newsletter&gclid=1`, title: "Mug" });
    const again = await save(api, user, a.dbId, { url: `${url}?fbclid=2#top`, title: "Mug", priority: 2 });
    const elsewhere = await save(api, user, b.dbId, { url, title: "Mug" });
    expect(again.body.product_id).toBe(first.body.product_id);
    expect(again.body.item_id).toBe(first.body.item_id);
    expect(elsewhere.body.product_id).toBe(first.body.product_id);
    expect(elsewhere.body.item_id).not.toBe(first.body.item_id);
    const items = await api.get(`/hosted/lists/${a.token}/items`, { token: user.accessToken });
    expect(items.body.products).toHaveLength(1);
    expect(items.body.products[0]).toMatchObject({ priority: 2, affiliateUrl: url });
  });

  it("keeps parameters that select a variant", async () => {
    const user = await api.anonymousUser();
    const { token, dbId } = await newList(api, user);
    const url = uniqueUrl();
    const red = await save(api, user, dbId, { url: `${url}?variant=1`, title: "Shirt" });
    const blue = await save(api, user, dbId, { url: `${url}?variant=2`, title: "Shirt" });
    expect(red.body.product_id).not.toBe(blue.body.product_id);
    // Items come newest first.
    const items = await api.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
    expect(items.body.products.map((p: any) => p.item_id)).toEqual([blue.body.item_id, red.body.item_id]);
  });

  it("a shopper's facts are the item's own: the latest save shows, the shared catalogue and its price history stay untouched", async () => {
    const user = await api.anonymousUser();
    const { token, dbId } = await newList(api, user);
    const url = uniqueUrl();
    const first = await save(api, user, dbId, { url, title: "Becher", description: "Aus Ton", price: 1299, currency: "EUR", marketCode: "de-DE" });
    await save(api, user, dbId, { url, title: "Becher", price: 1199, currency: "EUR", marketCode: "de-DE" });

    const items = (await api.get(`/hosted/lists/${token}/items`, { token: user.accessToken })).body.products;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ title: "Becher", price_minor: 1199, currency: "EUR" });
    // Catalogue facts and price points come only from sources entitled to speak for the product.
    const history = await sql(api.server.databaseUrl, `SELECT id FROM "PricePoint" WHERE "productId" = ?`, [first.body.product_id]);
    expect(history).toEqual([]);
    const localized = await sql(api.server.databaseUrl, `SELECT title FROM "ProductLocalization" WHERE "productId" = ?`, [first.body.product_id]);
    expect(localized).toEqual([]);
  });

  it("keeps the owner's metadata on the hosted route", async () => {
    const user = await api.anonymousUser();
    const { dbId } = await newList(api, user);
    const res = await save(api, user, dbId, { url: uniqueUrl(), title: "Shoe", metadata: { variantId: 4711, quantity: 2 } });
    const saved = await api.post("/hosted/saved-products", { token: user.accessToken });
    const item = saved.body.products.find((p: any) => p.item_id === res.body.item_id);
    expect(item).toMatchObject({ checkoutMeta: { variantId: 4711, quantity: 2 }, variantId: "4711" });
  });

  it("saved-products returns SavedProduct fields with null for unset values", async () => {
    const user = await api.anonymousUser();
    const { dbId } = await newList(api, user);
    await save(api, user, dbId, { url: uniqueUrl(), title: "Plain" });
    const res = await api.post("/hosted/saved-products", { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.products[0]).sort()).toEqual(
      [
        "id", "wishlist_id", "item_id", "source_partner_id", "source_shop_id", "source_domain", "title", "description",
        "imageUrl", "image_url", "affiliateUrl", "url", "price_minor", "price", "currency", "compare_at_price_minor",
        "brand", "product_type", "tags", "checkoutMeta", "variantId",
      ].sort(),
    );
    expect(res.body.products[0]).toMatchObject({ price_minor: null, source_partner_id: null, checkoutMeta: null, description: null });
  });
});

describe("item routes", () => {
  it("manual items: missing_title, create, price override, delete garbage-collects the product", async () => {
    const user = await api.anonymousUser();
    const { token } = await newList(api, user);
    const missing = await api.post(`/hosted/lists/${token}/items/manual`, { token: user.accessToken, body: { description: "no title" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("missing_title");

    const created = await api.post(`/hosted/lists/${token}/items/manual`, {
      token: user.accessToken,
      body: { title: "Hand-knitted scarf", price: 3000, currency: "eur" },
    });
    expect(created.status).toBe(200);
    const item = created.body.item;
    expect(item).toMatchObject({ title: "Hand-knitted scarf", price_minor: 3000, currency: "EUR", affiliateUrl: null });

    const override = await api.put(`/hosted/lists/${token}/items/${item.item_id}`, {
      token: user.accessToken,
      body: { price_override_minor: 2500, purchased: true },
    });
    expect(override.body.item).toMatchObject({ price_minor: 2500, purchased: true });
    const cleared = await api.put(`/hosted/lists/${token}/items/${item.item_id}`, { token: user.accessToken, body: { price_override_minor: null } });
    expect(cleared.body.item.price_minor).toBe(3000);
    const nothing = await api.put(`/hosted/lists/${token}/items/${item.item_id}`, { token: user.accessToken, body: {} });
    expect(nothing.status).toBe(400);

    const del = await api.delete(`/hosted/lists/${token}/items/${item.item_id}`, { token: user.accessToken });
    expect(del.body).toEqual({ ok: true, deleted: item.item_id });
    const left = await sql(api.server.databaseUrl, `SELECT id FROM "Product" WHERE id = ?`, [item.id]);
    expect(left).toHaveLength(0);
    expect((await api.delete(`/hosted/lists/${token}/items/${item.item_id}`, { token: user.accessToken })).status).toBe(404);
  });

  it("move and copy: owner only, target required, not the same list", async () => {
    const owner = await api.anonymousUser();
    const editor = await api.anonymousUser();
    const from = await newList(api, owner, "From");
    const to = await newList(api, owner, "To");
    const saved = await save(api, owner, from.dbId, { url: uniqueUrl(), title: "Lamp" });
    const itemId = saved.body.item_id;
    await sql(api.server.databaseUrl, `INSERT INTO "WishlistMember" ("wishlistId", "userId", "role") VALUES (?, ?, 'editor')`, [from.dbId, editor.userId]);

    const byEditor = await api.post(`/hosted/lists/${from.token}/items/${itemId}/move`, { token: editor.accessToken, body: { target: to.token } });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error).toBe("move_requires_owner");
    const noTarget = await api.post(`/hosted/lists/${from.token}/items/${itemId}/move`, { token: owner.accessToken, body: {} });
    expect(noTarget.body.error).toBe("missing_target");
    const same = await api.post(`/hosted/lists/${from.token}/items/${itemId}/move`, { token: owner.accessToken, body: { target: from.token } });
    expect(same.body.error).toBe("same_list");

    const copied = await api.post(`/hosted/lists/${from.token}/items/${itemId}/move`, { token: owner.accessToken, body: { target: to.token, copy: true } });
    expect(copied.status).toBe(200);
    expect(copied.body.copied).toBe(true);
    const count = async (token: string) => (await api.get(`/hosted/lists/${token}/items`, { token: owner.accessToken })).body.products.length;
    expect([await count(from.token), await count(to.token)]).toEqual([1, 1]);

    const third = await newList(api, owner, "Third");
    const moved = await api.post(`/hosted/lists/${from.token}/items/${itemId}/move`, { token: owner.accessToken, body: { targetWishlistId: third.dbId } });
    expect(moved.status).toBe(200);
    expect([await count(from.token), await count(third.token)]).toEqual([0, 1]);
  });

  it("rescrape refuses manual items", async () => {
    const user = await api.anonymousUser();
    const { token } = await newList(api, user);
    const manual = await api.post(`/hosted/lists/${token}/items/manual`, { token: user.accessToken, body: { title: "Gift card" } });
    const res = await api.post(`/hosted/lists/${token}/items/${manual.body.item.item_id}/rescrape`, { token: user.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("manual_product");
  });

  it("a manual product can be deleted only by its creator", async () => {
    const user = await api.anonymousUser();
    const other = await api.anonymousUser();
    const { token } = await newList(api, user);
    const manual = await api.post(`/hosted/lists/${token}/items/manual`, { token: user.accessToken, body: { title: "Voucher" } });
    const productId = manual.body.item.id;
    expect((await api.delete(`/hosted/products/${productId}`, { token: other.accessToken })).status).toBe(404);
    const del = await api.delete(`/hosted/products/${productId}`, { token: user.accessToken });
    expect(del.body).toEqual({ ok: true, deleted: productId });
    const items = await api.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
    expect(items.body.products).toHaveLength(0);
  });
});

describe("product data from the page and image copies (local shop server)", () => {
  let shop: Server;
  let shopUrl: string;
  let server: TestServer;
  let local: Api;
  const png = Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201f7a1d2a70000000049454e44ae426082",
    "hex",
  );

  beforeAll(async () => {
    shop = createServer((req, res) => {
      if (req.url === "/img/mug.png") {
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(png);
      }
      if (req.url?.startsWith("/p/lamp")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><html><head><title>Lamp | Shop</title>
          <script type="application/ld+json">${JSON.stringify({
            "@context": "https://schema.org",
            "@type": "Product",
            name: "Brass lamp",
            description: "A warm light",
            image: `${shopUrl}/img/mug.png`,
            brand: { "@type": "Brand", name: "Lumen" },
            offers: { "@type": "Offer", price: "89.90", priceCurrency: "EUR" },
          })}</script></head><body>Lamp</body></html>`);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => shop.listen(0, "127.0.0.1", r));
    const { port } = shop.address() as { port: number };
    shopUrl = `http://127.0.0.1:${port}`;
    server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${port}` });
    local = await apiFor(server);
  });

  afterAll(async () => {
    await server?.stop();
    shop?.close();
  });

  it("copies the image into the service's storage and items show the stored copy", async () => {
    const user = await local.anonymousUser();
    const { token, dbId } = await newList(local, user);
    const res = await save(local, user, dbId, { url: `${shopUrl}/p/mug`, title: "Mug", imageUrl: `${shopUrl}/img/mug.png` });
    expect(res.status).toBe(200);
    const items = await local.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
    const imageUrl: string = items.body.products[0].imageUrl;
    expect(imageUrl.startsWith(`${server.url}/media/images/`)).toBe(true);
    const image = await fetch(imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
  });

  it("a save with only a URL takes title, price, brand and image from the page", async () => {
    const user = await local.anonymousUser();
    const { token, dbId } = await newList(local, user);
    const res = await save(local, user, dbId, { url: `${shopUrl}/p/lamp?utm_source=x` });
    expect(res.status).toBe(200);
    const items = await local.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
    expect(items.body.products[0]).toMatchObject({
      title: "Brass lamp",
      description: "A warm light",
      price_minor: 8990,
      currency: "EUR",
      brand: "Lumen",
      imageUrl: expect.stringContaining(`${server.url}/media/images/`),
    });
  });
});
