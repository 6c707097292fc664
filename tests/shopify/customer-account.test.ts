// The customer account API (docs/shopify.md "Customer accounts"): the built
// server with Shopify credentials, called as the "Wishlist" extension calls
// it — with its own API client (extensions/wishlist-account/src/api.ts) and
// session tokens signed as Shopify signs them (HS256 with the app secret,
// claims of the Session Token API). Only a valid token of an installed shop
// and a signed-in customer reads, removes and shares that customer's items.
import { randomBytes, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { wishlistApi, WishlistApiError } from "../../extensions/wishlist-account/src/api.ts";
import { provisioner } from "../support/provision.ts";
import { sharedShopifyApi } from "../support/api.ts";
import { SHARED_SHOPIFY } from "../support/shared-shopify.ts";

// The shared server with the Shopify app's keys; shops, shoppers and lists are this file's own.
const API_KEY = SHARED_SHOPIFY.apiKey;
const SECRET = SHARED_SHOPIFY.secret;
// The extension's worker runs on Shopify's origin; self-declared bots are refused by the library.
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

let server: Awaited<ReturnType<typeof sharedShopifyApi>>["server"];
let db: Awaited<typeof import("~/db.server")>["db"];
let shopA: { id: number; domain: string };
let shopB: { id: number; domain: string };
const customer = "7001234567";

interface Claims {
  dest?: string;
  aud?: string;
  sub?: string;
  exp?: number;
  nbf?: number;
}

/** A customer account session token (https://shopify.dev/docs/api/customer-account-ui-extensions/latest/target-apis/platform-apis/session-token-api). */
async function sessionToken(claims: Claims = {}, secret = SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    dest: shopA.domain,
    aud: API_KEY,
    sub: `gid://shopify/Customer/${customer}`,
    nbf: now - 5,
    iat: now - 5,
    exp: now + 300,
    jti: randomUUID(),
    ...claims,
  };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));
}

/** fetch as the extension's worker sends it. */
const extensionFetch: typeof fetch = (input, init = {}) =>
  fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: EXTENSION_ORIGIN, "User-Agent": BROWSER } });

const apiWith = (token: () => Promise<string>) => wishlistApi(server.url, token, extensionFetch);

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof WishlistApiError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error("expected the call to fail");
}

/** A list of `userId` with one item per product URL, saved through `shopId` (or from a domain only). */
async function listWith(userId: string, items: Array<{ url: string; shopId?: number; domain?: string; variantId?: string; title?: string }>) {
  const list = await db.wishlist.create({ data: { shareToken: randomBytes(18).toString("base64url"), ownerId: userId, name: "Mine" } });
  const ids: number[] = [];
  let at = Date.now() - 60_000;
  for (const item of items) {
    const product = await db.product.upsert({ where: { canonicalUrl: item.url }, create: { canonicalUrl: item.url }, update: {} });
    const row = await db.listItem.create({
      data: {
        wishlistId: list.id,
        productId: product.id,
        sourceShopId: item.shopId ?? null,
        sourceDomain: item.domain ?? null,
        variantId: item.variantId ?? null,
        ownTitle: item.title ?? null,
        addedAt: new Date((at += 1000)),
      },
    });
    ids.push(row.id);
  }
  return { list, ids };
}

let mine: { list: { shareToken: string }; ids: number[] };
let theirs: { ids: number[] };
let otherShopsCustomer: { ids: number[] };

beforeAll(async () => {
  ({ server } = await sharedShopifyApi());
  const p = await provisioner(server);
  ({ db } = await import("~/db.server"));
  const { shopperOfCustomer } = await import("~/domains/shop-customers/shop-customers.server");
  const install = async () => {
    const partner = await p.partner();
    const shop = await p.shop(partner.id, { domain: `acct-${randomBytes(4).toString("hex")}.myshopify.com` });
    await db.platformShop.update({ where: { id: shop.id }, data: { primaryDomain: `www.${shop.domain.split(".")[0]}.example`, name: "Brand Store" } });
    return { id: shop.id, domain: shop.domain };
  };
  shopA = await install();
  shopB = await install();
  const me = await shopperOfCustomer(shopA.id, customer);
  // The same customer id at another shop is another customer with another account.
  const twin = await shopperOfCustomer(shopB.id, customer);
  const someoneElse = await shopperOfCustomer(shopA.id, "7009999999");
  mine = await listWith(me.userId, [
    { url: `https://www.${shopA.domain.split(".")[0]}.example/products/linen-shirt`, shopId: shopA.id, variantId: "4400001", title: "Linen shirt" },
    { url: `https://www.${shopA.domain.split(".")[0]}.example/products/wool-scarf`, shopId: shopA.id, title: "Wool scarf" },
    // Saved elsewhere: not this shop's wishlist page.
    { url: "https://elsewhere.example/products/lamp", domain: "elsewhere.example", title: "Lamp" },
  ]);
  theirs = await listWith(someoneElse.userId, [{ url: `https://www.${shopA.domain.split(".")[0]}.example/products/boots`, shopId: shopA.id }]);
  otherShopsCustomer = await listWith(twin.userId, [{ url: `https://www.${shopB.domain.split(".")[0]}.example/products/hat`, shopId: shopB.id }]);
});

