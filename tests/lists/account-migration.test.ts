// Accounts moving between identities (SPEC 4.2, 7.2): an anonymous account
// taken over by a provider-authenticated one, and the internal legacy-account
// routes behind the server-side service key.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, sharedApi, type Api } from "../support/api.ts";
import { failWrites, sql } from "../support/sql.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

type User = Awaited<ReturnType<typeof api.anonymousUser>>;

const password = "a good long password";

async function providerUser(on: Api = api): Promise<User> {
  const res = await on.post("/auth/signup", { body: { email: `mig-${randomBytes(5).toString("hex")}@example.test`, password } });
  expect(res.status).toBe(200);
  return { userId: res.body.user.id, accessToken: res.body.access_token, refreshToken: res.body.refresh_token };
}

async function createList(owner: User, name: string, opts: { public?: boolean } = {}): Promise<string> {
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name } });
  expect(created.status).toBe(200);
  if (opts.public) {
    const shared = await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } });
    expect(shared.status).toBe(200);
  }
  return created.body.token;
}

async function defaultList(user: User): Promise<string> {
  const res = await api.post("/hosted/me/init", { token: user.accessToken });
  expect(res.status).toBe(200);
  return res.body.list.id;
}

async function addItem(user: User, list: string, title: string) {
  const res = await api.post(`/hosted/lists/${list}/items/manual`, { token: user.accessToken, body: { title } });
  expect(res.status).toBe(200);
  return res.body.item.item_id as number;
}

const follow = (user: User, list: string) => api.post(`/hosted/public/lists/${list}/link`, { token: user.accessToken });
const invite = (owner: User, list: string, userId: string) =>
  api.post(`/hosted/lists/${list}/collaborators`, { token: owner.accessToken, body: { userId } });
const migrate = (caller: User, body: unknown, on: Api = api) =>
  on.post("/hosted/migrate-anonymous-to-provider", { token: caller.accessToken, body });

const nothingMoved = { lists: 0, memberships: 0, friendships: 0, items: 0, duplicates: 0, renamed: 0 };

const q = <T = any>(text: string, params: unknown[] = []) => sql<T>(api.server.databaseUrl, text, params);


