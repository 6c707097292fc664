// Saving a product into a list (SPEC 2.6): `/hosted/save` and `/widget/save`
// share this pipeline.
import { db } from "~/db.server";
import { asObject, fields } from "~/lib/api/input";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, badRequest } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { reserveSave } from "~/domains/metering/actions.server";
import { roleOn } from "~/domains/lists/access.server";
import { optionalCurrency, optionalPriority } from "~/domains/lists/items.server";
import { canonicalUrl } from "./canonical-url";
import { createProduct, findProduct, recordMarketFacts, type ProductFacts, type ProductSource } from "./catalog.server";
import { scrapeProduct } from "./scraper.server";

export interface SaveChannel extends ProductSource {
  /** `hosted`: the user's own data; `widget`: through a partner's widget on `widgetOrigin`. */
  kind: "hosted" | "widget";
  widgetOrigin: string | null;
}

function str(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw badRequest("invalid_input", `${field} must be a string`);
  return value.trim().slice(0, max) || undefined;
}

function int(value: unknown, field: string, min = 0): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw badRequest("invalid_input", `${field} must be an integer${min === 0 ? " (minor units)" : ""}`);
  }
  return value;
}

function parseWishlistId(value: unknown): number {
  if (value === undefined || value === null || value === "") throw badRequest("missing_wishlist", "wishlistId is required");
  const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
    throw badRequest("missing_wishlist", "wishlistId must be the list's numeric db_id");
  }
  return id;
}

function hostOf(origin: string | null): string | null {
  if (!origin) return null;
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return origin.toLowerCase();
  }
}

/** Parses a SaveRequest; every error names the field. */
export function parseSaveRequest(body: unknown) {
  const input = fields(body);
  const wishlistId = parseWishlistId(input.wishlistId);
  const product = asObject(input.product);
  const url = product && typeof product.url === "string" ? product.url.trim() : "";
  if (!product || !url) throw badRequest("missing_url", "product.url is required");
  const canonical = canonicalUrl(url);
  if (!canonical) throw badRequest("invalid_url", "product.url must be an absolute http(s) URL");
  const imageUrl = str(product.imageUrl, "product.imageUrl", 2048);
  if (imageUrl && !/^https?:\/\//i.test(imageUrl)) throw badRequest("invalid_input", "product.imageUrl must be an absolute http(s) URL");
  const market = str(product.marketCode, "product.marketCode", 16) ?? "";
  if (market && !/^[a-z]{2}([-_][A-Za-z]{2})?$/.test(market)) throw badRequest("invalid_input", "product.marketCode must look like de-DE");
  const meta = product.metadata ?? product.partnerMeta;
  if (meta !== undefined && meta !== null && !asObject(meta)) throw badRequest("invalid_input", "product.metadata must be an object");
  const rawProductId = product.productId ?? product.rawProductId;
  return {
    wishlistId,
    url,
    canonical,
    market,
    facts: {
      title: str(product.title, "product.title", 500),
      description: str(product.description, "product.description", 5000),
      imageUrl,
      priceMinor: int(product.price, "product.price"),
      currency: optionalCurrency(product.currency),
      rawProductId: rawProductId === undefined || rawProductId === null ? undefined : String(rawProductId).slice(0, 200),
    } satisfies ProductFacts,
    offerId: int(product.offerId, "product.offerId"),
    metadata: (asObject(meta) ?? null) as Record<string, unknown> | null,
    siteDomain: str(product.siteDomain ?? input.siteDomain, "siteDomain", 255)?.toLowerCase(),
    sourceLabel: str(product.sourceLabel, "product.sourceLabel", 100),
    priority: optionalPriority(product.priority),
  };
}

/** Saves a product into one of the user's lists (owner or editor). */
export async function saveProduct(userId: string, body: unknown, channel: SaveChannel) {
  const req = parseSaveRequest(body);

  const list = await db.wishlist.findUnique({ where: { id: req.wishlistId }, select: { id: true, ownerId: true } });
  const role = list ? await roleOn(list, userId) : null;
  if (!list || (role !== "owner" && role !== "editor")) {
    throw new ApiError(403, "invalid_wishlist", "This wishlist does not belong to you");
  }

  // Checkout metadata from a widget counts only when the page it claims is the page it came from.
  const metadata =
    channel.kind === "hosted" || (req.siteDomain && req.siteDomain === hostOf(channel.widgetOrigin)) ? req.metadata : null;
  const variant = metadata?.variantId ?? metadata?.variant_id;

  let productId: number;
  let productPartnerId: number | null;
  try {
    let facts: ProductFacts = req.facts;
    let product = await findProduct(req.canonical);
    if (!product) {
      if (!facts.title) facts = await withScrapedFacts(req.url, req.market, facts);
      ({ product } = await createProduct(req.canonical, facts, channel));
    }
    productId = product.id;
    productPartnerId = product.sourcePartnerId;
    await recordMarketFacts(productId, req.market, facts);
  } catch (err) {
    log.error("product upsert failed", errorFields(err));
    throw new ApiError(500, "product_create_failed", "The product could not be created", {
      db_error: err instanceof Error ? err.message.split("\n").pop() : String(err),
    });
  }

  // The saved item becomes the list's most recent one, so its partner is the one charged.
  const undoCount = await reserveSave(channel.partnerId ?? productPartnerId);

  const itemData = {
    addedByUserId: userId,
    market: req.market || null,
    offerId: req.offerId ?? null,
    sourceLabel: req.sourceLabel ?? null,
    checkoutMeta: metadata ?? undefined,
    variantId: variant === undefined || variant === null ? null : String(variant),
    sourcePartnerId: channel.partnerId,
    sourceShopId: channel.shopId,
    sourceDomain: channel.domain,
    ...(req.priority !== undefined ? { priority: req.priority } : {}),
  };
  let itemId: number;
  try {
    itemId = await upsertItem(list.id, productId, itemData);
    await db.wishlist.update({ where: { id: list.id }, data: { updatedAt: new Date() } });
  } catch (err) {
    await undoCount();
    log.error("item write failed", errorFields(err));
    throw new ApiError(500, "save_failed", "The item could not be saved");
  }
  return { ok: true as const, item_id: itemId, product_id: productId };
}

/** One item per product and list: saving again updates it (and keeps its purchased flag). */
async function upsertItem(wishlistId: number, productId: number, data: Record<string, unknown>): Promise<number> {
  const where = { wishlistId_productId: { wishlistId, productId } };
  const write = () =>
    db.listItem.upsert({ where, create: { wishlistId, productId, ...data }, update: data, select: { id: true } });
  try {
    return (await write()).id;
  } catch (err) {
    // Two first saves of the same product into the same list raced; the second one updates.
    if (!isUniqueViolation(err)) throw err;
    return (await write()).id;
  }
}

/** Fills what the caller did not send from the page itself; a failed scrape still saves the URL. */
async function withScrapedFacts(url: string, market: string, facts: ProductFacts): Promise<ProductFacts> {
  const result = await scrapeProduct(url, { market: market || undefined });
  if (!result.success) return { ...facts, title: facts.title ?? new URL(url).hostname };
  const p = result.product;
  return {
    title: facts.title ?? p.title ?? new URL(url).hostname,
    description: facts.description ?? p.description,
    imageUrl: facts.imageUrl ?? p.image_url,
    priceMinor: facts.priceMinor ?? p.price_minor,
    currency: facts.currency ?? p.currency,
    compareAtPriceMinor: p.compare_at_price_minor,
    brand: p.brand,
    productType: p.product_type,
    tags: p.tags,
    rawProductId: facts.rawProductId,
  };
}
