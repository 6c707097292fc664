// Storefront pages of platform shops (SPEC 4.8 Shops, docs/api.md "Shops"): the
// public page data (`/shops/{handle}`), its products, categories, curated
// lists, trending products, and follows. A page answers only when the shop
// is published and installed; anything else is 404 `shop_not_found`.
//
// Pagination: `limit` and an opaque `cursor`; answers carry `next_cursor`
// (null on the last page). Products are ordered newest first by id (an index
// range, no offset); curated lists and follows page by position.
import { db } from "~/db.server";
import { productPageRows, shopByHandle, shopTrendingProducts, type PageRow, type ShopRow } from "./shops.sql.server";

export type { ShopRow } from "./shops.sql.server";
import { parseDatabaseUrl } from "~/db/url";
import { env } from "~/env.server";
import { ApiError, badRequest, notFound } from "~/lib/api/errors";
import { safeImageUrl } from "~/lib/api/schemas";
import { pickLocalization, type Locale, type Localization } from "~/domains/lists/serialize";

const siteUrl = () => env.APP_URL.replace(/\/$/, "");
const caseInsensitive = parseDatabaseUrl(env.DATABASE_URL).kind === "postgresql" ? { mode: "insensitive" } : {};

export const TRENDING_DAYS = 7;
const DAY = 86_400_000;

export const shopPageUrl = (handle: string) => `${siteUrl()}/shops/${encodeURIComponent(handle)}`;

export function storefrontJson(shop: ShopRow, followerCount: number) {
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
  return { shop: storefrontJson(shop, await followerCount(shop.id)) };
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
  return { shop: storefrontJson(shops[0], await followerCount(shops[0].id)) };
}

// ------------------------------------------------------------------ products

const productInclude = { localizations: true } as const;
type ProductWithLocalizations = {
  id: number;
  canonicalUrl: string | null;
  brand: string | null;
  productType: string | null;
  available: boolean | null;
  createdAt: Date;
  localizations: Localization[];
};

export function storefrontProductJson(p: ProductWithLocalizations, locale: Locale) {
  const loc = pickLocalization(p.localizations, locale);
  const priced = loc?.priceMinor != null ? loc : p.localizations.find((l) => l.priceMinor != null);
  return {
    id: p.id,
    title: loc?.title ?? "",
    description: loc?.description ?? "",
    imageUrl: safeImageUrl(loc?.imageUrl ?? loc?.originalImageUrl),
    url: p.canonicalUrl,
    price_minor: priced?.priceMinor ?? null,
    currency: priced?.currency ?? null,
    compare_at_price_minor: priced?.compareAtPriceMinor ?? null,
    brand: p.brand,
    product_type: p.productType,
    available: p.available,
    created_at: p.createdAt.toISOString(),
  };
}

export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** Ids are 32-bit integers on PostgreSQL: "before the largest" is the first page. */
const MAX_ID = 2_147_483_647;

/** An id cursor: the last id of the previous page. */
function idCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const id = /^\d{1,10}$/.test(cursor) ? Number(cursor) : NaN;
  if (!(id <= MAX_ID)) throw badRequest("invalid_input", "cursor: not a cursor this route gave");
  return id;
}

/** An offset cursor (curated lists, follows). */
function offsetCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^o(\d{1,9})$/.exec(cursor);
  if (!match) throw badRequest("invalid_input", "cursor: not a cursor this route gave");
  return Number(match[1]);
}

async function productPage(
  where: Record<string, unknown>,
  page: PageQuery,
  locale: Locale,
) {
  const before = idCursor(page.cursor);
  const rows = await db.product.findMany({
    where: { ...where, ...(before !== undefined ? { id: { lt: before } } : {}) },
    orderBy: { id: "desc" },
    take: page.limit + 1,
    include: productInclude,
  });
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return {
    products: shown.map((p) => storefrontProductJson(p, locale)),
    next_cursor: more ? String(shown[shown.length - 1]!.id) : null,
  };
}

function productsOfRows(rows: PageRow[]): ProductWithLocalizations[] {
  const products: ProductWithLocalizations[] = [];
  for (const r of rows) {
    let p = products[products.length - 1];
    if (!p || p.id !== r.id) {
      const available = r.available === null ? null : r.available === true || r.available === 1 || r.available === 1n;
      p = { id: r.id, canonicalUrl: r.canonicalUrl, brand: r.brand, productType: r.productType, available, createdAt: r.createdAt, localizations: [] };
      products.push(p);
    }
    if (r.market !== null) {
      p.localizations.push({
        market: r.market,
        title: r.title ?? "",
        description: r.description ?? "",
        imageUrl: r.imageUrl,
        originalImageUrl: r.originalImageUrl,
        priceMinor: r.priceMinor,
        currency: r.currency,
        compareAtPriceMinor: r.compareAtPriceMinor,
      });
    }
  }
  return products;
}

