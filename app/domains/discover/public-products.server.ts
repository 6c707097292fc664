// The retailer catalogue as the public sees it (GET /discover/products/*,
// /products/*, search, and the product cards of trending and stores). Only
// catalogue facts: manual products (a shopper's own typed entries) and the
// saver's own facts on list items are never shown here.
import { readDb } from "~/db/replica.server";
import { searchProductIds } from "./discover.sql.server";
import { badRequest, notFound } from "~/lib/api/errors";
import { safeImageUrl } from "~/lib/api/schemas";
import { pickLocalization } from "~/domains/products/localization";

/** `{productId}`: a positive integer, else 400 `invalid_product_id`. */
export function parseProductId(value: string | undefined): number {
  const id = /^[1-9][0-9]{0,14}$/.test(value ?? "") ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) throw badRequest("invalid_product_id", "productId must be a positive integer");
  return id;
}

const productSelect = {
  id: true,
  canonicalUrl: true,
  brand: true,
  productType: true,
  tags: true,
  rating: true,
  reviewCount: true,
  sourceDomain: true,
  available: true,
  createdAt: true,
  updatedAt: true,
  localizations: {
    select: {
      market: true,
      title: true,
      description: true,
      imageUrl: true,
      originalImageUrl: true,
      priceMinor: true,
      currency: true,
      compareAtPriceMinor: true,
      updatedAt: true,
    },
    orderBy: { market: "asc" as const },
  },
};

type ProductRow = NonNullable<Awaited<ReturnType<typeof loadProduct>>>;

const loadProduct = (id: number) =>
  readDb.product.findFirst({ where: { id, isManual: false }, select: productSelect });

const imageOf = (l: { imageUrl: string | null; originalImageUrl: string | null } | undefined) =>
  safeImageUrl(l?.imageUrl) ?? safeImageUrl(l?.originalImageUrl);

/** A product card: the facts in the asked market (else the best other one). */
export function productCard(p: ProductRow, market: string | undefined) {
  const chosen = pickLocalization(p.localizations, { market });
  return {
    id: p.id,
    title: chosen?.title ?? "",
    imageUrl: imageOf(chosen),
    url: p.canonicalUrl,
    price_minor: chosen?.priceMinor ?? null,
    currency: chosen?.currency ?? null,
    compare_at_price_minor: chosen?.compareAtPriceMinor ?? null,
    brand: p.brand,
    product_type: p.productType,
    source_domain: p.sourceDomain,
    market: chosen?.market ?? null,
  };
}

/** Products by id with their localizations, in the order of `ids` (unknown and manual ones left out). */
export async function productCards(ids: number[], market: string | undefined) {
  if (ids.length === 0) return [];
  const rows = await readDb.product.findMany({ where: { id: { in: ids }, isManual: false }, select: productSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [productCard(row, market)] : [];
  });
}

/** `GET /discover/products/{productId}` and `GET /products/{productId}`. */
export async function productDetail(productIdParam: string | undefined, market: string | undefined) {
  const id = parseProductId(productIdParam);
  const row = await loadProduct(id);
  if (!row) throw notFound("product_not_found", `No product ${id}`);
  const saveCount = await readDb.listItem.count({ where: { productId: id } });
  return {
    product: {
      ...productCard(row, market),
      tags: Array.isArray(row.tags) ? row.tags : [],
      rating: row.rating,
      review_count: row.reviewCount,
      available: row.available,
      save_count: saveCount,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      localizations: row.localizations.map((l) => ({
        market: l.market,
        title: l.title,
        description: l.description,
        imageUrl: imageOf(l),
        price_minor: l.priceMinor,
        currency: l.currency,
        compare_at_price_minor: l.compareAtPriceMinor,
        updated_at: l.updatedAt.toISOString(),
      })),
    },
  };
}

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface SearchQuery {
  q: string;
  market?: string;
  limit: number;
  offset: number;
}

/** `GET /discover/search` and `GET /products/search`: products whose title contains `q`, newest first. */
export async function searchProducts({ q, market, limit, offset }: SearchQuery) {
  const rows = await searchProductIds(likePattern(q), market ?? "", limit + 1, offset);
  const ids = rows.slice(0, limit).map((r) => r.id);
  return {
    q,
    products: await productCards(ids, market),
    limit,
    offset,
    has_more: rows.length > limit,
    next_offset: rows.length > limit ? offset + limit : null,
  };
}

export interface PriceHistoryQuery {
  market?: string;
  currency?: string;
  days: number;
}

const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * `GET /discover/products/{productId}/price-history`: one point per UTC day
 * per market and currency: the day's closing price (the last one recorded
 * that day) with the day's low and high. Days without a recorded change have
 * no point (the price held).
 */
export async function priceHistory(productIdParam: string | undefined, query: PriceHistoryQuery) {
  const id = parseProductId(productIdParam);
  const product = await readDb.product.findFirst({ where: { id, isManual: false }, select: { id: true } });
  if (!product) throw notFound("product_not_found", `No product ${id}`);
  const since = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - (query.days - 1) * DAY_MS);
  const points = await readDb.pricePoint.findMany({
    where: {
      productId: id,
      recordedAt: { gte: since },
      ...(query.market !== undefined ? { market: query.market } : {}),
      ...(query.currency ? { currency: query.currency.toUpperCase() } : {}),
    },
    orderBy: [{ recordedAt: "asc" }, { id: "asc" }],
    select: { market: true, currency: true, priceMinor: true, compareAtPriceMinor: true, recordedAt: true },
  });
  type Point = { date: string; price_minor: number; low_minor: number; high_minor: number; compare_at_price_minor: number | null; recorded_at: string };
  const series = new Map<string, { market: string; currency: string; points: Point[] }>();
  for (const p of points) {
    const key = `${p.market}\u0000${p.currency}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { market: p.market, currency: p.currency, points: [] }));
    const date = dayOf(p.recordedAt);
    const last = s.points.at(-1);
    if (last?.date === date) {
      last.price_minor = p.priceMinor;
      last.low_minor = Math.min(last.low_minor, p.priceMinor);
      last.high_minor = Math.max(last.high_minor, p.priceMinor);
      last.compare_at_price_minor = p.compareAtPriceMinor;
      last.recorded_at = p.recordedAt.toISOString();
    } else {
      s.points.push({
        date,
        price_minor: p.priceMinor,
        low_minor: p.priceMinor,
        high_minor: p.priceMinor,
        compare_at_price_minor: p.compareAtPriceMinor,
        recorded_at: p.recordedAt.toISOString(),
      });
    }
  }
  const sorted = [...series.values()].sort((a, b) => a.market.localeCompare(b.market) || a.currency.localeCompare(b.currency));
  return { product_id: id, days: query.days, since: dayOf(since), series: sorted };
}
