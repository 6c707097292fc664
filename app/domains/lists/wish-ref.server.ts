// Signed references to a list item ("wish refs"): `<itemId>.<signature>`.
// Share-page product links and the basket drawer's cart lines carry one, the
// shop's cart keeps it as a line-item property (or the order's landing URL
// holds it), and the shop's `orders/create` webhook turns it back into the
// item to mark purchased. The signature (HMAC-SHA256 with a server secret,
// 128 bits) means an order can only name items we handed a reference out for.
import { createHmac, timingSafeEqual } from "node:crypto";
import { all, exec, statement, type Op } from "~/db/sql.server";
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

// Active shops among up to HOST_SLOTS hosts (unused slots are null, which matches nothing): one prepared statement per share page.
const HOST_SLOTS = 8;
const slots = Array.from({ length: HOST_SLOTS }, (_, i) => `$${i + 1}`).join(", ");
const SHOPS_OF_HOSTS = statement<{ domain: string; primaryDomain: string | null }>(
  "active_shops_of_hosts",
  `SELECT "domain", "primaryDomain" FROM "PlatformShop"
   WHERE "active" = true AND ("domain" IN (${slots}) OR "primaryDomain" IN (${slots}))`,
);

function* shopsOf(hosts: string[]): Op<{ domain: string; primaryDomain: string | null }[]> {
  const shops = [];
  for (let i = 0; i < hosts.length; i += HOST_SLOTS) {
    const chunk = hosts.slice(i, i + HOST_SLOTS);
    shops.push(...(yield* all(SHOPS_OF_HOSTS, ...chunk, ...Array<null>(HOST_SLOTS - chunk.length).fill(null))));
  }
  return shops;
}

/**
 * Product links with a signed reference to their list item, for links into a
 * shop that has the app installed (only its orders webhook can use the
 * reference; other sites never see one). Links elsewhere stay as they are.
 */
export async function withShopWishRefs<T extends { itemId: number; productUrl: string | null }>(entries: T[]): Promise<T[]> {
  const hostOf = (url: string | null) => {
    try {
      return url ? new URL(url).hostname : null;
    } catch {
      return null;
    }
  };
  const hosts = [...new Set(entries.map((e) => hostOf(e.productUrl)).filter((h): h is string => h !== null))];
  if (hosts.length === 0) return entries;
  const shops = await exec(shopsOf(hosts));
  if (shops.length === 0) return entries;
  const shopHosts = new Set(shops.flatMap((s) => [s.domain, s.primaryDomain]));
  const sign = await wishRefSigner();
  return entries.map((e) => {
    const host = hostOf(e.productUrl);
    return host && shopHosts.has(host) ? { ...e, productUrl: withWishRef(e.productUrl!, sign(e.itemId)) } : e;
  });
}
