// Shop pages of platform shops (SPEC 4.8 Shops, docs/api.md "Shops"): the
// public page data (`/shops/{handle}`). A page answers only when the shop is
// published and installed; anything else is 404 `shop_not_found`. Its
// products, curated lists and follows are in shop-products, shop-lists and
// shop-follows.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { notFound } from "~/lib/api/errors";
import { shopByHandle, type ShopRow } from "./shops.sql.server";


export type { ShopRow };

export const shopPageUrl = (handle: string) => `${env.APP_URL}/shops/${encodeURIComponent(handle)}`;

export function shopPageJson(shop: ShopRow, followerCount: number) {
  return {
    handle: shop.handle!,
    name: shop.name ?? shop.domain,
    description: shop.description,
    domain: shop.domain,
    primary_domain: shop.primaryDomain,
    url: shopPageUrl(shop.handle!),
    follower_count: followerCount,
    created_at: shop.installedAt.toISOString(),
    updated_at: shop.updatedAt.toISOString(),
  };
}

const notFoundShop = (what: string) => notFound("shop_not_found", `No published shop ${what}`);

/** The published, installed shop of a handle, or 404 `shop_not_found`. */
export async function publishedShop(handle: string | undefined): Promise<ShopRow> {
  const shop = handle ? await shopByHandle(handle) : undefined;
  if (!shop || !shop.published || !shop.active) throw notFoundShop(JSON.stringify(handle ?? ""));
  return shop;
}

export const followerCount = (shopId: number) => db.shopFollow.count({ where: { shopId } });

export async function shopPage(handle: string | undefined) {
  const shop = await publishedShop(handle);
  return { shop: shopPageJson(shop, await followerCount(shop.id)) };
}

/** By the myshopify domain or the primary domain (host, any case; a scheme or path is ignored). */
export async function shopPageByDomain(domain: string | undefined) {
  const host = (domain ?? "")
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/[/?#].*$/, "");
  if (!host) throw notFoundShop("for an empty domain");
  const shops = await db.platformShop.findMany({
    where: { OR: [{ domain: host }, { primaryDomain: host }], published: true, active: true },
    orderBy: { id: "asc" },
    take: 1,
  });
  if (!shops[0]) throw notFoundShop(`on ${host}`);
  return { shop: shopPageJson(shops[0], await followerCount(shops[0].id)) };
}
