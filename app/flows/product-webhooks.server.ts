// products/create, products/update, products/delete: the shop's platform is
// an entitled source of facts about its own products (product-facts.server.ts). The
// catalogue entry is the product page on the shop's primary domain
// (`https://<primary>/products/<handle>`); an entry under the myshopify domain
// (saved from there) is kept up to date too.
import { db } from "~/db.server";
import { exec, transaction } from "~/db/sql.server";
import { isHttpUrl } from "~/lib/api/schemas";
import { findPlatformShop, shopHosts } from "~/domains/shops/platform-webhooks.server";
import { currencyCode, items, record, shopifyId, text, timestamp, type Fields } from "~/domains/shops/payload";
import { toMinor } from "~/lib/money";
import { log } from "~/lib/log.server";
import type { PlatformWebhook } from "~/domains/shops/webhook-deliveries.server";
import { canonicalUrl } from "~/domains/products/canonical-url";
import { queueImageCopy, recordCatalogFacts, upsertProduct, type ProductFacts } from "~/domains/products/product-facts.server";
import { recordPlatformState } from "~/domains/products/product-facts.sql.server";
import { inventoryLevelChanged, platformVariantsChanged, type VariantFacts } from "~/domains/alerts/alerts.server";
import { productKey, purgeCdn } from "~/domains/cdn/purge.server";

const productUrl = (host: string, handle: string) => canonicalUrl(`https://${host}/products/${encodeURIComponent(handle)}`);

function imageOf(p: Fields): string | null {
  const candidates = [
    record(p.image).src,
    record(items(p.images)[0]).src,
    record(record(items(p.media)[0]).preview_image).src,
  ];
  for (const c of candidates) {
    const url = text(c, 2048);
    if (url && isHttpUrl(url)) return url;
  }
  return null;
}

/** Active and at least one variant can be bought (untracked, oversell allowed or in stock). */
function availableOf(p: Fields, variants: Fields[]): boolean {
  const status = text(p.status);
  if (status && status !== "active") return false;
  if (variants.length === 0) return true;
  return variants.some((v) => {
    if (typeof v.available === "boolean") return v.available;
    if (!text(v.inventory_management)) return true;
    if (text(v.inventory_policy) === "continue") return true;
    return typeof v.inventory_quantity === "number" && v.inventory_quantity > 0;
  });
}

/** Each variant's price, stock and availability, for the alerts on saved variants. */
function variantFactsOf(p: Fields, variants: Fields[], currency: string | null): VariantFacts[] {
  const status = text(p.status);
  const active = !status || status === "active";
  const facts: VariantFacts[] = [];
  for (const v of variants.slice(0, 250)) {
    const variantId = shopifyId(v.id);
    if (!variantId) continue;
    const tracked = !!text(v.inventory_management) || v.tracked === true;
    const quantity = typeof v.inventory_quantity === "number" && Number.isSafeInteger(v.inventory_quantity) ? (tracked ? v.inventory_quantity : null) : undefined;
    facts.push({
      variantId,
      inventoryItemId: shopifyId(v.inventory_item_id),
      priceMinor: currency ? toMinor(v.price, currency) : null,
      quantity,
      available: active && availableOf({}, [v]),
    });
  }
  return facts;
}

/** The facts a product payload carries; the price is the first variant's, in the shop's currency. */
function factsOf(p: Fields, currency: string | null): ProductFacts {
  const variants = items(p.variants).map(record);
  const first = variants[0] ?? {};
  const price = currency ? toMinor(first.price, currency) : null;
  const compareAt = currency ? toMinor(first.compare_at_price, currency) : null;
  const tags = typeof p.tags === "string" ? p.tags.split(",").map((t) => t.trim()).filter(Boolean).slice(0, 50) : null;
  return {
    title: text(p.title, 500),
    imageUrl: imageOf(p),
    priceMinor: price,
    currency: price !== null ? currency : null,
    compareAtPriceMinor: compareAt !== null && price !== null && compareAt > price ? compareAt : null,
    brand: text(p.vendor, 200),
    productType: text(p.product_type, 200),
    tags: tags?.length ? tags : null,
  };
}

