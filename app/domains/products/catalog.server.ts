// The product catalogue: products keyed by canonical URL, their localized
// title/description/image per market, current price per market and price
// history. Saves and rescrapes write through here.
import { db, type Db } from "~/db.server";
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

export const findProduct = (canonicalUrl: string) => db.product.findUnique({ where: { canonicalUrl } });

/** A database client or an interactive transaction. */
type Client = Pick<Db, "product" | "productLocalization" | "pricePoint">;

/** Whether the catalogue holds a titled entry of the product in any market (else a save scrapes it again). */
export async function hasTitle(productId: number): Promise<boolean> {
  const titled = await db.productLocalization.findFirst({ where: { productId, title: { not: "" } }, select: { productId: true } });
  return titled !== null;
}

/**
 * The product of a canonical URL, created if missing. One statement
 * (INSERT … ON CONFLICT), so concurrent first saves meet on one row.
 */
export function upsertProduct(client: Client, canonicalUrl: string, facts: ProductFacts, source: ProductSource) {
  return client.product.upsert({
    where: { canonicalUrl },
    update: {},
    create: {
      canonicalUrl,
      brand: facts.brand ?? null,
      productType: facts.productType ?? null,
      tags: facts.tags ?? undefined,
      rawProductId: facts.rawProductId ?? null,
      sourcePartnerId: source.partnerId,
      sourceShopId: source.shopId,
      sourceDomain: source.domain,
    },
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
 * Writes what an entitled source (the page's own scrape, the shop's platform,
 * a widget on the product's own domain) knows about the product in one
 * market: given values replace stored ones, missing ones are kept; a price
 * that differs from the current one is recorded in the history. Shared by every list holding the product, so
 * nothing a shopper typed ever comes through here.
 */
export async function recordCatalogFacts(client: Client, productId: number, market: string, facts: StoredFacts) {
  const current = await client.productLocalization.findUnique({ where: { productId_market: { productId, market } } });
  const data: Record<string, unknown> = {};
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
  // Repeat saves mostly carry what is already stored: write only what changed.
  if (current) {
    for (const key of Object.keys(data)) {
      if (current[key as keyof typeof current] === data[key]) delete data[key];
    }
  }
  if (Object.keys(data).length > 0) {
    await client.productLocalization.upsert({
      where: { productId_market: { productId, market } },
      create: { productId, market, title: facts.title ?? "", description: facts.description ?? "", ...data },
      update: data,
    });
  }
  // The history records changes: a price point only when the amount or the
  // currency differs from the market's current price (repeat saves would
  // otherwise add a row each).
  const currency = facts.currency ?? current?.currency ?? "EUR";
  if (facts.priceMinor != null && (facts.priceMinor !== current?.priceMinor || currency !== current?.currency)) {
    await client.pricePoint.create({
      data: { productId, market, priceMinor: facts.priceMinor, currency, compareAtPriceMinor: facts.compareAtPriceMinor ?? null },
    });
  }
  const product: Record<string, unknown> = {};
  if (facts.brand) product.brand = facts.brand;
  if (facts.productType) product.productType = facts.productType;
  if (facts.tags?.length) product.tags = facts.tags;
  if (Object.keys(product).length > 0) await client.product.update({ where: { id: productId }, data: product });
}

/** `recordCatalogFacts` outside a save (rescrape, the shop's platform): copies the image first. */
export async function recordMarketFacts(productId: number, market: string, facts: ProductFacts) {
  await recordCatalogFacts(db, productId, market, await withStoredImage(facts));
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
