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
// Equalities joined by OR, not `IN (…)`: SQLite builds a temporary table for every IN list of two or more values,
// which made this lookup of a few rows cost ten times as much (about 25 µs against 2.5 µs).
const HOST_SLOTS = 8;
const slots = (column: string) => Array.from({ length: HOST_SLOTS }, (_, i) => `"${column}" = $${i + 1}`).join(" OR ");
interface ShopRow {
  domain: string;
  primaryDomain: string | null;
  name: string | null;
  partnerId: number;
}
const SHOPS_OF_HOSTS = statement<ShopRow>(
  "active_shops_of_hosts",
  `SELECT "domain", "primaryDomain", "name", "partnerId" FROM "PlatformShop"
   WHERE "active" = true AND (${slots("domain")} OR ${slots("primaryDomain")})`,
);

function* shopsOf(hosts: string[]): Op<ShopRow[]> {
  const shops = [];
  for (let i = 0; i < hosts.length; i += HOST_SLOTS) {
    const chunk = hosts.slice(i, i + HOST_SLOTS);
    shops.push(...(yield* all(SHOPS_OF_HOSTS, ...chunk, ...Array<null>(HOST_SLOTS - chunk.length).fill(null))));
  }
  return shops;
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
  for (const shop of await exec(shopsOf(unique))) {
    const entry = { name: shop.name, partnerId: shop.partnerId };
    byHost.set(shop.domain, entry);
    if (shop.primaryDomain) byHost.set(shop.primaryDomain, entry);
  }
  return byHost;
}
