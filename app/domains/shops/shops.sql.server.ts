// The shops' hot statements: a shop page by handle, a page of its products
// with their localizations, its trending products (shop-pages, shop-products), and
// the installed shops among a share page's link hosts (lists/wish-ref.server.ts).
import type { ListItem, PlatformShop, Product, ProductLocalization } from "~/db.server";
import { all, exec, fields, one, statement, type Op, type RowOf } from "~/db/sql.server";

const SHOP = fields<PlatformShop>()(
  "id",
  "partnerId",
  "domain",
  "name",
  "primaryDomain",
  "handle",
  "published",
  "description",
  "active",
  "installedAt",
  "updatedAt",
);
/** What a shop's page (storefrontJson) is made from. */
export type ShopRow = RowOf<typeof SHOP>;

const SHOP_BY_HANDLE = statement<ShopRow>(
  "storefront_shop_by_handle",
  `SELECT ${SHOP.sql()}
     FROM "PlatformShop" WHERE "handle" = $1`,
  { published: "bool", active: "bool", installedAt: "date", updatedAt: "date" },
);

/** The shop with this handle, published or not. */
export const shopByHandle = (handle: string) => exec(one(SHOP_BY_HANDLE, handle));

// A page of the shop's products (the Product(sourceShopId, productType, id) and
// (sourceShopId, id) index ranges) with all their localizations, in one statement.
export type PageRow = Pick<Product, "id" | "canonicalUrl" | "brand" | "productType" | "available" | "createdAt"> &
  OrNull<Pick<ProductLocalization, "market" | "title" | "description" | "imageUrl" | "originalImageUrl" | "priceMinor" | "currency" | "compareAtPriceMinor">>;
/** A LEFT JOIN's columns: null where the product has no localization. */
type OrNull<T> = { [K in keyof T]: T[K] | null };
const pageSql = (filter: string) =>
  `SELECT p."id", p."canonicalUrl", p."brand", p."productType", p."available", p."createdAt",
          l."market", l."title", l."description", l."imageUrl", l."originalImageUrl", l."priceMinor", l."currency", l."compareAtPriceMinor"
     FROM (SELECT "id", "canonicalUrl", "brand", "productType", "available", "createdAt" FROM "Product"
            WHERE "sourceShopId" = $1 AND "id" < $2${filter} ORDER BY "id" DESC LIMIT $3) p
     LEFT JOIN "ProductLocalization" l ON l."productId" = p."id"
    ORDER BY p."id" DESC`;
const PRODUCT_PAGE = statement<PageRow>("storefront_products", pageSql(""), { createdAt: "date", available: "bool" });
const CATEGORY_PAGE = statement<PageRow>("storefront_category_products", pageSql(` AND "productType" = $4`), { createdAt: "date", available: "bool" });

/** Up to `limit` of the shop's products with ids below `before` (of one product type), newest first, one row per localization. */
export function productPageRows(shopId: number, before: number, limit: number, productType?: string): Promise<PageRow[]> {
  return productType ? exec(all(CATEGORY_PAGE, shopId, before, limit, productType)) : exec(all(PRODUCT_PAGE, shopId, before, limit));
}

// Saves of the shop's products in the window: the shop's products by
// Product(sourceShopId, id), then each one's recent saves by ListItem(productId, addedAt).
const TRENDING = statement<Pick<ListItem, "productId"> & { saves: number }>(
  "shop_trending",
  `SELECT i."productId" AS "productId", COUNT(*) AS "saves"
     FROM "Product" p JOIN "ListItem" i ON i."productId" = p."id"
    WHERE p."sourceShopId" = $1 AND i."addedAt" >= $2
    GROUP BY i."productId"
    ORDER BY COUNT(*) DESC, i."productId" DESC
    LIMIT $3`,
);

/** The shop's products with the most saves since `since`, most first. */
export const shopTrendingProducts = (shopId: number, since: Date, limit: number) => exec(all(TRENDING, shopId, since, limit));

// Active shops among up to HOST_SLOTS hosts (unused slots are null, which matches nothing): one prepared statement per share page.
// Equalities joined by OR, not `IN (…)`: SQLite builds a temporary table for every IN list of two or more values,
// which made this lookup of a few rows cost ten times as much (about 25 µs against 2.5 µs).
const HOST_SLOTS = 8;
const slots = (column: string) => Array.from({ length: HOST_SLOTS }, (_, i) => `"${column}" = $${i + 1}`).join(" OR ");
const HOST_SHOP = fields<PlatformShop>()("domain", "primaryDomain", "name", "partnerId");
const SHOPS_OF_HOSTS = statement<RowOf<typeof HOST_SHOP>>(
  "active_shops_of_hosts",
  `SELECT ${HOST_SHOP.sql()} FROM "PlatformShop"
   WHERE "active" = true AND (${slots("domain")} OR ${slots("primaryDomain")})`,
);

function* shopsOf(hosts: string[]): Op<RowOf<typeof HOST_SHOP>[]> {
  const shops = [];
  for (let i = 0; i < hosts.length; i += HOST_SLOTS) {
    const chunk = hosts.slice(i, i + HOST_SLOTS);
    shops.push(...(yield* all(SHOPS_OF_HOSTS, ...chunk, ...Array<null>(HOST_SLOTS - chunk.length).fill(null))));
  }
  return shops;
}

/** The active shops whose domain or primary domain is one of `hosts`. */
export const activeShopsOfHosts = (hosts: string[]) => exec(shopsOf(hosts));