/** products/create and products/update. */
export async function productChanged(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  if (!shop?.active) return;
  const p = record(hook.payload);
  const id = shopifyId(p.id);
  const handle = text(p.handle, 255);
  if (!id || !handle) return; // nothing to key a catalogue entry on
  const urls = shopHosts(shop)
    .map((host) => productUrl(host, handle))
    .filter((u): u is string => u !== null);
  const variants = items(p.variants).map(record);
  // The image is copied after the answer (queueImageCopy): the facts carry only its address.
  const facts = factsOf(p, shop.currency ?? currencyCode(record(variants[0]).currency));
  const available = availableOf(p, variants);

  const existing = await db.product.findMany({ where: { canonicalUrl: { in: urls } }, include: { localizations: true } });
  // Shopify does not promise order, and a retry carries the payload of its first try: one older than the
  // facts already applied changes nothing (one product's deliveries run one at a time, so this read holds).
  const updatedAt = timestamp(p.updated_at);
  if (updatedAt && existing.some((e) => e.platformUpdatedAt && e.platformUpdatedAt > updatedAt)) {
    log.info("product webhook older than applied facts, skipped", { shop: hook.shop, productId: id });
    return;
  }
  const products = existing.length
    ? existing
    : [{ ...(await exec(upsertProduct(urls[0]!, facts, { partnerId: shop.partnerId, shopId: shop.id, domain: shopHosts(shop)[0]! }))), canonicalUrl: urls[0]!, localizations: [] }];
  for (const product of products) {
    await transaction(
      (function* () {
        // Every market the entry is shown in gets the shop's title and image;
        // the price only where it is kept in the shop's currency, else in the
        // market-less entry.
        const compatible = (loc: { currency: string | null }) => !loc.currency || loc.currency === facts.currency;
        const markets: Array<{ market: string; currency: string | null }> = [...product.localizations];
        if (!markets.some(compatible)) markets.push({ market: "", currency: null });
        for (const loc of markets) {
          yield* recordCatalogFacts(product.id, loc.market, compatible(loc) ? facts : { ...facts, priceMinor: null, compareAtPriceMinor: null });
        }
        if (facts.imageUrl && product.localizations.every((loc) => loc.originalImageUrl !== facts.imageUrl || !loc.imageUrl)) {
          yield* queueImageCopy(product.id, facts.imageUrl);
        }
        const host = new URL(product.canonicalUrl!).hostname; // one of the shop's hosts (the entries were found by them)
        yield* recordPlatformState(product.id, { available, rawProductId: id, updatedAt: new Date(), sourcePartnerId: shop.partnerId, sourceShopId: shop.id, sourceDomain: host, platformUpdatedAt: updatedAt });
      })(),
    );
  }
  // Title, price and image show on the share pages and previews of every list holding them.
  await purgeCdn(products.map((product) => productKey(product.id)));
  const currency = shop.currency ?? currencyCode(record(variants[0]).currency);
  await platformVariantsChanged(shop, products.map((product) => product.id), currency, variantFactsOf(p, variants, currency));
}

/** products/delete: the shop's entries of that product (by its id) are no longer available. */
export async function productDeleted(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  if (!shop) return;
  const id = shopifyId(record(hook.payload).id);
  if (!id) return;
  await db.product.updateMany({
    where: { rawProductId: id, OR: shopHosts(shop).map((host) => ({ canonicalUrl: { startsWith: `https://${host}/products/` } })) },
    data: { available: false },
  });
}

/** inventory_levels/update: one inventory item's stock at one location (stock alerts on saved variants). */
export async function inventoryLevelUpdated(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  if (!shop?.active) return;
  const p = record(hook.payload);
  const inventoryItemId = shopifyId(p.inventory_item_id);
  const locationId = shopifyId(p.location_id);
  const available = typeof p.available === "number" && Number.isSafeInteger(p.available) ? p.available : null;
  if (!inventoryItemId || !locationId || available === null) return;
  await inventoryLevelChanged(shop, inventoryItemId, locationId, available, timestamp(p.updated_at));
}
