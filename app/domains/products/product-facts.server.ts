// The product catalogue: products keyed by canonical URL, their localized
// title/description/image per market, current price per market and price
// history. Saves and rescrapes write through here.
// Every statement is prepared once (app/db/sql.server.ts): saves run them.
import type { Product, ProductLocalization } from "~/db.server";
import { exec, one, run, statement, transaction, type Op } from "~/db/sql.server";
import { log, errorFields } from "~/lib/log.server";
import { copyImage } from "~/domains/media/image-store.server";

export interface ProductFacts {
  title?: string | null;
  description?: string | null;
  imageUrl?: string | null;
  priceMinor?: number | null;
  currency?: string | null;
  compareAtPriceMinor?: number | null;
  brand?: string | null;
  productType?: string | null;
  tags?: string[] | null;
  rawProductId?: string | null;
}

export interface ProductSource {
  partnerId: number | null;
  shopId: number | null;
  domain: string | null;
}

/** Json columns: Prisma stores JSON text on SQLite; PostgreSQL parses the same text into jsonb. */
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

const PRODUCT_BY_URL = statement<Pick<Product, "id" | "sourcePartnerId"> & { titled: boolean }>(
  "product_by_url",
  `SELECT p."id", p."sourcePartnerId",
          EXISTS (SELECT 1 FROM "ProductLocalization" l WHERE l."productId" = p."id" AND l."title" <> '') AS "titled"
   FROM "Product" p WHERE p."canonicalUrl" = $1`,
  { titled: "bool" },
);

/**
 * The product of a canonical URL, if known, and whether the catalogue holds a
 * titled entry of it in any market (else a save scrapes it again).
 */
export const findProduct = (canonicalUrl: string) => exec(one(PRODUCT_BY_URL, canonicalUrl));

type ProductKey = Pick<Product, "id" | "rawProductId">;

const PRODUCT_KEY = statement<ProductKey>("product_key_by_url", `SELECT "id", "rawProductId" FROM "Product" WHERE "canonicalUrl" = $1`);

// ON CONFLICT: concurrent first saves meet on one row (the no-op update makes RETURNING give it).
const INSERT_PRODUCT = statement<ProductKey>(
  "product_insert",
  `INSERT INTO "Product" ("canonicalUrl", "brand", "productType", "tags", "rawProductId", "sourcePartnerId", "sourceShopId", "sourceDomain", "createdAt", "updatedAt")
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
   ON CONFLICT ("canonicalUrl") DO UPDATE SET "canonicalUrl" = excluded."canonicalUrl"
   RETURNING "id", "rawProductId"`,
);

/** The product of a canonical URL, created if missing (known products cost one read). */
export function* upsertProduct(canonicalUrl: string, facts: ProductFacts, source: ProductSource): Op<ProductKey> {
  const known = yield* one(PRODUCT_KEY, canonicalUrl);
  if (known) return known;
  const created = yield* one(
    INSERT_PRODUCT,
    canonicalUrl,
    facts.brand ?? null,
    facts.productType ?? null,
    json(facts.tags),
    facts.rawProductId ?? null,
    source.partnerId,
    source.shopId,
    source.domain,
    new Date(),
  );
  return created!;
}

/** Facts whose image is already copied into storage: what a transaction may write without network I/O. */
export interface StoredFacts extends ProductFacts {
  /** The stored copy's URL; null when copying failed (the original is then shown). */
  storedImageUrl?: string | null;
}

/** Copies the facts' image into storage (network I/O: do it before any transaction). */
export async function withStoredImage(facts: ProductFacts): Promise<StoredFacts> {
  return facts.imageUrl ? { ...facts, storedImageUrl: await storedImage(facts.imageUrl) } : facts;
}

type StoredLocalization = Pick<
  ProductLocalization,
  "title" | "description" | "imageUrl" | "originalImageUrl" | "priceMinor" | "currency" | "compareAtPriceMinor"
>;

const LOCALIZATION = statement<StoredLocalization>(
  "product_localization",
  `SELECT "title", "description", "imageUrl", "originalImageUrl", "priceMinor", "currency", "compareAtPriceMinor"
   FROM "ProductLocalization" WHERE "productId" = $1 AND "market" = $2`,
);

