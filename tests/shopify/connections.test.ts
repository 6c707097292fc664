// The API behind the join confirmation and "Connected shops" (docs/api.md,
// docs/identity.md "Joins and merges"), in-process with Shopify on and the
// fake Admin API behind the library's fetch hook:
// POST /hosted/link-shop-customer/preview names the store, the customer's
// masked e-mail and what would move, and joins nothing; a join records the
// shop's consent; GET /hosted/me/connections lists joins and consents;
// DELETE /hosted/me/connections/{partnerId} ends both, the customer gets a
// fresh store account and an emptied metafield mirror, the items stay. Every
// error code of the new routes, and the OpenAPI document lists them.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { FakeAdminApi, type FakeShop } from "../support/shopify.ts";

let server: InProcessServer;
let api: Api;
const admin = new FakeAdminApi();
let db: Awaited<typeof import("~/db.server")>["db"];
let app: {
  linkOffer: typeof import("~/flows/account-link.server")["linkOffer"];
  shopperOfCustomer: typeof import("~/domains/shop-customers/shop-customers.server")["shopperOfCustomer"];
  saveProduct: typeof import("~/domains/lists/save.server")["saveProduct"];
  createPartner: typeof import("~/domains/partners/partners.server")["createPartner"];
  createPlatformShop: typeof import("~/domains/shops/shops.server")["createPlatformShop"];
};

beforeAll(async () => {
  server = await startInProcess({ SHOPIFY_API_KEY: "test-client-id", SHOPIFY_API_SECRET: "shpss_connections", OUTBOX_POLL_MS: "100" });
  api = await apiFor(server);
  // After shopify.server is loaded (its node adapter captures fetch at import): the fake Admin API.
  await import("~/shopify.server");
  const { setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
  setAbstractFetchFunc(async (input, init) => admin.handle(String(input), (init ?? {}) as { body?: unknown }));
  ({ db } = await import("~/db.server"));
  app = {
    linkOffer: (await import("~/flows/account-link.server")).linkOffer,
    shopperOfCustomer: (await import("~/domains/shop-customers/shop-customers.server")).shopperOfCustomer,
    saveProduct: (await import("~/domains/lists/save.server")).saveProduct,
    createPartner: (await import("~/domains/partners/partners.server")).createPartner,
    createPlatformShop: (await import("~/domains/shops/shops.server")).createPlatformShop,
  };
});
afterAll(async () => {
  await server?.stop();
});

const rand = () => randomBytes(4).toString("hex");

async function newStore(name: string) {
  const partner = await app.createPartner({ name, email: "owner@store.example" });
  const domain = `conn-${rand()}.myshopify.com`;
  const host = `${name.toLowerCase().replace(/\W+/g, "-")}-${rand()}.example`;
  const created = await app.createPlatformShop(partner.id, { domain });
  await db.platformShop.update({ where: { id: created.id }, data: { name, primaryDomain: host } });
  await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: `shpat_${rand()}`, scope: "write_customers" } });
  const fake: FakeShop = admin.addShop(domain, { primaryHost: host, name });
  return { id: created.id, partnerId: partner.id, domain, primaryDomain: host, name, fake };
}
type Store = Awaited<ReturnType<typeof newStore>>;

/** A customer of the store whose store account holds `titles` (saved as the storefront saves), and a link token for them. */
async function customerWith(store: Store, titles: string[], email: string | null = null) {
  const customer = String(7_300_000_000 + randomBytes(3).readUIntBE(0, 3));
  const { userId } = await app.shopperOfCustomer(store.id, customer);
  const list = await db.wishlist.create({ data: { shareToken: randomBytes(18).toString("base64url"), ownerId: userId, name: "My wishlist", defaultKey: "default" } });
  for (const title of titles) {
    const url = `https://${store.primaryDomain}/products/${title.toLowerCase().replace(/\W+/g, "-")}`;
    const body = { wishlistId: list.id, product: { url, title } } as unknown as Parameters<typeof app.saveProduct>[1];
    await app.saveProduct({ userId, address: "0.0.0.0" }, body, {
      kind: "widget",
      widgetOrigin: `https://${store.primaryDomain}`,
      partnerId: store.partnerId,
      shopId: store.id,
      domain: store.primaryDomain,
    });
  }
  if (email) store.fake.customers.set(customer, { email });
  const offer = await app.linkOffer({ id: store.id, partnerId: store.partnerId, domain: store.domain, primaryDomain: store.primaryDomain }, customer, "en");
  const token = new URLSearchParams(new URL(offer.url).hash.slice(1)).get("token")!;
  return { customer, storeUserId: userId, token };
}

