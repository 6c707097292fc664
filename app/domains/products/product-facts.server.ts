// The product catalogue: products keyed by canonical URL, their localized
// title/description/image per market, current price per market and price
// history. Saves and rescrapes write through here.
// Every statement is prepared once (product-facts.sql.server.ts): saves run them.
import { transaction, type Op } from "~/db/sql.server";
import {
  insertPricePoint,
  insertProduct,
  productKeyByUrl,
  storedLocalization,
  updateProductFacts,
  upsertLocalization,
  type ProductKey,
  type StoredLocalization,
} from "./product-facts.sql.server";
import { createHash } from "node:crypto";
import { db } from "~/db.server";
import { log, errorFields } from "~/lib/log.server";
import { copyImage } from "~/domains/media/image-store.server";
import { enqueueStep } from "~/domains/outbox/outbox.server";
import { PermanentFailure, type OutboxJob } from "~/domains/outbox/worker.server";
import { refusedForGood } from "~/lib/net/guarded-fetch.server";
import { productKey, purgeCdn } from "~/domains/cdn/purge.server";
import type { ScrapedProduct } from "./page-extract.server";

export { findProduct } from "./product-facts.sql.server";

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

/** A scraped page's product as facts (the scraper's snake_case fields). */
export function factsOfScrape(p: ScrapedProduct): ProductFacts {
  return {
    title: p.title,
    description: p.description,
    imageUrl: p.image_url,
    priceMinor: p.price_minor,
    currency: p.currency,
    compareAtPriceMinor: p.compare_at_price_minor,
    brand: p.brand,
    productType: p.product_type,
    tags: p.tags,
  };
}

export interface ProductSource {
  partnerId: number | null;
  shopId: number | null;
  domain: string | null;
}

/** Json columns: Prisma stores JSON text on SQLite; PostgreSQL parses the same text into jsonb. */
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** The product of a canonical URL, created if missing (known products cost one read). */
export function* upsertProduct(canonicalUrl: string, facts: ProductFacts, source: ProductSource): Op<ProductKey> {
  const known = yield* productKeyByUrl(canonicalUrl);
  if (known) return known;
  return yield* insertProduct({
    canonicalUrl,
    brand: facts.brand ?? null,
    productType: facts.productType ?? null,
    tags: json(facts.tags),
    rawProductId: facts.rawProductId ?? null,
    sourcePartnerId: source.partnerId,
    sourceShopId: source.shopId,
    sourceDomain: source.domain,
    createdAt: new Date(),
  });
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

/**
 * Writes what an entitled source (the page's own scrape, the shop's platform)
 * knows about the product in one
 * market: given values replace stored ones, missing ones are kept; a price
 * that differs from the current one is recorded in the history. Shared by every list holding the product, so
 * nothing a shopper typed ever comes through here. A step of the caller's transaction.
 */
export function* recordCatalogFacts(productId: number, market: string, facts: StoredFacts): Op<void> {
  const now = new Date();
  const current = yield* storedLocalization(productId, market);
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
    yield* upsertLocalization(
      {
        productId,
        market,
        title: target.title ?? facts.title ?? "",
        description: target.description ?? facts.description ?? "",
        imageUrl: target.imageUrl ?? null,
        originalImageUrl: target.originalImageUrl ?? null,
        priceMinor: target.priceMinor ?? null,
        currency: target.currency ?? null,
        compareAtPriceMinor: target.compareAtPriceMinor ?? null,
        updatedAt: now,
      },
      {
        title: changed("title"),
        description: changed("description"),
        image: changed("imageUrl", "originalImageUrl"),
        price: changed("priceMinor", "currency", "compareAtPriceMinor"),
      },
    );
  }
  // The history records changes: a price point only when the amount or the
  // currency differs from the market's current price (repeat saves would
  // otherwise add a row each).
  const currency = facts.currency ?? current?.currency ?? "EUR";
  if (facts.priceMinor != null && (facts.priceMinor !== current?.priceMinor || currency !== current?.currency)) {
    yield* insertPricePoint({
      productId,
      market,
      priceMinor: facts.priceMinor,
      currency,
      compareAtPriceMinor: facts.compareAtPriceMinor ?? null,
      recordedAt: now,
    });
  }
  const brand = facts.brand || null;
  const productType = facts.productType || null;
  const tags = facts.tags?.length ? facts.tags : null;
  if (brand || productType || tags) yield* updateProductFacts(productId, brand, productType, json(tags), now);
}

/** `recordCatalogFacts` outside a save (rescrape, the shop's platform): copies the image first. */
export async function recordMarketFacts(productId: number, market: string, facts: ProductFacts) {
  const stored = await withStoredImage(facts);
  await transaction(recordCatalogFacts(productId, market, stored));
  await purgeCdn([productKey(productId)]);
}

// ---------------------------------------------------------------- image copies after the answer

/** The outbox job that copies a product's image into storage (app/background.server.ts registers it). */
export const PRODUCT_IMAGE_JOB = "product-image";
/** Copies run one at a time per lane (an outbox job topic), so at most this many at once. */
const IMAGE_COPY_LANES = 4;

/**
 * Queues the copy of `imageUrl` for the product's entries, as a step of the
 * transaction that recorded the URL (facts without `storedImageUrl` leave the
 * entry showing the original until then). For webhooks: Shopify waits at most
 * 5 s for the answer, and one slow image host must not hold a wave of them.
 */
export function* queueImageCopy(productId: number, imageUrl: string): Op<boolean> {
  const digest = createHash("sha256").update(imageUrl).digest("hex").slice(0, 32);
  return yield* enqueueStep({
    kind: PRODUCT_IMAGE_JOB,
    topic: `lane-${productId % IMAGE_COPY_LANES}`,
    dedupKey: `product-image:${productId}:${digest}`,
    payload: { productId, imageUrl },
  });
}

export const productImageJob: OutboxJob = {
  kind: PRODUCT_IMAGE_JOB,
  async deliver(message) {
    const { productId, imageUrl } = (message.payload ?? {}) as { productId?: unknown; imageUrl?: unknown };
    if (typeof productId !== "number" || typeof imageUrl !== "string") throw new PermanentFailure("product-image payload needs productId and imageUrl");
    let stored;
    try {
      stored = await copyImage(imageUrl);
    } catch (err) {
      throw refusedForGood(err) ? new PermanentFailure(err.message) : err;
    }
    // Only entries still showing this image: a newer URL recorded meanwhile has its own copy queued.
    const { count } = await db.productLocalization.updateMany({ where: { productId, originalImageUrl: imageUrl }, data: { imageUrl: stored.url } });
    if (count > 0) await purgeCdn([productKey(productId)]);
  },
};

/** The stored copy's URL; null when the image cannot be copied (the original is still shown). */
async function storedImage(sourceUrl: string): Promise<string | null> {
  try {
    return (await copyImage(sourceUrl)).url;
  } catch (err) {
    log.warn("image copy failed", { url: sourceUrl, ...errorFields(err), stack: undefined });
    return null;
  }
}