// Inserts the market's entry, or updates the groups of columns whose flag is
// set ($11 title, $12 description, $13 image, $14 price) and keeps the rest.
const UPSERT_LOCALIZATION = statement(
  "product_localization_upsert",
  `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "imageUrl", "originalImageUrl",
     "priceMinor", "currency", "compareAtPriceMinor", "updatedAt")
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   ON CONFLICT ("productId", "market") DO UPDATE SET
     "title" = CASE WHEN $11 THEN excluded."title" ELSE "ProductLocalization"."title" END,
     "description" = CASE WHEN $12 THEN excluded."description" ELSE "ProductLocalization"."description" END,
     "imageUrl" = CASE WHEN $13 THEN excluded."imageUrl" ELSE "ProductLocalization"."imageUrl" END,
     "originalImageUrl" = CASE WHEN $13 THEN excluded."originalImageUrl" ELSE "ProductLocalization"."originalImageUrl" END,
     "priceMinor" = CASE WHEN $14 THEN excluded."priceMinor" ELSE "ProductLocalization"."priceMinor" END,
     "currency" = CASE WHEN $14 THEN excluded."currency" ELSE "ProductLocalization"."currency" END,
     "compareAtPriceMinor" = CASE WHEN $14 THEN excluded."compareAtPriceMinor" ELSE "ProductLocalization"."compareAtPriceMinor" END,
     "updatedAt" = excluded."updatedAt"`,
);

const INSERT_PRICE_POINT = statement(
  "price_point_insert",
  `INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "compareAtPriceMinor", "recordedAt")
   VALUES ($1, $2, $3, $4, $5, $6)`,
);

// Given values replace stored ones (null = keep).
const UPDATE_PRODUCT_FACTS = statement(
  "product_facts_update",
  `UPDATE "Product" SET "brand" = COALESCE($2, "brand"), "productType" = COALESCE($3, "productType"),
     "tags" = COALESCE($4, "tags"), "updatedAt" = $5
   WHERE "id" = $1`,
);

/**
 * Writes what an entitled source (the page's own scrape, the shop's platform)
 * knows about the product in one
 * market: given values replace stored ones, missing ones are kept; a price
 * that differs from the current one is recorded in the history. Shared by every list holding the product, so
 * nothing a shopper typed ever comes through here. A step of the caller's transaction.
 */
export function* recordCatalogFacts(productId: number, market: string, facts: StoredFacts): Op<void> {
  const now = new Date();
  const current = yield* one(LOCALIZATION, productId, market);
  const data: Partial<StoredLocalization> = {};
  if (facts.title) data.title = facts.title;
  if (facts.description) data.description = facts.description;
  if (facts.imageUrl && (facts.imageUrl !== current?.originalImageUrl || !current?.imageUrl)) {
    data.originalImageUrl = facts.imageUrl;
    data.imageUrl = facts.storedImageUrl ?? null;
  }
  if (facts.priceMinor != null) {
    data.priceMinor = facts.priceMinor;
    data.currency = facts.currency ?? current?.currency ?? "EUR";
    data.compareAtPriceMinor = facts.compareAtPriceMinor ?? null;
  }
  const target = { ...data };
  // Repeat saves mostly carry what is already stored: write only what changed.
  if (current) {
    for (const key of Object.keys(data) as (keyof StoredLocalization)[]) {
      if (current[key] === data[key]) delete data[key];
    }
  }
  if (Object.keys(data).length > 0) {
    const changed = (...keys: (keyof StoredLocalization)[]) => keys.some((key) => key in data);
    yield* run(
      UPSERT_LOCALIZATION,
      productId,
      market,
      target.title ?? facts.title ?? "",
      target.description ?? facts.description ?? "",
      target.imageUrl ?? null,
      target.originalImageUrl ?? null,
      target.priceMinor ?? null,
      target.currency ?? null,
      target.compareAtPriceMinor ?? null,
      now,
      changed("title"),
      changed("description"),
      changed("imageUrl", "originalImageUrl"),
      changed("priceMinor", "currency", "compareAtPriceMinor"),
    );
  }
  // The history records changes: a price point only when the amount or the
  // currency differs from the market's current price (repeat saves would
  // otherwise add a row each).
  const currency = facts.currency ?? current?.currency ?? "EUR";
  if (facts.priceMinor != null && (facts.priceMinor !== current?.priceMinor || currency !== current?.currency)) {
    yield* run(INSERT_PRICE_POINT, productId, market, facts.priceMinor, currency, facts.compareAtPriceMinor ?? null, now);
  }
  const brand = facts.brand || null;
  const productType = facts.productType || null;
  const tags = facts.tags?.length ? facts.tags : null;
  if (brand || productType || tags) yield* run(UPDATE_PRODUCT_FACTS, productId, brand, productType, json(tags), now);
}

/** `recordCatalogFacts` outside a save (rescrape, the shop's platform): copies the image first. */
export async function recordMarketFacts(productId: number, market: string, facts: ProductFacts) {
  const stored = await withStoredImage(facts);
  await transaction(recordCatalogFacts(productId, market, stored));
}

/** The stored copy's URL; null when the image cannot be copied (the original is still shown). */
async function storedImage(sourceUrl: string): Promise<string | null> {
  try {
    return (await copyImage(sourceUrl)).url;
  } catch (err) {
    log.warn("image copy failed", { url: sourceUrl, ...errorFields(err), stack: undefined });
    return null;
  }
}
