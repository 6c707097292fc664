// A shop page's products (SPEC 4.8): newest first, by category, search,
// categories and the products saved most this week.
import { db } from "~/db.server";
import { parseDatabaseUrl } from "~/db/url";
import { env } from "~/env.server";
import { safeImageUrl } from "~/lib/api/schemas";
import { pickLocalization, type Locale, type Localization } from "~/domains/products/localization";
import { idCursor, MAX_ID, type PageQuery } from "./paging";
import { publishedShop } from "./shop-pages.server";
import { productPageRows, shopTrendingProducts, type PageRow } from "./shops.sql.server";

const caseInsensitive = parseDatabaseUrl(env.DATABASE_URL).kind === "postgresql" ? { mode: "insensitive" } : {};

export const TRENDING_DAYS = 7;
const DAY = 86_400_000;

export const productInclude = { localizations: true } as const;
type ProductWithLocalizations = {
  id: number;
  canonicalUrl: string | null;
  brand: string | null;
  productType: string | null;
  available: boolean | null;
  createdAt: Date;
  localizations: Localization[];
};

export function shopProductJson(p: ProductWithLocalizations, locale: Locale) {
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
    products: shown.map((p) => shopProductJson(p, locale)),
    next_cursor: more ? String(shown[shown.length - 1]!.id) : null,
  };
}


function productsOfRows(rows: PageRow[]): ProductWithLocalizations[] {
  const products: ProductWithLocalizations[] = [];
  for (const r of rows) {
    let p = products[products.length - 1];
    if (!p || p.id !== r.id) {
      p = { id: r.id, canonicalUrl: r.canonicalUrl, brand: r.brand, productType: r.productType, available: r.available, createdAt: r.createdAt, localizations: [] };
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
    products: shown.map((p) => shopProductJson(p, query)),
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

// Saves of the shop's products in the window: the shop's products by
// Product(sourceShopId, id), then each one's recent saves by ListItem(productId, addedAt).
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
      .map((r) => ({ ...shopProductJson(byId.get(r.productId)!, query), saves: Number(r.saves) })),
  };
}
