// Re-reading an item's product page to refresh title, image and price.
import { db } from "~/db.server";
import { badRequest, notFound } from "~/lib/api/errors";
import { listWithRole, parseItemId } from "./access.server";
import { itemInclude } from "./items.server";
import { hostedProduct } from "./serialize";
import { type Locale } from "~/domains/products/localization";
import { factsOfScrape, recordMarketFacts } from "~/domains/products/product-facts.server";
import { scrapeProduct } from "~/domains/products/scraper.server";

/** `POST /hosted/lists/{token}/items/{itemId}/rescrape`: owner or editor. */
export async function rescrapeItem(token: string | undefined, rawItemId: string | undefined, userId: string, locale: Locale) {
  const { list } = await listWithRole(token, userId, "editor");
  const itemId = parseItemId(rawItemId);
  const item = await db.listItem.findFirst({ where: { id: itemId, wishlistId: list.id }, include: itemInclude });
  if (!item) throw notFound("not_found", "Item not found in this list");
  if (item.product.isManual) throw badRequest("manual_product", "Manual items have no page to scrape");
  if (!item.product.canonicalUrl) throw badRequest("no_canonical_url", "The product has no URL");

  const result = await scrapeProduct(item.product.canonicalUrl, { market: item.market ?? undefined });
  if (result.success) {
    await recordMarketFacts(item.product.id, item.market ?? "", factsOfScrape(result.product));
    await db.product.updateMany({ where: { id: item.product.id }, data: { lastScrapedAt: new Date() } });
    // Asked to refresh from the page: the item shows what the page says from now on.
    // (updateMany: the item may have been deleted while the page was read.)
    await db.listItem.updateMany({
      where: { id: item.id },
      data: { ownTitle: null, ownDescription: null, ownImageUrl: null, ownPriceMinor: null, ownCurrency: null },
    });
  }
  // Deleted (or moved off the list) during the read: gone, as for any other request about it.
  const fresh = await db.listItem.findFirst({ where: { id: item.id, wishlistId: list.id }, include: itemInclude });
  if (!fresh) throw notFound("not_found", "Item not found in this list");
  return { ok: result.success, result, item: hostedProduct(fresh, locale) };
}
