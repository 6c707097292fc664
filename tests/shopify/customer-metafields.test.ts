// The customer metafield mirror (docs/shopify.md "Customer metafield
// mirror"): saves and removals of a shopper linked to a shop's customer queue
// an outbox message; the outbox job writes count, last save time and product
// handles with metafieldsSet through the app's real Shopify wiring
// (background.server.ts, the shop's offline session) to the fake Admin API —
// after commit, retried after a failure, one write for several pending
// changes of the same customer. Also: the customer account API's CORS headers
// are the ones the library's own cors() helper sets.
import { randomBytes, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { API_KEY, API_SECRET, APP_URL, FakeAdminApi, shopifyTestApp, type FakeShop } from "../support/shopify.ts";
import { until } from "../support/wait.ts";

let api: FakeAdminApi;
let shopify: Awaited<ReturnType<typeof shopifyTestApp>>["shopify"];
let db: Awaited<typeof import("~/db.server")>["db"];
let worker: typeof import("~/domains/outbox/worker.server");
let saveProduct: typeof import("~/domains/lists/save.server")["saveProduct"];
let shop: { id: number; partnerId: number; domain: string; host: string };
let fake: FakeShop;
let userId: string;
let listId: number;
const customer = "8001234567";
const gid = `gid://shopify/Customer/${customer}`;

const mirrorMessages = () => db.outboxMessage.findMany({ where: { kind: "customer_metafields" }, orderBy: { id: "asc" } });
const metafieldsCalls = () => api.calls.filter((c) => c.shop === shop.domain && c.query.includes("WishlistCustomerMirror"));

async function save(handle: string) {
  const url = `https://${shop.host}/products/${handle}`;
  const body = { wishlistId: listId, product: { url, title: handle } } as unknown as Parameters<typeof saveProduct>[1];
  return saveProduct({ userId, address: "0.0.0.0" }, body, {
    kind: "widget",
    widgetOrigin: `https://${shop.host}`,
    partnerId: shop.partnerId,
    shopId: shop.id,
    domain: shop.host,
  });
}

/** Runs the outbox until every mirror message is out of pending. */
async function deliverMirror() {
  await worker.runOutboxOnce();
  return until("mirror messages delivered", mirrorMessages, (rows) => rows.every((r) => r.status !== "pending"));
}

beforeAll(async () => {
  ({ api, shopify } = await shopifyTestApp());
  ({ db } = await import("~/db.server"));
  // The app's own wiring registers the mirror job with the Shopify library's offline Admin client.
  await import("~/background.server");
  worker = await import("~/domains/outbox/worker.server");
  ({ saveProduct } = await import("~/domains/lists/save.server"));
  const { createPartner } = await import("~/domains/partners/partners.server");
  const { createPlatformShop } = await import("~/domains/shops/shops.server");
  const { shopperOfCustomer } = await import("~/domains/shop-customers/shop-customers.server");
  const partner = await createPartner({ name: "Mirror", email: "owner@mirror.example" });
  const domain = `mirror-${randomBytes(4).toString("hex")}.myshopify.com`;
  const created = await createPlatformShop(partner.id, { domain });
  shop = { id: created.id, partnerId: partner.id, domain, host: `www.${domain.split(".")[0]}.example` };
  await db.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: shop.host } });
  fake = api.addShop(domain, { primaryHost: shop.host });
  await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: "shpat_mirror", scope: "write_customers" } });
  ({ userId } = await shopperOfCustomer(shop.id, customer));
  listId = (await db.wishlist.create({ data: { shareToken: randomBytes(18).toString("base64url"), ownerId: userId, name: "Wishlist" } })).id;
});

