// Hosted lists and the public share routes (SPEC 4.2, 4.3, section 3).
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

type User = Awaited<ReturnType<typeof api.anonymousUser>>;

async function newList(user: User, name = "Birthday") {
  const res = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name, description: "Things I like" } });
  expect(res.status).toBe(200);
  return res.body as { ok: true; list: any; token: string };
}

async function dbIdOf(user: User, token: string): Promise<number> {
  const res = await api.post("/hosted/lists", { token: user.accessToken });
  return res.body.lists.find((l: any) => l.id === token).db_id;
}

async function save(user: User, wishlistId: number, product: Record<string, unknown>) {
  return api.post("/hosted/save", { token: user.accessToken, body: { wishlistId, product } });
}

const product = (n: number | string, extra: Record<string, unknown> = {}) => ({
  url: `https://shop.example.com/products/item-${n}`,
  title: `Item ${n}`,
  description: `Description ${n}`,
  price: 1999,
  currency: "EUR",
  marketCode: "de-DE",
  ...extra,
});

async function addMember(token: string, userId: string, role: "editor" | "viewer") {
  const [list] = await sql<{ id: number }>(api.server.databaseUrl, `SELECT id FROM "Wishlist" WHERE "shareToken" = ?`, [token]);
  await sql(api.server.databaseUrl, `INSERT INTO "WishlistMember" ("wishlistId", "userId", "role") VALUES (?, ?, ?)`, [list.id, userId, role]);
}

describe("the typical flow of SPEC 4.2", () => {
  it("create, read db_id, save, share, read publicly, mark purchased, unshare → 404", async () => {
    const owner = await api.anonymousUser();
    const { token, list } = await newList(owner);
    expect(token).toBe(list.id);
    const dbId = await dbIdOf(owner, token);
    expect(dbId).toBe(list.db_id);

    const saved = await save(owner, dbId, product("flow"));
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ok: true, item_id: expect.any(Number), product_id: expect.any(Number) });

    // Private: the public routes do not know it.
    expect((await api.get(`/hosted/public/lists/${token}`, { noApiKey: true })).status).toBe(404);

    const shared = await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: true } });
    expect(shared.status).toBe(200);
    expect(shared.body.list.share_public).toBe(true);

    const pub = await api.get(`/hosted/public/lists/${token}?lang=de`, { noApiKey: true });
    expect(pub.status).toBe(200);
    expect(pub.body.list).toMatchObject({ id: token, internal_id: dbId, name: "Birthday", share_public: true, productCount: 1 });
    expect(Object.keys(pub.body.list).sort()).toEqual(
      [
        "id", "internal_id", "name", "description", "image_path", "share_public", "created_at", "updated_at",
        "occasion_slug", "occasion_title", "productCount", "owner_username", "owner_avatar", "owner_is_premium",
      ].sort(),
    );

    const items = await api.get(`/hosted/public/lists/${token}/items`, { noApiKey: true });
    expect(items.status).toBe(200);
    expect(items.body.products).toHaveLength(1);
    const item = items.body.products[0];
    expect(item).toMatchObject({ item_id: saved.body.item_id, id: saved.body.product_id, purchased: false, title: "Item flow", price_minor: 1999, currency: "EUR" });

    const bought = await api.put(`/hosted/public/lists/${token}/items/${item.item_id}/purchased`, { noApiKey: true, body: { purchased: true } });
    expect(bought.status).toBe(200);
    expect(bought.body).toEqual({ ok: true, purchased: true });
    const ownerView = await api.get(`/hosted/lists/${token}/items`, { token: owner.accessToken });
    expect(ownerView.body.products[0].purchased).toBe(true);
    const publicView = await api.get(`/hosted/public/lists/${token}/items`, { noApiKey: true });
    expect(publicView.body.products[0].purchased).toBe(true);

    const reverted = await api.put(`/hosted/public/lists/${token}/items/${item.item_id}/purchased`, { noApiKey: true, body: { purchased: false } });
    expect(reverted.body).toEqual({ ok: true, purchased: false });

    await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: false } });
    for (const path of [`/hosted/public/lists/${token}`, `/hosted/public/lists/${token}/items`]) {
      const res = await api.get(path, { noApiKey: true });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    const put = await api.put(`/hosted/public/lists/${token}/items/${item.item_id}/purchased`, { noApiKey: true, body: { purchased: true } });
    expect(put.status).toBe(404);
  });
});

