// The items of one list with their products and localizations, in one SQL
// join. This is the read behind every list view (owner and share page); the
// equivalent Prisma `include` costs about five times as much per call
// (measured: 4.2 ms vs 0.8 ms for 50 items on SQLite), so the hot path reads
// raw rows and shapes them here. The SQL is the same on SQLite and PostgreSQL;
// only value types differ (0/1 vs booleans, ISO text vs Date, bigint vs number).
import { db } from "~/db.server";
import type { ItemRow, Localization } from "./serialize";

interface Row {
  itemId: number | bigint;
  wishlistId: number | bigint;
  purchased: boolean | number | bigint;
  priority: number | bigint | null;
  sourceLabel: string | null;
  priceOverrideMinor: number | bigint | null;
  currencyOverride: string | null;
  ownTitle: string | null;
  ownDescription: string | null;
  ownImageUrl: string | null;
  ownPriceMinor: number | bigint | null;
  ownCurrency: string | null;
  addedAt: Date | string | number;
  productId: number | bigint;
  canonicalUrl: string | null;
  brand: string | null;
  rating: number | null;
  reviewCount: number | bigint | null;
  market: string | null;
  title: string | null;
  description: string | null;
  imageUrl: string | null;
  originalImageUrl: string | null;
  priceMinor: number | bigint | null;
  currency: string | null;
  compareAtPriceMinor: number | bigint | null;
}

const int = (v: number | bigint | null) => (v === null ? null : Number(v));

/** Items of the list, newest first, shaped like the Prisma rows the serializers take. */
export async function readListItems(wishlistId: number): Promise<ItemRow[]> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT i."id" AS "itemId", i."wishlistId", i."purchased", i."priority", i."sourceLabel",
           i."priceOverrideMinor", i."currencyOverride", i."addedAt",
           i."ownTitle", i."ownDescription", i."ownImageUrl", i."ownPriceMinor", i."ownCurrency",
           p."id" AS "productId", p."canonicalUrl", p."brand", p."rating", p."reviewCount",
           l."market", l."title", l."description", l."imageUrl", l."originalImageUrl",
           l."priceMinor", l."currency", l."compareAtPriceMinor"
    FROM "ListItem" i
    JOIN "Product" p ON p."id" = i."productId"
    LEFT JOIN "ProductLocalization" l ON l."productId" = p."id"
    WHERE i."wishlistId" = ${wishlistId}
    ORDER BY i."addedAt" DESC, i."id" DESC, l."market" ASC`;

  const items = new Map<number, ItemRow>();
  for (const r of rows) {
    const id = Number(r.itemId);
    let item = items.get(id);
    if (!item) {
      item = {
        id,
        wishlistId: Number(r.wishlistId),
        purchased: Boolean(Number(r.purchased)),
        priority: int(r.priority),
        sourceLabel: r.sourceLabel,
        priceOverrideMinor: int(r.priceOverrideMinor),
        currencyOverride: r.currencyOverride,
        ownTitle: r.ownTitle,
        ownDescription: r.ownDescription,
        ownImageUrl: r.ownImageUrl,
        ownPriceMinor: int(r.ownPriceMinor),
        ownCurrency: r.ownCurrency,
        addedAt: new Date(r.addedAt),
        product: {
          id: Number(r.productId),
          canonicalUrl: r.canonicalUrl,
          brand: r.brand,
          rating: r.rating === null ? null : Number(r.rating),
          reviewCount: int(r.reviewCount),
          localizations: [],
        },
      };
      items.set(id, item);
    }
    if (r.market !== null) {
      const localization: Localization = {
        market: r.market,
        title: r.title ?? "",
        description: r.description ?? "",
        imageUrl: r.imageUrl,
        originalImageUrl: r.originalImageUrl,
        priceMinor: int(r.priceMinor),
        currency: r.currency,
        compareAtPriceMinor: int(r.compareAtPriceMinor),
      };
      item.product.localizations.push(localization);
    }
  }
  return [...items.values()];
}