/** The shop's products, newest first; `category` is a product type. */
export async function shopProducts(handle: string | undefined, query: PageQuery & Locale & { category?: string }) {
  const shop = await publishedShop(handle);
  const before = idCursor(query.cursor) ?? MAX_ID;
  const rows = productsOfRows(await productPageRows(shop.id, before, query.limit + 1, query.category));
  const more = rows.length > query.limit;
  const shown = more ? rows.slice(0, query.limit) : rows;
  return {
    products: shown.map((p) => storefrontProductJson(p, query)),
    next_cursor: more ? String(shown[shown.length - 1]!.id) : null,
  };
}

/** The shop's products whose title, brand or type contains `q` (any case), newest first. */
export async function searchShopProducts(handle: string | undefined, query: PageQuery & Locale & { q: string }) {
  const shop = await publishedShop(handle);
  const contains = { contains: query.q, ...caseInsensitive };
  return {
    q: query.q,
    ...(await productPage(
      {
        sourceShopId: shop.id,
        OR: [{ localizations: { some: { title: contains } } }, { brand: contains }, { productType: contains }],
      },
      query,
      query,
    )),
  };
}

/** The product types of the shop's products with how many each has, most first. */
export async function shopCategories(handle: string | undefined) {
  const shop = await publishedShop(handle);
  const groups = await db.product.groupBy({
    by: ["productType"],
    where: { sourceShopId: shop.id, productType: { not: null } },
    _count: { _all: true },
  });
  const categories = groups
    .filter((g) => g.productType)
    .map((g) => ({ name: g.productType!, product_count: g._count._all }))
    .sort((a, b) => b.product_count - a.product_count || a.name.localeCompare(b.name));
  return { categories };
}

/** The shop's products saved most in the last 7 days. */
export async function shopTrending(handle: string | undefined, query: Locale & { limit: number }, now = new Date()) {
  const shop = await publishedShop(handle);
  const ranked = await shopTrendingProducts(shop.id, new Date(now.getTime() - TRENDING_DAYS * DAY), query.limit);
  const rows = await db.product.findMany({ where: { id: { in: ranked.map((r) => r.productId) } }, include: productInclude });
  const byId = new Map(rows.map((p) => [p.id, p]));
  return {
    window_days: TRENDING_DAYS,
    products: ranked
      .filter((r) => byId.has(r.productId))
      .map((r) => ({ ...storefrontProductJson(byId.get(r.productId)!, query), saves: Number(r.saves) })),
  };
}

// ------------------------------------------------------------------ curated lists

interface ShopListRow {
  id: number;
  slug: string;
  title: string;
  description: string;
  featured: boolean;
  position: number;
  updatedAt: Date;
}

export function shopListJson(list: ShopListRow, productCount: number) {
  return {
    slug: list.slug,
    title: list.title,
    description: list.description,
    featured: list.featured,
    position: list.position,
    product_count: productCount,
    updated_at: list.updatedAt.toISOString(),
  };
}

/** Products per list, counted by ShopListProduct(shopListId) for these lists only (a `_count` include would count every list's). */
export async function listProductCounts(listIds: number[]): Promise<Map<number, number>> {
  if (listIds.length === 0) return new Map();
  const groups = await db.shopListProduct.groupBy({ by: ["shopListId"], where: { shopListId: { in: listIds } }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.shopListId, g._count._all]));
}

const listOrder = [{ position: "asc" as const }, { id: "asc" as const }];

export async function shopLists(handle: string | undefined) {
  const shop = await publishedShop(handle);
  const lists = await db.shopList.findMany({ where: { shopId: shop.id }, orderBy: listOrder });
  const counts = await listProductCounts(lists.map((l) => l.id));
  return { lists: lists.map((l) => shopListJson(l, counts.get(l.id) ?? 0)) };
}

export const FEATURED_PREVIEW = 8;

/** Featured lists with their first products. */
export async function shopFeaturedLists(handle: string | undefined, locale: Locale) {
  const shop = await publishedShop(handle);
  const lists = await db.shopList.findMany({
    where: { shopId: shop.id, featured: true },
    orderBy: listOrder,
    include: {
      products: { orderBy: [{ position: "asc" }, { productId: "asc" }], take: FEATURED_PREVIEW, include: { product: { include: productInclude } } },
    },
  });
  const counts = await listProductCounts(lists.map((l) => l.id));
  return {
    lists: lists.map((l) => ({ ...shopListJson(l, counts.get(l.id) ?? 0), products: l.products.map((e) => storefrontProductJson(e.product, locale)) })),
  };
}

