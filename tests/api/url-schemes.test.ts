// Stored URLs: every URL a user supplies is an absolute
// http(s) URL (images may also be the service's own /media/images/… path);
// javascript:, data:, vbscript: and other relative paths are refused with
// 400 invalid_input, and what was stored before is not served.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let user: { userId: string; accessToken: string };
let listToken: string;
let dbId: number;
let growthToken: string;

const HOSTILE = ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "/covers/1.jpg", "covers/1.jpg", "//evil.example/x.png", "https:"];
// 127.0.0.1 is refused by the fetch guard at once, so nothing leaves the machine.
const GOOD = "https://127.0.0.1/images/cover.png";

beforeAll(async () => {
  api = await sharedApi();
  user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Schemes" } });
  listToken = list.body.token;
  dbId = list.body.list.db_id;
  const p = await provisioner(api.server);
  growthToken = (await p.pat((await p.partner("growth")).id)).token;
});

function expectRefused(res: { status: number; body: any }, field: string, value: string) {
  expect(res.status, `${field} = ${value}`).toBe(400);
  expect(res.body.error, `${field} = ${value}`).toBe("invalid_input");
  expect(res.body.message).toContain(field);
}

describe("PUT /hosted/lists/{token} image_path", () => {
  const put = (image_path: unknown) => api.put(`/hosted/lists/${listToken}`, { token: user.accessToken, body: { image_path } });

  it.each(HOSTILE)("refuses %j and stores nothing", async (value) => {
    expectRefused(await put(value), "image_path", value);
    const rows = await sql<{ imagePath: string }>(api.server.databaseUrl, `SELECT "imagePath" FROM "Wishlist" WHERE id = ?`, [dbId]);
    expect(rows[0]!.imagePath).not.toBe(value);
  });

  it("accepts https, http, a /media/images path and the empty string", async () => {
    for (const value of [GOOD, "http://127.0.0.1/a.jpg", "/media/images/abc123.webp", ""]) {
      const res = await put(value);
      expect(res.status, value).toBe(200);
      expect(res.body.list.image_path).toBe(value);
    }
  });

  it("a javascript: image_path stored before the check is not served on the public list route", async () => {
    const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Old" } });
    await api.put(`/hosted/lists/${list.body.token}`, { token: user.accessToken, body: { share_public: true } });
    await sql(api.server.databaseUrl, `UPDATE "Wishlist" SET "imagePath" = ? WHERE id = ?`, ["javascript:alert(1)", list.body.list.db_id]);
    const res = await api.get(`/hosted/public/lists/${list.body.token}`, { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body.list.image_path).toBe("");
  });
});

describe("POST /hosted/lists/{token}/items/manual imageUrl", () => {
  const post = (imageUrl: unknown) =>
    api.post(`/hosted/lists/${listToken}/items/manual`, { token: user.accessToken, body: { title: "Manual", imageUrl } });

  it.each(HOSTILE)("refuses %j", async (value) => {
    expectRefused(await post(value), "imageUrl", value);
  });

  it("accepts https and the service's media path", async () => {
    for (const value of [GOOD, "/media/images/abc123.webp"]) {
      const res = await post(value);
      expect(res.status, value).toBe(200);
      expect(res.body.item.imageUrl).toBe(value);
    }
  });

  it("an unsafe image URL stored before the check is not served on the items routes", async () => {
    const res = await post(GOOD);
    await sql(api.server.databaseUrl, `UPDATE "ProductLocalization" SET "originalImageUrl" = ? WHERE "productId" = ?`, [
      "javascript:alert(1)",
      res.body.item.id,
    ]);
    const items = await api.get(`/hosted/lists/${listToken}/items`, { token: user.accessToken });
    const item = items.body.products.find((p: { item_id: number }) => p.item_id === res.body.item.item_id);
    expect(item.imageUrl).toBeNull();
  });
});

describe("basket configuration URLs", () => {
  it.each(HOSTILE)("POST and PUT /partner/baskets refuse webhookUrl %j", async (value) => {
    expectRefused(await api.post("/partner/baskets", { token: growthToken, body: { webhookUrl: value } }), "webhookUrl", value);
    const created = await api.post("/partner/baskets", { token: growthToken, body: {} });
    expect(created.status).toBe(201);
    expectRefused(
      await api.put(`/partner/baskets/${created.body.basket.id}`, { token: growthToken, body: { webhookUrl: value } }),
      "webhookUrl",
      value,
    );
  });

  it.each(["javascript:alert('{variant_id}{quantity}')", "data:text/html,{variant_id}{quantity}", "vbscript:{variant_id}{quantity}", "//evil.example/cart/{variant_id}/{quantity}", "cart/{variant_id}/{quantity}"])(
    "refuses checkout.cartUrl %j",
    async (cartUrl) => {
      expectRefused(await api.post("/partner/baskets", { token: growthToken, body: { checkout: { mode: "cart", cartUrl } } }), "checkout.cartUrl", cartUrl);
    },
  );

  it("accepts an https webhook and an https or storefront-path cart URL", async () => {
    const res = await api.post("/partner/baskets", {
      token: growthToken,
      body: { webhookUrl: "https://127.0.0.1/hook", checkout: { mode: "cart", cartUrl: "https://shop.example/cart/{variant_id}:{quantity}" } },
    });
    expect(res.status).toBe(201);
    expect(res.body.basket.webhookUrl).toBe("https://127.0.0.1/hook");
    const path = await api.put(`/partner/baskets/${res.body.basket.id}`, {
      token: growthToken,
      body: { checkout: { mode: "cart", cartUrl: "/cart/add?id={variant_id}&quantity={quantity}" } },
    });
    expect(path.status).toBe(200);
  });
});

describe("POST /hosted/save product.url and product.imageUrl", () => {
  const save = (product: Record<string, unknown>) =>
    api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: dbId, product: { title: "Saved", ...product } } });

  it.each(HOSTILE)("refuses product.url %j", async (value) => {
    const res = await save({ url: value });
    expect(res.status).toBe(400);
    expect(["invalid_url", "invalid_input"]).toContain(res.body.error);
  });

  it.each(HOSTILE)("refuses product.imageUrl %j", async (value) => {
    const res = await save({ url: `https://127.0.0.1/p/${Math.random().toString(36).slice(2)}`, imageUrl: value });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_input");
  });

  it("accepts https", async () => {
    const res = await save({ url: `https://127.0.0.1/p/${Math.random().toString(36).slice(2)}`, imageUrl: GOOD });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
  });
});
