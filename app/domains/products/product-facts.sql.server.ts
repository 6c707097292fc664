// The catalogue's statements (product-facts.server.ts, app/flows/product-webhooks.server.ts):
// saves run them, so each is prepared once. Writes are steps (Op) of the
// caller's transaction.
import type { PricePoint, Product, ProductLocalization } from "~/db.server";
import { exec, one, run, statement, type Op } from "~/db/sql.server";

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

export type ProductKey = Pick<Product, "id" | "rawProductId">;

const PRODUCT_KEY = statement<ProductKey>("product_key_by_url", `SELECT "id", "rawProductId" FROM "Product" WHERE "canonicalUrl" = $1`);

export const productKeyByUrl = (canonicalUrl: string) => one(PRODUCT_KEY, canonicalUrl);

// ON CONFLICT: concurrent first saves meet on one row (the no-op update makes RETURNING give it).
const INSERT_PRODUCT = statement<ProductKey>(
  "product_insert",
  `INSERT INTO "Product" ("canonicalUrl", "brand", "productType", "tags", "rawProductId", "sourcePartnerId", "sourceShopId", "sourceDomain", "createdAt", "updatedAt")
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
   ON CONFLICT ("canonicalUrl") DO UPDATE SET "canonicalUrl" = excluded."canonicalUrl"
   RETURNING "id", "rawProductId"`,
);

/** A new product (or the one a concurrent save just created); `tags` as JSON text. */
export function* insertProduct(
  p: Pick<Product, "canonicalUrl" | "brand" | "productType" | "rawProductId" | "sourcePartnerId" | "sourceShopId" | "sourceDomain" | "createdAt"> & {
    tags: string | null;
  },
): Op<ProductKey> {
  const row = yield* one(INSERT_PRODUCT, p.canonicalUrl, p.brand, p.productType, p.tags, p.rawProductId, p.sourcePartnerId, p.sourceShopId, p.sourceDomain, p.createdAt);
  return row!;
}

export type StoredLocalization = Pick<
  ProductLocalization,
  "title" | "description" | "imageUrl" | "originalImageUrl" | "priceMinor" | "currency" | "compareAtPriceMinor"
>;

const LOCALIZATION = statement<StoredLocalization>(
  "product_localization",
  `SELECT "title", "description", "imageUrl", "originalImageUrl", "priceMinor", "currency", "compareAtPriceMinor"
   FROM "ProductLocalization" WHERE "productId" = $1 AND "market" = $2`,
);

export const storedLocalization = (productId: number, market: string) => one(LOCALIZATION, productId, market);

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

/** Inserts the market's entry, or updates the groups of columns flagged in `replace` and keeps the rest. */
export const upsertLocalization = (
  l: Pick<
    ProductLocalization,
    "productId" | "market" | "title" | "description" | "imageUrl" | "originalImageUrl" | "priceMinor" | "currency" | "compareAtPriceMinor" | "updatedAt"
  >,
  replace: { title: boolean; description: boolean; image: boolean; price: boolean },
) =>
  run(
    UPSERT_LOCALIZATION,
    l.productId,
    l.market,
    l.title,
    l.description,
    l.imageUrl,
    l.originalImageUrl,
    l.priceMinor,
    l.currency,
    l.compareAtPriceMinor,
    l.updatedAt,
    replace.title,
    replace.description,
    replace.image,
    replace.price,
  );

const INSERT_PRICE_POINT = statement(
  "price_point_insert",
  `INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "compareAtPriceMinor", "recordedAt")
   VALUES ($1, $2, $3, $4, $5, $6)`,
);

export const insertPricePoint = (p: Pick<PricePoint, "productId" | "market" | "priceMinor" | "currency" | "compareAtPriceMinor" | "recordedAt">) =>
  run(INSERT_PRICE_POINT, p.productId, p.market, p.priceMinor, p.currency, p.compareAtPriceMinor, p.recordedAt);

// Given values replace stored ones (null = keep).
const UPDATE_PRODUCT_FACTS = statement(
  "product_facts_update",
  `UPDATE "Product" SET "brand" = COALESCE($2, "brand"), "productType" = COALESCE($3, "productType"),
     "tags" = COALESCE($4, "tags"), "updatedAt" = $5
   WHERE "id" = $1`,
);

/** Replaces the given facts (null keeps the stored one); `tags` as JSON text. */
export const updateProductFacts = (productId: number, brand: string | null, productType: string | null, tags: string | null, at: Date) =>
  run(UPDATE_PRODUCT_FACTS, productId, brand, productType, tags, at);

// The platform speaks for its product: availability, its id, and the entry's
// source (so an entry shoppers saved first joins the shop's catalogue).
const PLATFORM_STATE = statement(
  "product_platform_state",
  `UPDATE "Product" SET "available" = $2, "rawProductId" = $3, "updatedAt" = $4,
     "sourcePartnerId" = $5, "sourceShopId" = $6, "sourceDomain" = $7,
     "platformUpdatedAt" = COALESCE($8, "platformUpdatedAt")
   WHERE "id" = $1`,
);

/** The shop's platform's word on its product (a step of the caller's transaction). */
export const recordPlatformState = (
  productId: number,
  p: Pick<Product, "available" | "rawProductId" | "updatedAt" | "sourcePartnerId" | "sourceShopId" | "sourceDomain" | "platformUpdatedAt">,
) => run(PLATFORM_STATE, productId, p.available, p.rawProductId, p.updatedAt, p.sourcePartnerId, p.sourceShopId, p.sourceDomain, p.platformUpdatedAt);