export async function shopListProducts(handle: string | undefined, slug: string | undefined, query: PageQuery & Locale) {
  const shop = await publishedShop(handle);
  const list = slug
    ? await db.shopList.findUnique({ where: { shopId_slug: { shopId: shop.id, slug } } })
    : null;
  if (!list) throw notFound("not_found", `This shop has no list ${JSON.stringify(slug ?? "")}`);
  const offset = offsetCursor(query.cursor);
  const entries = await db.shopListProduct.findMany({
    where: { shopListId: list.id },
    orderBy: [{ position: "asc" }, { productId: "asc" }],
    skip: offset,
    take: query.limit + 1,
    include: { product: { include: productInclude } },
  });
  const more = entries.length > query.limit;
  const shown = more ? entries.slice(0, query.limit) : entries;
  return {
    list: shopListJson(list, (await listProductCounts([list.id])).get(list.id) ?? 0),
    products: shown.map((e) => storefrontProductJson(e.product, query)),
    next_cursor: more ? `o${offset + query.limit}` : null,
  };
}

// ------------------------------------------------------------------ follows

async function followState(shopId: number, following: boolean) {
  return { following, follower_count: await followerCount(shopId) };
}

/** Idempotent: following twice keeps the first follow's date. */
export async function followShop(handle: string | undefined, userId: string) {
  const shop = await publishedShop(handle);
  await db.shopFollow.upsert({
    where: { shopId_userId: { shopId: shop.id, userId } },
    create: { shopId: shop.id, userId },
    update: {},
  });
  return followState(shop.id, true);
}

export async function unfollowShop(handle: string | undefined, userId: string) {
  const shop = await publishedShop(handle);
  await db.shopFollow.deleteMany({ where: { shopId: shop.id, userId } });
  return followState(shop.id, false);
}

/** The published shops the user follows, most recently followed first. */
export async function followedShops(userId: string, page: PageQuery) {
  const offset = offsetCursor(page.cursor);
  const where = { userId, shop: { published: true, active: true } };
  const follows = await db.shopFollow.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { shopId: "desc" }],
    skip: offset,
    take: page.limit + 1,
    include: { shop: true },
  });
  const more = follows.length > page.limit;
  const shown = more ? follows.slice(0, page.limit) : follows;
  // Followers of these shops only, by ShopFollow(shopId, …) (a `_count` include would count every shop's).
  const ids = shown.map((f) => f.shopId);
  const groups = ids.length ? await db.shopFollow.groupBy({ by: ["shopId"], where: { shopId: { in: ids } }, _count: { _all: true } }) : [];
  const counts = new Map(groups.map((g) => [g.shopId, g._count._all]));
  return {
    shops: shown.map((f) => ({ ...storefrontJson(f.shop, counts.get(f.shopId) ?? 0), followed_at: f.createdAt.toISOString() })),
    next_cursor: more ? `o${offset + page.limit}` : null,
  };
}

/** Follower counts: all, and those who followed in the last 7 and 30 days. */
export async function followerStats(shopId: number, now = new Date()) {
  const since = (days: number) => new Date(now.getTime() - days * DAY);
  const [total, last7, last30] = await Promise.all([
    db.shopFollow.count({ where: { shopId } }),
    db.shopFollow.count({ where: { shopId, createdAt: { gte: since(7) } } }),
    db.shopFollow.count({ where: { shopId, createdAt: { gte: since(30) } } }),
  ]);
  return { total, last_7_days: last7, last_30_days: last30 };
}

export async function shopFollowerAnalytics(handle: string | undefined) {
  const shop = await publishedShop(handle);
  return { handle: shop.handle!, followers: await followerStats(shop.id) };
}

/**
 * The follower counts of the shops of the signed-in portal user's partner
 * (published or not): 404 `no_partner` without a partner, 400
 * `no_linked_shop` when the partner has no platform shop.
 */
export async function myFollowerAnalytics(partnerId: number | null) {
  if (partnerId === null) throw notFound("no_partner", "This user is not linked to a partner");
  const shops = await db.platformShop.findMany({ where: { partnerId }, orderBy: { id: "asc" } });
  if (shops.length === 0) throw new ApiError(400, "no_linked_shop", "The partner has no linked platform shop");
  const rows = await Promise.all(
    shops.map(async (s) => ({ shop_id: s.id, handle: s.handle, published: s.published, followers: await followerStats(s.id) })),
  );
  const sum = (key: "total" | "last_7_days" | "last_30_days") => rows.reduce((n, r) => n + r.followers[key], 0);
  return { shops: rows, followers: { total: sum("total"), last_7_days: sum("last_7_days"), last_30_days: sum("last_30_days") } };
}