describe("customer metafield mirror", () => {
  it("after a save: count, last save time and handles on the customer, app-owned namespace, declared types", async () => {
    const saved = await save("linen-shirt");
    const [message] = await mirrorMessages();
    expect(message).toMatchObject({ topic: `${shop.id}:${customer}`, status: "pending", payload: { shop_id: shop.id, customer_id: customer } });
    await deliverMirror();
    const calls = metafieldsCalls();
    expect(calls).toHaveLength(1);
    const item = await db.listItem.findUniqueOrThrow({ where: { id: saved.item_id } });
    expect(calls[0].variables).toEqual({
      metafields: [
        { ownerId: gid, namespace: "$app", key: "wishlist_count", type: "number_integer", value: "1" },
        { ownerId: gid, namespace: "$app", key: "wishlist_saved_at", type: "date_time", value: item.addedAt.toISOString() },
        { ownerId: gid, namespace: "$app", key: "wishlist_handles", type: "list.single_line_text_field", value: JSON.stringify(["linen-shirt"]) },
      ],
    });
    expect(fake.customerMetafields.get(gid)?.get("wishlist_count")).toEqual({ type: "number_integer", value: "1" });
  });

  it("pending changes of one customer are written once, with the newest state", async () => {
    await save("wool-scarf");
    await save("boots");
    expect((await mirrorMessages()).filter((m) => m.status === "pending")).toHaveLength(2);
    const before = metafieldsCalls().length;
    await deliverMirror();
    expect(metafieldsCalls()).toHaveLength(before + 1);
    expect((await mirrorMessages()).every((m) => m.status === "sent")).toBe(true);
    expect(fake.customerMetafields.get(gid)?.get("wishlist_count")?.value).toBe("3");
    expect(JSON.parse(fake.customerMetafields.get(gid)!.get("wishlist_handles")!.value)).toEqual(["boots", "wool-scarf", "linen-shirt"]);
  });

  it("after a removal (customer account page) the mirror follows", async () => {
    const { removeCustomerItem } = await import("~/domains/customer-accounts/wishlist.server");
    const scarf = await db.listItem.findFirstOrThrow({ where: { wishlistId: listId, product: { canonicalUrl: { endsWith: "/wool-scarf" } } } });
    await removeCustomerItem({ shopId: shop.id, shopDomain: shop.domain, partnerId: shop.partnerId, customerId: customer, userId }, String(scarf.id));
    await deliverMirror();
    const mirror = fake.customerMetafields.get(gid)!;
    expect(mirror.get("wishlist_count")?.value).toBe("2");
    expect(JSON.parse(mirror.get("wishlist_handles")!.value)).toEqual(["boots", "linen-shirt"]);
    const newest = await db.listItem.findFirstOrThrow({ where: { wishlistId: listId }, orderBy: { addedAt: "desc" } });
    expect(mirror.get("wishlist_saved_at")?.value).toBe(newest.addedAt.toISOString());
  });

  it("a failed write is retried, and the change is not lost", async () => {
    // Shopify unreachable for this shop: the Admin API call fails.
    api.shops.delete(shop.domain);
    await save("rain-coat");
    await worker.runOutboxOnce();
    const failed = await until("first attempt recorded", mirrorMessages, (rows) => rows.some((r) => r.status === "pending" && r.attempts === 1 && r.lastError !== null));
    // The claim counts the attempt before the failure is written: wait for the failure.
    const retry = failed.find((r) => r.status === "pending" && r.attempts === 1 && r.lastError !== null)!;
    expect(retry.lastError).toBeTruthy();
    // Back again, and the backoff has passed.
    api.shops.set(shop.domain, fake);
    await db.outboxMessage.update({ where: { id: retry.id }, data: { nextAttemptAt: new Date() } });
    await deliverMirror();
    expect((await db.outboxMessage.findUniqueOrThrow({ where: { id: retry.id } })).status).toBe("sent");
    expect(fake.customerMetafields.get(gid)?.get("wishlist_count")?.value).toBe("3");
  });

  it("a guest's lists moving into the customer's account (sign-in on APP_URL) queue the mirror", async () => {
    await deliverMirror();
    const { signUp } = await import("~/domains/identity/identity.server");
    const { migrateAnonymousToProvider } = await import("~/flows/account-merge.server");
    const guest = await signUp({});
    const guestList = await db.wishlist.create({ data: { shareToken: randomBytes(18).toString("base64url"), ownerId: guest.user.id, name: "Guest's" } });
    const product = await db.product.create({ data: { canonicalUrl: `https://${shop.host}/products/guest-${randomUUID()}` } });
    await db.listItem.create({ data: { wishlistId: guestList.id, productId: product.id, addedByUserId: guest.user.id } });
    const before = (await mirrorMessages()).length;
    const moved = await migrateAnonymousToProvider(userId, guest.access_token);
    expect(moved).toMatchObject({ lists: 1, items: 1 });
    const messages = await mirrorMessages();
    expect(messages.slice(before)).toEqual([expect.objectContaining({ topic: `${shop.id}:${customer}`, status: "pending" })]);
    await deliverMirror();
  });

  it("shoppers who are no shop's customer queue nothing", async () => {
    const before = (await mirrorMessages()).length;
    const { queueCustomerMirrors } = await import("~/domains/customer-accounts/mirror-queue.server");
    await queueCustomerMirrors(randomUUID());
    expect(await mirrorMessages()).toHaveLength(before);
  });
});

describe("customer account CORS", () => {
  it("matches the library's cors() helper and its preflight", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ dest: shop.domain, aud: API_KEY, sub: gid, nbf: now, iat: now, exp: now + 300, jti: randomUUID() })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(API_SECRET));
    const headers = { authorization: `Bearer ${token}`, origin: "https://extensions.shopifycdn.com", "user-agent": "Mozilla/5.0 Chrome/131.0" };
    const { cors } = await shopify.authenticate.public.customerAccount(new Request(`${APP_URL}/api/v1/customer-account/items`, { headers }));
    const library = cors(new Response(null));
    const { ReplyHeaders } = await import("~/lib/api/http");
    const { applyExtensionCors } = await import("~/lib/api/cors");
    const ours = new ReplyHeaders();
    applyExtensionCors(ours, headers.origin);
    for (const name of ["access-control-allow-origin", "access-control-allow-headers", "access-control-expose-headers"]) {
      expect(ours.get(name), name).toBe(library.headers.get(name));
    }
    let preflight: Response | undefined;
    try {
      await shopify.authenticate.public.customerAccount(new Request(`${APP_URL}/api/v1/customer-account/items`, { method: "OPTIONS", headers: { origin: headers.origin } }));
    } catch (thrown) {
      preflight = thrown as Response;
    }
    const { customerAccountPreflight } = await import("~/api/customer-account-auth.server");
    const { apiRequestOfWeb } = await import("~/lib/api/web-adapter.server");
    const answer = customerAccountPreflight(apiRequestOfWeb(new Request(`${APP_URL}/x`, { method: "OPTIONS", headers: { origin: headers.origin } })), "GET, OPTIONS");
    expect(answer.status).toBe(preflight!.status);
    for (const name of ["access-control-allow-origin", "access-control-allow-headers", "access-control-expose-headers", "access-control-max-age"]) {
      expect(answer.headers.get(name), name).toBe(preflight!.headers.get(name));
    }
  });
});
