// Signed references to a list item ("wish refs"): `<itemId>.<signature>`.
// Share-page product links and the basket drawer's cart lines carry one, the
// shop's cart keeps it as a line-item property (or the order's landing URL
// holds it), and the shop's `orders/create` webhook turns it back into the
// item to mark purchased. The signature (HMAC-SHA256 with a server secret,
// 128 bits) means an order can only name items we handed a reference out for.
import { createHmac, timingSafeEqual } from "node:crypto";
import { activeShopsOfHosts } from "~/domains/shops/shops.sql.server";
import { getWishRefKey } from "~/domains/secrets/secrets.server";

/** URL parameter on share-page product links. */
export const WISH_REF_PARAM = "wish_ref";
/** Line-item property (the leading underscore hides it from the shopper in Shopify's checkout). */
export const WISH_REF_PROPERTY = "_wish_ref";

const REF = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{22})$/;

const signature = (key: Buffer, itemId: number) =>
  createHmac("sha256", key).update(`wish-ref:${itemId}`).digest().subarray(0, 16).toString("base64url");

/** A signer bound to the key, for signing many items at once. */
export async function wishRefSigner(): Promise<(itemId: number) => string> {
  const key = await getWishRefKey();
  return (itemId) => `${itemId}.${signature(key, itemId)}`;
}

/** The item id a reference names, or null when it is malformed or its signature is wrong. */
export async function verifyWishRef(ref: string): Promise<number | null> {
  const match = REF.exec(ref.trim());
  if (!match) return null;
  const itemId = Number(match[1]);
  if (!Number.isSafeInteger(itemId) || itemId > 2_147_483_647) return null;
  const expected = Buffer.from(signature(await getWishRefKey(), itemId));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? itemId : null;
}

/** `url` with `wish_ref=<ref>` set (replacing one already there). */
export function withWishRef(url: string, ref: string): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.set(WISH_REF_PARAM, ref);
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A shop that has the app installed (active), as a product link's host names it. */
export interface InstalledShop {
  name: string | null;
  partnerId: number;
}

/**
 * The active installed shops among `hosts`, by host (a shop is found by its
 * myshopify domain and by its primary domain). Only their orders webhook can
 * use a reference, so only links to them get one (withWishRef); other sites
 * never see one.
 */
export async function installedShopsOf(hosts: Iterable<string>): Promise<Map<string, InstalledShop>> {
  const unique = [...new Set(hosts)];
  const byHost = new Map<string, InstalledShop>();
  if (unique.length === 0) return byHost;
  for (const shop of await activeShopsOfHosts(unique)) {
    const entry = { name: shop.name, partnerId: shop.partnerId };
    byHost.set(shop.domain, entry);
    if (shop.primaryDomain) byHost.set(shop.primaryDomain, entry);
  }
  return byHost;
}