describe("HostedList fields and ordering", () => {
  it("has every SPEC 2.1 field from real data, sorted by updated_at descending", async () => {
    const owner = await api.anonymousUser();
    const a = await newList(owner, "A");
    const b = await newList(owner, "B");
    // Saving into A makes it the most recently updated.
    await save(owner, a.list.db_id, product("order"));
    const res = await api.post("/hosted/lists", { token: owner.accessToken });
    expect(res.body.lists.map((l: any) => l.name)).toEqual(["A", "B"]);
    expect(res.body.lists[0]).toEqual({
      id: a.token,
      db_id: a.list.db_id,
      name: "A",
      description: "Things I like",
      image_path: "",
      share_public: false,
      occasion_slug: "",
      productCount: 1,
      collaboratorCount: 0,
      is_shared: false,
      role: "owner",
      owner_id: owner.userId,
      owner_name: expect.any(String),
      owner_avatar: null,
      updated_at: expect.any(String),
    });
    void b;
  });

  it("includes lists the user edits (role editor) but not lists they only follow", async () => {
    const owner = await api.anonymousUser();
    const editor = await api.anonymousUser();
    const edited = await newList(owner, "Edited");
    const followed = await newList(owner, "Followed");
    await addMember(edited.token, editor.userId, "editor");
    await addMember(followed.token, editor.userId, "viewer");
    const res = await api.post("/hosted/lists", { token: editor.accessToken });
    expect(res.body.lists.map((l: any) => [l.name, l.role])).toEqual([["Edited", "editor"]]);
    const ownerLists = await api.post("/hosted/lists", { token: owner.accessToken });
    expect(ownerLists.body.lists.find((l: any) => l.name === "Edited")).toMatchObject({ collaboratorCount: 1, is_shared: true });
  });
});

describe("list routes", () => {
  it("create needs a name", async () => {
    const user = await api.anonymousUser();
    for (const body of [{}, { name: "" }, { name: "   " }, { description: "x" }]) {
      const res = await api.post("/hosted/me/lists", { token: user.accessToken, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("missing_name");
    }
  });

  it("all list routes need a user token", async () => {
    for (const [method, path] of [
      ["POST", "/hosted/lists"], ["POST", "/hosted/me/lists"], ["POST", "/hosted/me/init"], ["GET", "/hosted/lists/x"],
      ["PUT", "/hosted/lists/x"], ["DELETE", "/hosted/lists/x"], ["GET", "/hosted/lists/x/items"], ["POST", "/hosted/save"],
      ["POST", "/hosted/saved-products"], ["PUT", "/hosted/lists/x/items/1/purchased"],
    ]) {
      const res = await api.request(method, path, { body: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
  });

  it("GET returns metadata with a localized occasion title; PUT updates name (alias title), description, image and occasion", async () => {
    const owner = await api.anonymousUser();
    const { token } = await newList(owner);
    const put = await api.put(`/hosted/lists/${token}`, {
      token: owner.accessToken,
      body: { title: "Wedding gifts", description: "For us", image_path: "/media/images/cover1.jpg", occasion_slug: "wedding" },
    });
    expect(put.status).toBe(200);
    expect(put.body.list).toMatchObject({ name: "Wedding gifts", description: "For us", image_path: "/media/images/cover1.jpg", occasion_slug: "wedding" });
    const de = await api.get(`/hosted/lists/${token}?lang=de`, { token: owner.accessToken });
    expect(de.body.list).toMatchObject({ name: "Wedding gifts", occasion_title: "Hochzeit", role: "owner" });
    const en = await api.get(`/hosted/lists/${token}?market=en-US`, { token: owner.accessToken });
    expect(en.body.list.occasion_title).toBe("Wedding");
    const bad = await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { occasion_slug: "nope" } });
    expect(bad.status).toBe(400);
    const notBool = await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: "yes" } });
    expect(notBool.status).toBe(400);
    expect(notBool.body.error).toBe("invalid_input");
  });

  it("an unknown token gives 404 not_found", async () => {
    const user = await api.anonymousUser();
    const res = await api.get("/hosted/lists/doesnotexist", { token: user.accessToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });

  it("DELETE removes the list and its items and nothing of other lists", async () => {
    const owner = await api.anonymousUser();
    const doomed = await newList(owner, "Doomed");
    const kept = await newList(owner, "Kept");
    await save(owner, doomed.list.db_id, product("shared-product"));
    await save(owner, kept.list.db_id, product("shared-product"));
    const del = await api.delete(`/hosted/lists/${doomed.token}`, { token: owner.accessToken });
    expect(del.status).toBe(200);
    expect(del.body.ok).toBe(true);
    expect((await api.get(`/hosted/lists/${doomed.token}`, { token: owner.accessToken })).status).toBe(404);
    const [{ n }] = await sql<{ n: number }>(api.server.databaseUrl, `SELECT COUNT(*) AS n FROM "ListItem" WHERE "wishlistId" = ?`, [doomed.list.db_id]);
    expect(Number(n)).toBe(0);
    const keptItems = await api.get(`/hosted/lists/${kept.token}/items`, { token: owner.accessToken });
    expect(keptItems.body.products).toHaveLength(1);
  });

  it("me/init creates one default list, also under concurrent calls", async () => {
    const user = await api.anonymousUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => api.post("/hosted/me/init?lang=de", { token: user.accessToken })));
    const ids = new Set(results.map((r) => r.body.list.id));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(ids.size).toBe(1);
    expect(results[0].body.list).toMatchObject({ name: "Meine Wunschliste", role: "owner" });
    expect(results[0].body.user).toEqual({ id: user.userId, is_anonymous: true });
  });

  it("occasions are seeded with German and English titles and need no auth", async () => {
    const res = await api.get("/hosted/occasions?lang=de", { noApiKey: true });
    expect(res.status).toBe(200);
    const slugs = res.body.occasions.map((o: any) => o.slug);
    expect(slugs).toEqual(expect.arrayContaining(["birthday", "wedding", "baby", "christmas"]));
    expect(res.body.occasions.find((o: any) => o.slug === "christmas")).toMatchObject({ title: "Weihnachten", titles: { de: "Weihnachten", en: "Christmas" } });
  });
});