async function account() {
  const res = await api.post("/auth/signup", { body: { email: `conn-${rand()}@example.test`, password: "correct horse battery" } });
  expect(res.status, res.text).toBe(200);
  return { userId: res.body.user.id as string, accessToken: res.body.access_token as string };
}

const preview = (token: string | undefined, body: unknown) => api.post("/hosted/link-shop-customer/preview", { token, body });
const join = (token: string, linkToken: string) => api.post("/hosted/link-shop-customer", { token, body: { link_token: linkToken } });
const connections = (token?: string) => api.get("/hosted/me/connections", { token });
const disconnect = (token: string | undefined, partnerId: string | number) => api.delete(`/hosted/me/connections/${partnerId}`, { token });
const linkOf = (store: Store, customer: string) => db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId: store.id, customerId: customer } } });
const itemsOf = (userId: string) => db.listItem.count({ where: { wishlist: { ownerId: userId } } });

describe("POST /hosted/link-shop-customer/preview", () => {
  it("names the store, the customer's masked e-mail and what moves, and joins nothing; the join then records the shop's consent", async () => {
    const store = await newStore("Pine Hall");
    const c = await customerWith(store, ["Pine cone", "Pine chair"], "philippa.hall@pine.example");
    const me = await account();

    const res = await preview(me.accessToken, { link_token: c.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      shop: { domain: store.domain, host: store.primaryDomain, name: "Pine Hall" },
      customer: { email_masked: "p•••@pine.example" },
      moves: { lists: 1, items: 2 },
      joined: false,
    });
    // Read through the shop's offline session, for that customer.
    expect(admin.callsTo(store.domain, "customer(id:").at(-1)?.variables).toEqual({ id: `gid://shopify/Customer/${c.customer}` });
    expect(await linkOf(store, c.customer)).toMatchObject({ userId: c.storeUserId });
    expect(await db.shopperConsent.count({ where: { userId: me.userId } })).toBe(0);

    expect((await join(me.accessToken, c.token)).status).toBe(200);
    expect(await db.shopperConsent.findMany({ where: { userId: me.userId } })).toEqual([
      expect.objectContaining({ partnerId: store.partnerId, host: store.primaryDomain }),
    ]);
    expect((await preview(me.accessToken, { link_token: c.token })).body).toMatchObject({ joined: true, moves: { lists: 0, items: 0 } });
  });

  it("answers a null e-mail when the Admin API does not know the customer", async () => {
    const store = await newStore("Fir Lodge");
    const c = await customerWith(store, []);
    const me = await account();
    expect((await preview(me.accessToken, { link_token: c.token })).body).toMatchObject({ customer: { email_masked: null }, moves: { lists: 1, items: 0 } });
  });

  it("refuses what the join refuses: 401, 403 account_required, 400 missing_data and invalid_link, 409 link_used and account_already_linked", async () => {
    const store = await newStore("Elm Yard");
    const c = await customerWith(store, ["Elm leaf"]);
    expect((await preview(undefined, { link_token: c.token })).status).toBe(401);
    const guest = await api.anonymousUser();
    expect(await preview(guest.accessToken, { link_token: c.token })).toMatchObject({ status: 403, body: { error: "account_required" } });
    const me = await account();
    expect(await preview(me.accessToken, {})).toMatchObject({ status: 400, body: { error: "missing_data" } });
    const forged = c.token.slice(0, -4) + (c.token.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(await preview(me.accessToken, { link_token: forged })).toMatchObject({ status: 400, body: { error: "invalid_link" } });

    expect((await join(me.accessToken, c.token)).status).toBe(200);
    const someoneElse = await account();
    expect(await preview(someoneElse.accessToken, { link_token: c.token })).toMatchObject({ status: 409, body: { error: "link_used" } });
    const second = await customerWith(store, []);
    expect(await preview(me.accessToken, { link_token: second.token })).toMatchObject({ status: 409, body: { error: "account_already_linked" } });
  });
});

describe("connections", () => {
  it("lists a join and a consent; DELETE ends the join (fresh store account, emptied mirror, items kept) and the consent", async () => {
    const store = await newStore("Oak Row");
    const c = await customerWith(store, ["Oak table", "Oak shelf"], "otto@oak.example");
    const me = await account();
    expect(await connections(me.accessToken)).toMatchObject({ status: 200, body: { connections: [] } });
    expect((await join(me.accessToken, c.token)).status).toBe(200);
    const other = await app.createPartner({ name: "Maple", email: "owner@maple.example" });
    await db.shopperConsent.create({ data: { userId: me.userId, partnerId: other.id, host: "maple.example", createdAt: new Date(Date.now() - 86_400_000) } });

    const listed = await connections(me.accessToken);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.connections).toEqual([
      { partner_id: store.partnerId, name: "Oak Row", host: store.primaryDomain, joined: true, recognised: true, since: expect.any(String) },
      { partner_id: other.id, name: "maple.example", host: "maple.example", joined: false, recognised: true, since: expect.any(String) },
    ]);
    // Another account sees none of it and cannot end it.
    const stranger = await account();
    expect((await connections(stranger.accessToken)).body.connections).toEqual([]);
    expect(await disconnect(stranger.accessToken, store.partnerId)).toMatchObject({ status: 404, body: { error: "not_found" } });

    const ended = await disconnect(me.accessToken, store.partnerId);
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body).toEqual({ ok: true, disconnected: { shops: 1, consents: 1 } });
    expect(await linkOf(store, c.customer)).toBeNull();
    expect(await itemsOf(me.userId)).toBe(2);
    // The customer's next visit makes a fresh store account of their own.
    const next = await app.shopperOfCustomer(store.id, c.customer);
    expect(next).toMatchObject({ created: true, isAnonymous: true });
    expect(next.userId).not.toBe(me.userId);
    // The mirror says that nothing is saved for the customer any more.
    const mirror = () => store.fake.customerMetafields.get(`gid://shopify/Customer/${c.customer}`);
    await expect.poll(() => mirror()?.get("wishlist_count")?.value, { timeout: 15_000 }).toBe("0");
    expect(mirror()?.get("wishlist_handles")?.value).toBe("[]");
    // Gone: a second DELETE finds nothing.
    expect(await disconnect(me.accessToken, store.partnerId)).toMatchObject({ status: 404, body: { error: "not_found" } });

    expect((await disconnect(me.accessToken, other.id)).body).toEqual({ ok: true, disconnected: { shops: 0, consents: 1 } });
    expect((await connections(me.accessToken)).body.connections).toEqual([]);
  });

  it("answers 401 without a token, 400 invalid_partner for a bad id, 404 for an unknown partner", async () => {
    const me = await account();
    expect(await connections(undefined)).toMatchObject({ status: 401, body: { error: "unauthorized" } });
    expect(await disconnect(undefined, 1)).toMatchObject({ status: 401, body: { error: "unauthorized" } });
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999"]) {
      expect(await disconnect(me.accessToken, bad), bad).toMatchObject({ status: 400, body: { error: "invalid_partner" } });
    }
    expect(await disconnect(me.accessToken, 2_000_000_000)).toMatchObject({ status: 404, body: { error: "not_found" } });
  });

  it("is in the OpenAPI document", async () => {
    const doc = await api.get("/openapi.json");
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths);
    expect(paths).toEqual(expect.arrayContaining(["/hosted/link-shop-customer/preview", "/hosted/me/connections", "/hosted/me/connections/{partnerId}"]));
    expect(Object.keys(doc.body.paths["/hosted/me/connections/{partnerId}"])).toEqual(["delete"]);
  });
});
