// POST /widget/save and the saved-products routes (SPEC 4.1, 2.4).
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
});

async function widgetFor(origin: string, plan = "free") {
  const partner = await p.partner(plan);
  const key = await p.key(partner.id);
  const res = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
  expect(res.status).toBe(200);
  return { partner, token: res.body.token as string, origin };
}

async function shopper() {
  const user = await api.anonymousUser();
  const init = await api.post("/hosted/me/init", { token: user.accessToken });
  return { ...user, dbId: init.body.list.db_id as number, listToken: init.body.list.id as string };
}

type Widget = Awaited<ReturnType<typeof widgetFor>>;
type Shopper = Awaited<ReturnType<typeof shopper>>;

const widgetSave = (w: Widget, s: Shopper, product: Record<string, unknown>, wishlistId: unknown = s.dbId) =>
  api.post("/widget/save", { token: s.accessToken, headers: { "x-widget-token": w.token, origin: w.origin }, body: { wishlistId, product } });

const saved = (w: Widget, s: Shopper) =>
  api.get("/widget/saved-products", { token: s.accessToken, headers: { "x-widget-token": w.token, origin: w.origin } });

const url = () => `https://shop-${Math.random().toString(36).slice(2, 8)}.example.com/products/p`;

describe("POST /widget/save", () => {
  it("saves with the source partner, shop domain and (when siteDomain matches) checkout metadata", async () => {
    const w = await widgetFor("https://shoes.example.com");
    const s = await shopper();
    const matching = await widgetSave(w, s, { url: url(), title: "Boot", metadata: { variantId: 11, quantity: 1 }, siteDomain: "shoes.example.com" });
    expect(matching.status).toBe(200);
    expect(matching.body).toEqual({ ok: true, item_id: expect.any(Number), product_id: expect.any(Number) });
    const foreign = await widgetSave(w, s, { url: url(), title: "Sandal", metadata: { variantId: 12 }, siteDomain: "other.example.com" });
    const res = await saved(w, s);
    expect(res.status).toBe(200);
    const byItem = Object.fromEntries(res.body.products.map((x: any) => [x.item_id, x]));
    expect(byItem[matching.body.item_id]).toMatchObject({
      source_partner_id: w.partner.id,
      source_domain: "shoes.example.com",
      checkoutMeta: { variantId: 11, quantity: 1 },
      variantId: "11",
    });
    expect(byItem[foreign.body.item_id]).toMatchObject({ checkoutMeta: null, variantId: null });
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(res.headers.get("x-usage-month")).not.toBeNull();
  });

  it("answers every save error code", async () => {
    const w = await widgetFor("https://errors.example.com");
    const s = await shopper();
    const other = await shopper();
    expect((await widgetSave(w, s, { url: url() }, null)).body.error).toBe("missing_wishlist");
    expect((await widgetSave(w, s, { title: "no url" })).body.error).toBe("missing_url");
    const foreignList = await widgetSave(w, s, { url: url(), title: "x" }, other.dbId);
    expect(foreignList.status).toBe(403);
    expect(foreignList.body.error).toBe("invalid_wishlist");
    const noUser = await api.post("/widget/save", { headers: { "x-widget-token": w.token }, body: { wishlistId: s.dbId, product: { url: url() } } });
    expect(noUser.status).toBe(401);
    const noWidget = await api.post("/widget/save", { token: s.accessToken, body: { wishlistId: s.dbId, product: { url: url() } } });
    expect(noWidget.status).toBe(403);
    expect(noWidget.body.error).toBe("forbidden");
  });
});

describe("saved-products rules", () => {
  it("filters to the partner, falls back to the domain, and returns everything when the filter is empty", async () => {
    const a = await widgetFor("https://a-shop.example.com");
    const b = await widgetFor("https://b-shop.example.com");
    const s = await shopper();
    const fromA = await widgetSave(a, s, { url: url(), title: "From A" });
    const hosted = await api.post("/hosted/save", { token: s.accessToken, body: { wishlistId: s.dbId, product: { url: url(), title: "Hosted" } } });
    // An item without partner but saved from b's domain counts for b (domain fallback).
    await sql(api.server.databaseUrl, `UPDATE "ListItem" SET "sourceDomain" = 'b-shop.example.com' WHERE id = ?`, [hosted.body.item_id]);

    const forA = await saved(a, s);
    expect(forA.body.products.map((x: any) => x.item_id)).toEqual([fromA.body.item_id]);
    const forB = await saved(b, s);
    expect(forB.body.products.map((x: any) => x.item_id)).toEqual([hosted.body.item_id]);

    const c = await widgetFor("https://c-shop.example.com");
    const forC = await saved(c, s);
    expect(forC.body.products.map((x: any) => x.item_id).sort()).toEqual([fromA.body.item_id, hosted.body.item_id].sort());

    const viaPost = await api.post("/widget/saved-products", { token: s.accessToken, headers: { "x-widget-token": a.token } });
    expect(viaPost.body).toEqual(forA.body);
  });

  it("DELETE removes only items saved from this partner's domain", async () => {
    const a = await widgetFor("https://del-a.example.com");
    const b = await widgetFor("https://del-b.example.com");
    const s = await shopper();
    const fromA = await widgetSave(a, s, { url: url(), title: "A" });
    const fromB = await widgetSave(b, s, { url: url(), title: "B" });
    const del = (w: Widget, itemId: number) =>
      api.delete(`/widget/saved-products/${itemId}`, { token: s.accessToken, headers: { "x-widget-token": w.token } });
    const refused = await del(a, fromB.body.item_id);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe("not_found");
    const ok = await del(a, fromA.body.item_id);
    expect(ok.body).toEqual({ ok: true, deleted: fromA.body.item_id });
    const left = await api.get(`/hosted/lists/${s.listToken}/items`, { token: s.accessToken });
    expect(left.body.products.map((x: any) => x.item_id)).toEqual([fromB.body.item_id]);
  });
});

describe("widget lists and prefetch", () => {
  it("lists the user's lists for the picker; prefetch canonicalises and needs a URL", async () => {
    const w = await widgetFor("https://picker.example.com");
    const s = await shopper();
    const lists = await api.post("/widget/lists", { token: s.accessToken, headers: { "x-widget-token": w.token } });
    expect(lists.body.lists.map((l: any) => l.db_id)).toEqual([s.dbId]);
    const missing = await api.post("/widget/prefetch", { headers: { "x-widget-token": w.token }, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_input");
    // The host is unresolvable here: the scrape fails as a result code, the canonical URL is still given.
    const res = await api.post("/widget/prefetch", {
      headers: { "x-widget-token": w.token },
      body: { url: "https://shop.invalid/products/x?utm_source=a&variant=2" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, canonical_url: "https://shop.invalid/products/x?variant=2", result: { success: false } });
  });
});
