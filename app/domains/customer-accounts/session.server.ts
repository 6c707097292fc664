// Who a customer account extension's request speaks for. The Shopify library
// (authenticate.public.customerAccount) has checked the session token's
// signature (HS256, the app secret) and its expiry; it does not check the
// audience or the shop, so this does: `aud` is this app's client id, `dest` a
// shop that has the app installed, `sub` a signed-in customer of it
// (https://shopify.dev/docs/api/customer-account-ui-extensions/latest/target-apis/platform-apis/session-token-api).
// The customer is then the shopper account linked to that customer of that
// shop, as on the app proxy (shop-customers).
import { db } from "~/db.server";
import { forbidden, unauthorized } from "~/lib/api/errors";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";

export interface ShopCustomerIdentity {
  shopId: number;
  shopDomain: string;
  partnerId: number;
  /** Shopify's numeric customer id (text: 64-bit). */
  customerId: string;
  /** The shopper account holding the customer's lists. */
  userId: string;
}

/** The claims the library returns (JwtPayload), read defensively. */
export interface SessionTokenClaims {
  aud?: unknown;
  dest?: unknown;
  sub?: unknown;
}

const MYSHOPIFY = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/([1-9]\d{0,19})$/;

/** `dest` is the shop's myshopify domain; tolerate an https:// prefix. */
export function destinationShop(dest: unknown): string | null {
  if (typeof dest !== "string") return null;
  const host = dest.trim().toLowerCase().replace(/^https:\/\//, "").replace(/\/$/, "");
  return MYSHOPIFY.test(host) ? host : null;
}

/** The numeric id of `gid://shopify/Customer/<id>`, or null. */
export function customerIdOfGid(sub: unknown): string | null {
  return typeof sub === "string" ? (CUSTOMER_GID.exec(sub)?.[1] ?? null) : null;
}

export async function customerOfSessionToken(claims: SessionTokenClaims, apiKey: string): Promise<ShopCustomerIdentity> {
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(apiKey)) throw unauthorized("The session token was issued for another app");
  const domain = destinationShop(claims.dest);
  const shop = domain
    ? await db.platformShop.findUnique({ where: { domain }, select: { id: true, domain: true, partnerId: true, active: true } })
    : null;
  if (!shop || !shop.active) throw unauthorized("The session token's shop has not installed the app");
  const customerId = customerIdOfGid(claims.sub);
  if (!customerId) throw forbidden("customer_required", "Only a signed-in customer has a wishlist here");
  const { userId } = await shopperOfCustomer(shop.id, customerId);
  return { shopId: shop.id, shopDomain: shop.domain, partnerId: shop.partnerId, customerId, userId };
}