describe("POST /hosted/migrate-anonymous-to-provider", () => {
  it("moves lists, items, follows and friendships; nothing is lost or duplicated; a retry moves nothing", async () => {
    const friend = await api.anonymousUser();
    const friendsPublic = await createList(friend, "Friend's public list", { public: true });
    const friendsShared = await createList(friend, "Friend's shared list", { public: true });

    const anon = await api.anonymousUser();
    const anonDefault = await defaultList(anon);
    const anonPublic = await createList(anon, "Anon's public list", { public: true });
    await addItem(anon, anonDefault, "Socks");
    await addItem(anon, anonPublic, "Book");
    // anon follows the friend's list (viewer + friends) and is invited as editor on another.
    expect((await follow(anon, friendsPublic)).status).toBe(200);
    expect((await invite(friend, friendsShared, anon.userId)).status).toBe(200);
    await addItem(anon, friendsShared, "Added by anon on a friend's list");

    const provider = await providerUser();
    const providerDefault = await defaultList(provider);
    // The provider user already follows both of the friend's lists and anon's public list.
    expect((await follow(provider, friendsPublic)).status).toBe(200);
    expect((await follow(provider, friendsShared)).status).toBe(200);
    expect((await follow(provider, anonPublic)).status).toBe(200);

    const anonListsBefore = await q<{ id: number; updatedAt: unknown }>(`SELECT id, "updatedAt" FROM "Wishlist" WHERE "ownerId" = ? ORDER BY id`, [anon.userId]);
    // Items the two accounts added (other test files write to the same shared database).
    const itemsOfBoth = () => q<{ n: number }>(`SELECT COUNT(*) AS n FROM "ListItem" WHERE "addedByUserId" IN (?, ?)`, [anon.userId, provider.userId]);
    const itemsBefore = await itemsOfBoth();

    const res = await migrate(provider, { anonymous_access_token: anon.accessToken });
    expect(res.status).toBe(200);
    // Lists: anon's default list is folded into the provider's (1 list moves, not 2). Memberships:
    // friendsShared upgrades the provider's viewer row to editor (1); friendsPublic merges into the
    // provider's equal row (0). Friendships: the provider already is the friend's friend, and anon's
    // friendship with the provider would become a self-friendship, so none are new.
    expect(res.body).toEqual({ ok: true, moved: { lists: 1, memberships: 1, friendships: 0, items: 3, duplicates: 0, renamed: 0 } });

    // Lists: the named list is now the provider's, updated_at kept; one default list (the provider's own), holding anon's Socks.
    const lists = (await api.post("/hosted/lists", { token: provider.accessToken })).body.lists;
    expect(lists.map((l: any) => l.id).sort()).toEqual([providerDefault, anonPublic, friendsShared].sort());
    expect(lists.find((l: any) => l.id === anonPublic)).toMatchObject({ role: "owner", productCount: 1 });
    expect(lists.find((l: any) => l.id === providerDefault)).toMatchObject({ role: "owner", productCount: 1 });
    expect(lists.find((l: any) => l.id === friendsShared)).toMatchObject({ role: "editor" });
    const moved = await q<{ id: number; updatedAt: unknown; defaultKey: string | null; shareToken: string }>(
      `SELECT id, "updatedAt", "defaultKey", "shareToken" FROM "Wishlist" WHERE id IN (${anonListsBefore.map(() => "?").join(",")}) ORDER BY id`,
      anonListsBefore.map((l) => l.id),
    );
    expect(moved.map((l) => l.shareToken)).toEqual([anonPublic]);
    expect(moved.map((l) => l.updatedAt)).toEqual(anonListsBefore.filter((l) => moved.some((m) => m.id === l.id)).map((l) => l.updatedAt));
    expect(moved[0]!.defaultKey).toBeNull();
    const defaults = await q(`SELECT "shareToken" FROM "Wishlist" WHERE "ownerId" = ? AND "defaultKey" = 'default'`, [provider.userId]);
    expect(defaults).toEqual([{ shareToken: providerDefault }]);
    expect(await q(`SELECT id FROM "Wishlist" WHERE "ownerId" = ?`, [anon.userId])).toEqual([]);

    // Memberships: the stronger role wins; none left on the list the provider now owns; none left for anon.
    const memberships = await q<{ shareToken: string; role: string }>(
      `SELECT w."shareToken", m.role FROM "WishlistMember" m JOIN "Wishlist" w ON w.id = m."wishlistId" WHERE m."userId" = ? ORDER BY w."shareToken"`,
      [provider.userId],
    );
    expect(memberships).toEqual(
      [
        { shareToken: friendsPublic, role: "viewer" },
        { shareToken: friendsShared, role: "editor" },
      ].sort((a, b) => (a.shareToken < b.shareToken ? -1 : 1)),
    );
    expect(await q(`SELECT * FROM "WishlistMember" WHERE "userId" = ?`, [anon.userId])).toEqual([]);

    // Friendships: re-pointed, no duplicates, no self-friendship, none left for anon.
    const friendships = await q<{ userId: string; friendId: string }>(
      `SELECT "userId", "friendId" FROM "Friendship" WHERE "userId" IN (?, ?, ?) OR "friendId" IN (?, ?, ?)`,
      [anon.userId, provider.userId, friend.userId, anon.userId, provider.userId, friend.userId],
    );
    expect(friendships).toHaveLength(2);
    expect(friendships).toEqual(
      expect.arrayContaining([
        { userId: provider.userId, friendId: friend.userId },
        { userId: friend.userId, friendId: provider.userId },
      ]),
    );

    // Items: all still there, attributed to the provider; manual products too.
    expect(await itemsOfBoth()).toEqual(itemsBefore);
    expect(await q(`SELECT id FROM "ListItem" WHERE "addedByUserId" = ?`, [anon.userId])).toEqual([]);
    expect(await q(`SELECT id FROM "ListItem" WHERE "addedByUserId" = ?`, [provider.userId])).toHaveLength(3);
    expect(await q(`SELECT id FROM "Product" WHERE "createdByUserId" = ?`, [provider.userId])).toHaveLength(3);

    // The anonymous account is finished: sessions revoked, migratedAt set.
    expect((await api.get("/auth/user", { token: anon.accessToken })).status).toBe(401);
    const refresh = await api.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: anon.refreshToken } });
    expect(refresh.status).toBe(400);
    const [old] = await q<{ migratedAt: unknown }>(`SELECT "migratedAt" FROM "User" WHERE id = ?`, [anon.userId]);
    expect(old.migratedAt).not.toBeNull();

    // The new owner can work with the moved lists.
    expect((await api.get(`/hosted/lists/${anonPublic}/items`, { token: provider.accessToken })).status).toBe(200);

    // Retry: answers ok, moves nothing, changes nothing.
    const retry = await migrate(provider, { anonymousAccessToken: anon.accessToken });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ok: true, moved: nothingMoved });
    const [oldAgain] = await q<{ migratedAt: unknown }>(`SELECT "migratedAt" FROM "User" WHERE id = ?`, [anon.userId]);
    expect(oldAgain.migratedAt).toEqual(old.migratedAt);
    expect((await api.post("/hosted/lists", { token: provider.accessToken })).body.lists).toEqual(
      (await api.post("/hosted/lists", { token: provider.accessToken })).body.lists,
    );
  });

  it("re-points memberships the provider does not have and keeps the anonymous default list when the provider has none", async () => {
    const owner = await api.anonymousUser();
    const ownerList = await createList(owner, "Owner's list", { public: true });
    const anon = await api.anonymousUser();
    const anonDefault = await defaultList(anon);
    expect((await follow(anon, ownerList)).status).toBe(200);

    const provider = await providerUser();
    const res = await migrate(provider, { anonymous_access_token: anon.accessToken });
    expect(res.body).toEqual({ ok: true, moved: { lists: 1, memberships: 1, friendships: 1, items: 0, duplicates: 0, renamed: 0 } });

    const [row] = await q(`SELECT "defaultKey" FROM "Wishlist" WHERE "shareToken" = ?`, [anonDefault]);
    expect(row.defaultKey).toBe("default");
    // /hosted/me/init finds the moved default list instead of creating another.
    const init = await api.post("/hosted/me/init", { token: provider.accessToken });
    expect(init.body.list.id).toBe(anonDefault);
    const members = await q(`SELECT role FROM "WishlistMember" WHERE "userId" = ?`, [provider.userId]);
    expect(members).toEqual([{ role: "viewer" }]);
  });

  it("concurrent duplicate requests both answer ok and move everything exactly once", async () => {
    const anon = await api.anonymousUser();
    await createList(anon, "One");
    await createList(anon, "Two");
    const provider = await providerUser();
    const results = await Promise.all([1, 2, 3].map(() => migrate(provider, { anonymous_access_token: anon.accessToken })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.reduce((sum, r) => sum + r.body.moved.lists, 0)).toBe(2);
    expect(await q(`SELECT id FROM "Wishlist" WHERE "ownerId" = ?`, [provider.userId])).toHaveLength(2);
  });

  it("migrating yourself answers ok and moves nothing", async () => {
    const anon = await api.anonymousUser();
    await createList(anon, "Mine");
    const res = await migrate(anon, { anonymous_access_token: anon.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, moved: nothingMoved });
    expect(await q(`SELECT "migratedAt" FROM "User" WHERE id = ?`, [anon.userId])).toEqual([{ migratedAt: null }]);
  });

  it("a missing token gives 400 missing_data", async () => {
    const provider = await providerUser();
    for (const body of [{}, { anonymous_access_token: "" }, { anonymous_access_token: 7 }, undefined]) {
      const res = await migrate(provider, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("missing_data");
    }
  });

  it("an invalid anonymous token, or no caller token, gives 401 unauthorized", async () => {
    const provider = await providerUser();
    const bad = await migrate(provider, { anonymous_access_token: "not-a-token" });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe("unauthorized");
    const anon = await api.anonymousUser();
    const noCaller = await api.post("/hosted/migrate-anonymous-to-provider", { body: { anonymous_access_token: anon.accessToken } });
    expect(noCaller.status).toBe(401);
    expect(noCaller.body.error).toBe("unauthorized");
  });

  it("a source account that is not anonymous gives 400 old_user_not_anonymous", async () => {
    const provider = await providerUser();
    const other = await providerUser();
    await createList(other, "Not yours");
    const res = await migrate(provider, { anonymous_access_token: other.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("old_user_not_anonymous");
    expect(await q(`SELECT id FROM "Wishlist" WHERE "ownerId" = ?`, [other.userId])).toHaveLength(1);
  });

  it("a deleted anonymous user gives 404 old_user_not_found", async () => {
    const provider = await providerUser();
    const anon = await api.anonymousUser();
    await q(`DELETE FROM "User" WHERE id = ?`, [anon.userId]);
    const res = await migrate(provider, { anonymous_access_token: anon.accessToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("old_user_not_found");
  });

  it("a failure gives 500 migration_failed and moves nothing (one transaction)", async () => {
    const anon = await api.anonymousUser();
    const list = await createList(anon, "Stays put");
    await addItem(anon, list, "Item");
    const owner = await api.anonymousUser();
    expect((await follow(anon, await createList(owner, "Followed", { public: true }))).status).toBe(200);
    const provider = await providerUser();
    await failWrites(api.server.databaseUrl, "AuthSession", "UPDATE", "userId", anon.userId);

    const res = await migrate(provider, { anonymous_access_token: anon.accessToken });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("migration_failed");
    expect(await q(`SELECT id FROM "Wishlist" WHERE "ownerId" = ?`, [anon.userId])).toHaveLength(1);
    expect(await q(`SELECT id FROM "ListItem" WHERE "addedByUserId" = ?`, [anon.userId])).toHaveLength(1);
    expect(await q(`SELECT role FROM "WishlistMember" WHERE "userId" = ?`, [anon.userId])).toEqual([{ role: "viewer" }]);
    expect(await q(`SELECT "userId" FROM "Friendship" WHERE "userId" = ? OR "friendId" = ?`, [anon.userId, anon.userId])).toHaveLength(2);
    expect(await q(`SELECT "migratedAt" FROM "User" WHERE id = ?`, [anon.userId])).toEqual([{ migratedAt: null }]);
    expect((await api.get("/auth/user", { token: anon.accessToken })).status).toBe(200);
  });
});

describe("merging into an account that has lists (docs/identity.md, Joins and merges)", () => {
  const productUrl = (name: string) => `https://merge-${randomBytes(4).toString("hex")}.example.com/products/${name}`;
  const saveUrl = async (user: User, wishlistId: number, url: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId, product: { url, title: url.split("/").pop(), ...extra } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { itemId: res.body.item_id as number, productId: res.body.product_id as number };
  };
  const init = async (user: User) => (await api.post("/hosted/me/init", { token: user.accessToken })).body.list as { id: string; db_id: number; name: string };
  const listsOf = (userId: string) =>
    q<{ id: number; name: string; defaultKey: string | null }>(`SELECT id, name, "defaultKey" FROM "Wishlist" WHERE "ownerId" = ? ORDER BY id`, [userId]);
  const itemsOf = (userId: string) =>
    q<{ id: number; wishlistId: number; productId: number }>(
      `SELECT i.id, i."wishlistId", i."productId" FROM "ListItem" i JOIN "Wishlist" w ON w.id = i."wishlistId" WHERE w."ownerId" = ? ORDER BY i.id`,
      [userId],
    );
  /** One default list, and (as these accounts save each product to one list only) no product twice in the account. */
  async function expectNoDuplicates(userId: string) {
    const lists = await listsOf(userId);
    expect(lists.filter((l) => l.defaultKey === "default")).toHaveLength(1);
    const products = (await itemsOf(userId)).map((i) => i.productId);
    expect(new Set(products).size).toBe(products.length);
  }

  it("guest → new account: the guest's default list becomes the account's, nothing doubles", async () => {
    const guest = await api.anonymousUser();
    const guestDefault = await init(guest);
    await saveUrl(guest, guestDefault.db_id, productUrl("kettle"));
    const account = await providerUser();
    const res = await migrate(account, { anonymous_access_token: guest.accessToken });
    expect(res.body).toEqual({ ok: true, moved: { lists: 1, memberships: 0, friendships: 0, items: 1, duplicates: 0, renamed: 0 } });
    expect(await listsOf(account.userId)).toEqual([{ id: guestDefault.db_id, name: guestDefault.name, defaultKey: "default" }]);
    expect((await init(account)).id).toBe(guestDefault.id);
    await expectNoDuplicates(account.userId);
  });

  it("guest → existing account with the same products: one default list, one item per product with the stronger facts, references re-pointed", async () => {
    const [kettle, lamp, mug, book] = ["kettle", "lamp", "mug", "book"].map(productUrl);
    // The guest saves first, so its kettle has the earlier added date.
    const guest = await api.anonymousUser();
    const guestDefault = await init(guest);
    const guestKettle = await saveUrl(guest, guestDefault.db_id, kettle!, { priority: 1, metadata: { variantId: 4711, quantity: 2 } });
    await saveUrl(guest, guestDefault.db_id, mug!);
    const guestBirthday = await createList(guest, "Birthday");
    const guestBirthdayId = (await q<{ id: number }>(`SELECT id FROM "Wishlist" WHERE "shareToken" = ?`, [guestBirthday]))[0]!.id;
    await saveUrl(guest, guestBirthdayId, book!);
    const bought = await api.put(`/hosted/lists/${guestDefault.id}/items/${guestKettle.itemId}`, { token: guest.accessToken, body: { purchased: true } });
    expect(bought.status).toBe(200);

    const account = await providerUser();
    const accountDefault = await init(account);
    const accountKettle = await saveUrl(account, accountDefault.db_id, kettle!, { priority: 3 });
    await saveUrl(account, accountDefault.db_id, lamp!);
    await createList(account, "Birthday");
    expect(accountKettle.productId).toBe(guestKettle.productId);

    // What refers to the guest's kettle: an order's confirmation (one order confirmed both items), an alert.
    const order = `order-${randomBytes(4).toString("hex")}`;
    for (const itemId of [guestKettle.itemId, accountKettle.itemId]) {
      await q(`INSERT INTO "PurchaseConfirmation" ("shopDomain", "listItemId", "orderId") VALUES (?, ?, ?)`, ["merge.example.com", itemId, order]);
    }
    await q(`INSERT INTO "PurchaseConfirmation" ("shopDomain", "listItemId", "orderId") VALUES (?, ?, ?)`, ["merge.example.com", guestKettle.itemId, `${order}-2`]);
    await q(`INSERT INTO "AlertSent" ("dedupKey", "userId", "listItemId", "kind", "title") VALUES (?, ?, ?, ?, ?)`, [
      `merge-${order}`, guest.userId, guestKettle.itemId, "price_drop", "Kettle",
    ]);
    const [before] = await q<{ addedAt: unknown; purchasedAt: unknown }>(`SELECT "addedAt", "purchasedAt" FROM "ListItem" WHERE id = ?`, [guestKettle.itemId]);

    const res = await migrate(account, { anonymous_access_token: guest.accessToken });
    expect(res.status).toBe(200);
    // Birthday moves (renamed); the guest's default folds into the account's; its kettle is a duplicate.
    expect(res.body.moved).toMatchObject({ lists: 1, duplicates: 1, renamed: 1 });

    const lists = await listsOf(account.userId);
    expect(lists.map((l) => [l.name, l.defaultKey]).sort()).toEqual([
      [accountDefault.name, "default"],
      ["Birthday", null],
      ["Birthday (2)", null],
    ].sort());
    expect(lists.find((l) => l.name === "Birthday (2)")!.id).toBe(guestBirthdayId);
    expect(await q(`SELECT id FROM "Wishlist" WHERE id = ?`, [guestDefault.db_id])).toEqual([]);
    await expectNoDuplicates(account.userId);

    // The default list: kettle once (the account's item), lamp, mug.
    const items = await api.get(`/hosted/lists/${accountDefault.id}/items`, { token: account.accessToken });
    const urls = (items.body.products as Array<{ affiliateUrl: string }>).map((p) => p.affiliateUrl).sort();
    expect(urls).toEqual([kettle, lamp, mug].sort());
    const [kept] = await q<{ id: number; addedAt: unknown; priority: number; purchased: unknown; purchasedAt: unknown; variantId: string | null; addedByUserId: string }>(
      `SELECT id, "addedAt", priority, purchased, "purchasedAt", "variantId", "addedByUserId" FROM "ListItem" WHERE "wishlistId" = ? AND "productId" = ?`,
      [accountDefault.db_id, accountKettle.productId],
    );
    expect(kept).toMatchObject({ id: accountKettle.itemId, addedAt: before!.addedAt, priority: 1, purchasedAt: before!.purchasedAt, variantId: "4711", addedByUserId: account.userId });
    expect(Boolean(kept!.purchased)).toBe(true);
    expect(await q(`SELECT id FROM "ListItem" WHERE id = ?`, [guestKettle.itemId])).toEqual([]);
    // Nothing that named the guest's kettle is lost: it names the kept item now, one confirmation per order.
    const confirmations = await q<{ orderId: string }>(`SELECT "orderId" FROM "PurchaseConfirmation" WHERE "listItemId" = ? ORDER BY "orderId"`, [accountKettle.itemId]);
    expect(confirmations.map((c) => c.orderId)).toEqual([order, `${order}-2`]);
    expect(await q(`SELECT "listItemId" FROM "AlertSent" WHERE "dedupKey" = ?`, [`merge-${order}`])).toEqual([{ listItemId: accountKettle.itemId }]);

    // A retry moves nothing and changes nothing.
    const listsBefore = await listsOf(account.userId);
    const itemsBefore = await itemsOf(account.userId);
    expect((await migrate(account, { anonymous_access_token: guest.accessToken })).body).toEqual({ ok: true, moved: nothingMoved });
    expect(await listsOf(account.userId)).toEqual(listsBefore);
    expect(await itemsOf(account.userId)).toEqual(itemsBefore);
  });

  it("a second device's guest → the same account, asked twice at once and again: each product once, one default list", async () => {
    const [scarf, hat] = ["scarf", "hat"].map(productUrl);
    const account = await providerUser();
    const accountDefault = await init(account);
    await saveUrl(account, accountDefault.db_id, scarf!);
    // The first device's guest was merged before; the second device's guest saved the same scarf and a hat.
    const first = await api.anonymousUser();
    await saveUrl(first, (await init(first)).db_id, scarf!);
    expect((await migrate(account, { anonymous_access_token: first.accessToken })).body.moved).toMatchObject({ lists: 0, duplicates: 1 });
    const second = await api.anonymousUser();
    const secondDefault = await init(second);
    await saveUrl(second, secondDefault.db_id, scarf!);
    await saveUrl(second, secondDefault.db_id, hat!);

    const results = await Promise.all([1, 2].map(() => migrate(account, { anonymous_access_token: second.accessToken })));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.reduce((sum, r) => sum + r.body.moved.duplicates, 0)).toBe(1);
    expect(results.reduce((sum, r) => sum + r.body.moved.items, 0)).toBe(1); // the hat; the folded scarf is gone
    expect((await migrate(account, { anonymous_access_token: second.accessToken })).body).toEqual({ ok: true, moved: nothingMoved });

    expect(await listsOf(account.userId)).toEqual([{ id: accountDefault.db_id, name: accountDefault.name, defaultKey: "default" }]);
    const items = await api.get(`/hosted/lists/${accountDefault.id}/items`, { token: account.accessToken });
    expect((items.body.products as Array<{ affiliateUrl: string }>).map((p) => p.affiliateUrl).sort()).toEqual([hat, scarf].sort());
    await expectNoDuplicates(account.userId);
  });
});

describe("internal legacy-account routes", () => {
  const serviceKey = `svc_${randomBytes(24).toString("hex")}`;
  let server: InProcessServer;
  let internal: Api;
  const call = (path: string, body: unknown, key: string | null = serviceKey) =>
    internal.post(path, { body, noApiKey: true, headers: key === null ? {} : { "x-service-key": key } });
  const legacyId = () => `legacy-${randomBytes(6).toString("hex")}`;

  beforeAll(async () => {
    server = await startInProcess({ SERVICE_KEY: serviceKey });
    internal = await apiFor(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const routes = ["/hosted/create-anonymous-user", "/hosted/login-legacy-temp-user", "/hosted/migrate-legacy-maui-user"];

  it.each(routes)("%s answers 401 without the key, with a wrong key, and with the anon key or a user token only", async (path) => {
    const user = await internal.anonymousUser();
    const attempts = [
      await call(path, { legacy_id: "x", identifier: "x" }, null),
      await call(path, { legacy_id: "x", identifier: "x" }, "wrong"),
      await call(path, { legacy_id: "x", identifier: "x" }, serviceKey.slice(0, -1) + (serviceKey.endsWith("0") ? "1" : "0")),
      await internal.post(path, { body: { legacy_id: "x", identifier: "x" }, token: user.accessToken }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
  });

  it.each(routes)("%s is closed on a server without SERVICE_KEY, whatever key is sent", async (path) => {
    const res = await api.post(path, { body: { legacy_id: "x", identifier: "x" }, headers: { "x-service-key": serviceKey } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("create-anonymous-user creates an anonymous user for a legacy id, and reuses it on repeat", async () => {
    const id = legacyId();
    const first = await call("/hosted/create-anonymous-user", { legacy_id: id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ok: true,
      user_id: expect.any(String),
      session: { access_token: expect.any(String), token_type: "bearer", refresh_token: expect.any(String), user: { is_anonymous: true } },
    });
    expect(first.body.session.user.id).toBe(first.body.user_id);
    const me = await internal.get("/auth/user", { token: first.body.session.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: first.body.user_id, is_anonymous: true });

    const second = await call("/hosted/create-anonymous-user", { legacyId: id });
    expect(second.status).toBe(200);
    expect(second.body.user_id).toBe(first.body.user_id);
    expect(second.body.session.refresh_token).not.toBe(first.body.session.refresh_token);
    const users = await sql(server.databaseUrl, `SELECT id, "isAnonymous" FROM "User" WHERE "legacyId" = ?`, [id]);
    expect(users).toHaveLength(1);
  });

  it("create-anonymous-user without legacy_id gives 400 missing_data", async () => {
    for (const body of [{}, { legacy_id: "" }, { legacy_id: 5 }, undefined]) {
      const res = await call("/hosted/create-anonymous-user", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("missing_data");
    }
  });

  it("create-anonymous-user gives 500 db_insert_failed when the user cannot be written", async () => {
    const id = legacyId();
    await failWrites(server.databaseUrl, "User", "INSERT", "legacyId", id);
    const res = await call("/hosted/create-anonymous-user", { legacy_id: id });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("db_insert_failed");
  });

  it("login-legacy-temp-user signs in the legacy user; errors missing_identifier, no_legacy_user, auth_failed", async () => {
    const id = legacyId();
    const created = await call("/hosted/create-anonymous-user", { legacy_id: id });
    const login = await call("/hosted/login-legacy-temp-user", { identifier: id });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ ok: true, user_id: created.body.user_id, session: { access_token: expect.any(String) } });
    expect((await internal.get("/auth/user", { token: login.body.session.access_token })).body.id).toBe(created.body.user_id);

    const missing = await call("/hosted/login-legacy-temp-user", {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("missing_identifier");
    const unknown = await call("/hosted/login-legacy-temp-user", { identifier: legacyId() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("no_legacy_user");

    await failWrites(server.databaseUrl, "AuthSession", "INSERT", "userId", created.body.user_id);
    const failing = await call("/hosted/login-legacy-temp-user", { identifier: id });
    expect(failing.status).toBe(500);
    expect(failing.body.error).toBe("auth_failed");
  });

  it("migrate-legacy-maui-user (deprecated) flags the user once; errors missing_data, no_legacy_user, flag_update_failed", async () => {
    const id = legacyId();
    const created = await call("/hosted/create-anonymous-user", { legacy_id: id });
    const res = await call("/hosted/migrate-legacy-maui-user", { identifier: id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deprecated: true });
    expect(res.headers.get("deprecation")).toBe("true");
    const [row] = await sql<{ migratedAt: unknown }>(server.databaseUrl, `SELECT "migratedAt" FROM "User" WHERE id = ?`, [created.body.user_id]);
    expect(row.migratedAt).not.toBeNull();
    const again = await call("/hosted/migrate-legacy-maui-user", { identifier: id });
    expect(again.status).toBe(200);
    expect(await sql(server.databaseUrl, `SELECT "migratedAt" FROM "User" WHERE id = ?`, [created.body.user_id])).toEqual([row]);

    const missing = await call("/hosted/migrate-legacy-maui-user", { legacy_id: id });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("missing_data");
    const unknown = await call("/hosted/migrate-legacy-maui-user", { identifier: legacyId() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("no_legacy_user");

    const other = legacyId();
    await call("/hosted/create-anonymous-user", { legacy_id: other });
    await failWrites(server.databaseUrl, "User", "UPDATE", "legacyId", other);
    const failing = await call("/hosted/migrate-legacy-maui-user", { identifier: other });
    expect(failing.status).toBe(500);
    expect(failing.body.error).toBe("flag_update_failed");
  });

  it("a legacy user's anonymous account can then move to a provider account", async () => {
    const created = await call("/hosted/create-anonymous-user", { legacy_id: legacyId() });
    const anonToken = created.body.session.access_token;
    const list = await internal.post("/hosted/me/lists", { token: anonToken, body: { name: "From the old app" } });
    expect(list.status).toBe(200);
    const provider = await providerUser(internal);
    const res = await migrate(provider, { anonymous_access_token: anonToken }, internal);
    expect(res.status).toBe(200);
    expect(res.body.moved.lists).toBe(1);
    const lists = (await internal.post("/hosted/lists", { token: provider.accessToken })).body.lists;
    expect(lists.map((l: any) => l.id)).toContain(list.body.token);
  });
});
