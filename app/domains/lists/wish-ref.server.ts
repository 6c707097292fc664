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

/**
 * Where a reference was handed out, carried in its signature's first byte so
 * that every reference keeps the one shape (`<itemId>.<22 characters>`) the
 * SDK, the cart and older orders know. Codes are never reused; a new place
 * (say another alert kind) takes the next code and its name is a new source
 * in the revenue figures (docs/revenue.md).
 */
export const WISH_REF_SOURCES = {
  share_page: 1,
  drawer: 2,
  account_page: 3,
  wishlist_page: 4,
  alert_price_drop: 5,
  alert_back_in_stock: 6,
  alert_low_stock: 7,
  reminder: 8,
} as const;
export type WishRefSource = keyof typeof WISH_REF_SOURCES;
const SOURCE_OF_CODE = new Map(Object.entries(WISH_REF_SOURCES).map(([name, code]) => [code as number, name as WishRefSource]));

// Unsourced (the first references): 128 bits of HMAC over the id. Sourced: the
// source's code, then 120 bits of HMAC over the id and the code.
const unsourced = (key: Buffer, itemId: number) => createHmac("sha256", key).update(`wish-ref:${itemId}`).digest().subarray(0, 16);
const sourced = (key: Buffer, itemId: number, code: number) =>
  Buffer.concat([Buffer.of(code), createHmac("sha256", key).update(`wish-ref:${itemId}:${code}`).digest().subarray(0, 15)]);

/** A signer bound to the key and the place the references are handed out, for signing many items at once. */
export async function wishRefSigner(source: WishRefSource): Promise<(itemId: number) => string> {
  const key = await getWishRefKey();
  const code = WISH_REF_SOURCES[source];
  return (itemId) => `${itemId}.${sourced(key, itemId, code).toString("base64url")}`;
}

/** A verified reference: the item it names and where it was handed out (null for references signed before sources). */
export interface WishRef {
  itemId: number;
  source: WishRefSource | null;
}

/** The item a reference names and its source, or null when it is malformed or its signature is wrong. */
export async function readWishRef(ref: string): Promise<WishRef | null> {
  const match = REF.exec(ref.trim());
  if (!match) return null;
  const itemId = Number(match[1]);
  if (!Number.isSafeInteger(itemId) || itemId > 2_147_483_647) return null;
  const given = Buffer.from(match[2]!, "base64url");
  if (given.length !== 16 || given.toString("base64url") !== match[2]) return null; // one spelling per reference
  const key = await getWishRefKey();
  if (timingSafeEqual(unsourced(key, itemId), given)) return { itemId, source: null };
  const source = SOURCE_OF_CODE.get(given[0]!);
  return source && timingSafeEqual(sourced(key, itemId, given[0]!), given) ? { itemId, source } : null;
}

/** The item id a reference names, or null when it is malformed or its signature is wrong. */
export async function verifyWishRef(ref: string): Promise<number | null> {
  return (await readWishRef(ref))?.itemId ?? null;
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
