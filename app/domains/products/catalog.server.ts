// The product catalogue: products keyed by canonical URL, their localized
// title/description/image per market, current price per market and price
// history. Saves and rescrapes write through here.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
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

/** Creates the product; if a concurrent save created it first, returns that one. */
export async function createProduct(canonicalUrl: string, facts: ProductFacts, source: ProductSource) {
  try {
    const product = await db.product.create({
      data: {
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
    return { product, created: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return { product: await db.product.findUniqueOrThrow({ where: { canonicalUrl } }), created: false };
  }
}

/**
 * Writes what is known about the product in one market: given values
 * replace stored ones, missing ones are kept. A new image is copied into the
 * service's storage; a price is recorded in the history.
 */
export async function recordMarketFacts(productId: number, market: string, facts: ProductFacts) {
  const current = await db.productLocalization.findUnique({ where: { productId_market: { productId, market } } });
  const data: Record<string, unknown> = {};
  if (facts.title) data.title = facts.title;
  if (facts.description) data.description = facts.description;
  if (facts.imageUrl && (facts.imageUrl !== current?.originalImageUrl || !current?.imageUrl)) {
    data.originalImageUrl = facts.imageUrl;
    data.imageUrl = await storedImage(facts.imageUrl);
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
    await db.productLocalization.upsert({
      where: { productId_market: { productId, market } },
      create: { productId, market, title: facts.title ?? "", description: facts.description ?? "", ...data },
      update: data,
    });
  }
  if (facts.priceMinor != null) {
    await db.pricePoint.create({
      data: {
        productId,
        market,
        priceMinor: facts.priceMinor,
        currency: facts.currency ?? current?.currency ?? "EUR",
        compareAtPriceMinor: facts.compareAtPriceMinor ?? null,
      },
    });
  }
  const product: Record<string, unknown> = {};
  if (facts.brand) product.brand = facts.brand;
  if (facts.productType) product.productType = facts.productType;
  if (facts.tags?.length) product.tags = facts.tags;
  if (Object.keys(product).length > 0) await db.product.update({ where: { id: productId }, data: product });
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