describe("roles (SPEC 5 rule 8)", () => {
  it("owner, editor, viewer and stranger get what their role allows", async () => {
    const owner = await api.anonymousUser();
    const editor = await api.anonymousUser();
    const viewer = await api.anonymousUser();
    const stranger = await api.anonymousUser();
    const { token, list } = await newList(owner);
    await addMember(token, editor.userId, "editor");
    await addMember(token, viewer.userId, "viewer");
    const saved = await save(owner, list.db_id, product("roles"));
    const itemId = saved.body.item_id;

    // Read metadata and items: owner and editor.
    for (const [user, status] of [[owner, 200], [editor, 200], [viewer, 403], [stranger, 403]] as const) {
      expect((await api.get(`/hosted/lists/${token}`, { token: user.accessToken })).status).toBe(status);
      const items = await api.get(`/hosted/lists/${token}/items`, { token: user.accessToken });
      expect(items.status).toBe(status);
      if (status === 403) expect(items.body.error).toBe("forbidden");
    }
    // Change items: owner and editor.
    for (const [user, status] of [[editor, 200], [viewer, 403], [stranger, 403]] as const) {
      const res = await api.put(`/hosted/lists/${token}/items/${itemId}/purchased`, { token: user.accessToken, body: { purchased: true } });
      expect(res.status).toBe(status);
      const saveRes = await save(user, list.db_id, product(`by-${status}`));
      expect(saveRes.status).toBe(status === 200 ? 200 : 403);
      if (status !== 200) expect(saveRes.body.error).toBe("invalid_wishlist");
    }
    // Update and delete the list: owner only.
    for (const user of [editor, viewer, stranger]) {
      const put = await api.put(`/hosted/lists/${token}`, { token: user.accessToken, body: { name: "Mine now" } });
      expect(put.status).toBe(403);
      expect(put.body.error).toBe("forbidden");
      expect((await api.delete(`/hosted/lists/${token}`, { token: user.accessToken })).status).toBe(403);
    }
    const still = await api.get(`/hosted/lists/${token}`, { token: owner.accessToken });
    expect(still.body.list.name).toBe("Birthday");
  });
});

describe("purchased flag (SPEC section 3)", () => {
  it("validates the body and the item", async () => {
    const owner = await api.anonymousUser();
    const { token, list } = await newList(owner);
    await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: true } });
    const saved = await save(owner, list.db_id, product("flag"));
    const bad = await api.put(`/hosted/public/lists/${token}/items/${saved.body.item_id}/purchased`, { noApiKey: true, body: { purchased: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_input");
    // An item of another list is not reachable through this list's token.
    const other = await newList(owner, "Other");
    const otherItem = await save(owner, other.list.db_id, product("elsewhere"));
    const wrong = await api.put(`/hosted/public/lists/${token}/items/${otherItem.body.item_id}/purchased`, { noApiKey: true, body: { purchased: true } });
    expect(wrong.status).toBe(404);
    const owned = await api.put(`/hosted/lists/${token}/items/${saved.body.item_id}/purchased`, { token: owner.accessToken, body: { purchased: true } });
    expect(owned.body).toEqual({ ok: true, purchased: true });
  });
});