describe("reading the customer's wishlist", () => {
  it("a valid token reads that customer's saved products of that shop, newest first, with cart links", async () => {
    const wishlist = await apiWith(() => sessionToken()).list("en");
    expect(wishlist.shop).toEqual({ domain: shopA.domain, name: "Brand Store" });
    expect(wishlist.products.map((p) => p.item_id)).toEqual([mine.ids[1], mine.ids[0]]);
    const shirt = wishlist.products.find((p) => p.item_id === mine.ids[0])!;
    expect(shirt.title).toBe("Linen shirt");
    const cart = new URL(shirt.cart_url!);
    expect(`${cart.origin}${cart.pathname}`).toBe(`https://www.${shopA.domain.split(".")[0]}.example/cart/add`);
    expect(cart.searchParams.get("id")).toBe("4400001");
    expect(cart.searchParams.get("quantity")).toBe("1");
    // The signed item reference the orders/create webhook confirms purchases by.
    expect(cart.searchParams.get("properties[_wish_ref]")).toMatch(new RegExp(`^${mine.ids[0]}\\.`));
    // Without a variant there is no cart link; the extension links the product page.
    expect(wishlist.products.find((p) => p.item_id === mine.ids[1])!.cart_url).toBeNull();
  });

  it("answers CORS as the Shopify library does for extension requests", async () => {
    const res = await extensionFetch(`${server.baseUrl}/customer-account/items`, { headers: { Authorization: `Bearer ${await sessionToken()}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
    expect(res.headers.get("access-control-expose-headers")).toBe("X-Shopify-API-Request-Failure-Reauthorize-Url");
    const preflight = await fetch(`${server.baseUrl}/customer-account/items/1`, {
      method: "OPTIONS",
      headers: { Origin: EXTENSION_ORIGIN, "Access-Control-Request-Method": "DELETE", "Access-Control-Request-Headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("DELETE");
  });

  it("refuses an expired token, another app's token, a forged signature and a missing one with 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      sessionToken({ exp: now - 60, nbf: now - 400 }),
      sessionToken({ aud: "someone-elses-client-id" }),
      sessionToken({}, "not-the-app-secret"),
    ];
    for (const token of cases) {
      const t = await token;
      expect(await failure(apiWith(async () => t).list("en"))).toEqual({ status: 401, code: "unauthorized" });
    }
    const res = await extensionFetch(`${server.baseUrl}/customer-account/items`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "unauthorized" });
    // Errors carry the same CORS headers, so the extension can read them.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("another shop's token reads that shop's customer, never this one's items", async () => {
    const other = await apiWith(() => sessionToken({ dest: shopB.domain })).list("en");
    expect(other.products.map((p) => p.item_id)).toEqual(otherShopsCustomer.ids);
    // A shop that never installed the app, and a destination that is no shop.
    for (const dest of ["never-installed.myshopify.com", "evil.example"]) {
      expect(await failure(apiWith(() => sessionToken({ dest })).list("en"))).toEqual({ status: 401, code: "unauthorized" });
    }
  });

  it("a token without a signed-in customer gets 403 customer_required", async () => {
    expect(await failure(apiWith(() => sessionToken({ sub: undefined })).list("en"))).toEqual({ status: 403, code: "customer_required" });
    expect(await failure(apiWith(() => sessionToken({ sub: "gid://shopify/Shop/1" })).list("en"))).toEqual({ status: 403, code: "customer_required" });
  });
});

describe("removing and sharing", () => {
  it("removes only the customer's own item of this shop", async () => {
    const api = apiWith(() => sessionToken());
    // Another customer's item, this customer's item of another shop, an item saved elsewhere: 404, untouched.
    for (const id of [theirs.ids[0], otherShopsCustomer.ids[0], mine.ids[2]]) {
      expect(await failure(api.remove(id))).toEqual({ status: 404, code: "not_found" });
      expect(await db.listItem.findUnique({ where: { id } })).not.toBeNull();
    }
    expect(await api.remove(mine.ids[1])).toEqual({ ok: true, deleted: mine.ids[1] });
    expect((await api.list("en")).products.map((p) => p.item_id)).toEqual([mine.ids[0]]);
    // An expired token removes nothing.
    const now = Math.floor(Date.now() / 1000);
    const expired = await sessionToken({ exp: now - 60, nbf: now - 400 });
    expect(await failure(apiWith(async () => expired).remove(mine.ids[0]))).toEqual({ status: 401, code: "unauthorized" });
    expect(await db.listItem.findUnique({ where: { id: mine.ids[0] } })).not.toBeNull();
  });

  it("shares the list holding the customer's items and answers its share page, only when it is the store's to publish", async () => {
    // The list also holds a product saved elsewhere, and it is no default list: not the store's to publish.
    expect(await failure(apiWith(() => sessionToken()).share("de"))).toEqual({ status: 403, code: "forbidden" });
    expect((await db.wishlist.findUnique({ where: { shareToken: mine.list.shareToken } }))!.sharePublic).toBe(false);
    await db.listItem.delete({ where: { id: mine.ids[2] } });
    expect(await failure(apiWith(() => sessionToken()).share("de"))).toEqual({ status: 403, code: "forbidden" });
    // The customer's default list with this shop's items alone is.
    await db.wishlist.update({ where: { shareToken: mine.list.shareToken }, data: { defaultKey: "default" } });
    const shared = await apiWith(() => sessionToken()).share("de");
    expect(shared.share_url).toBe(`${server.url}/de/list/${encodeURIComponent(mine.list.shareToken)}`);
    const publicList = await fetch(`${server.baseUrl}/hosted/public/lists/${encodeURIComponent(mine.list.shareToken)}`);
    expect(publicList.status).toBe(200);
    // A customer with nothing saved at this shop has nothing to share.
    expect(await failure(apiWith(() => sessionToken({ sub: "gid://shopify/Customer/7005555555" })).share("en"))).toEqual({ status: 404, code: "not_found" });
  });

  it("documented every answer it gave (the shared server's log: every file's answers so far)", () => {
    expect(server.output()).not.toMatch(/undocumented (error code|status|response)/);
  });
});
