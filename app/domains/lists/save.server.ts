// Saving a product into a list (SPEC 2.6): `/hosted/save` and `/widget/save`
// share this pipeline.
import { transaction, type Op } from "~/db/sql.server";
import { isDatabaseUnavailable } from "~/db/errors";
import { ApiError, badRequest } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { saveMeter, type Saver } from "~/domains/metering/actions.server";
import { listAndRoleById } from "./access.server";
import { touchList, upsertSavedItem } from "./items.sql.server";
import { publish } from "~/domains/events/events.server";
import { canonicalUrl } from "~/domains/products/canonical-url";
import type { SaveRequestBody } from "~/domains/products/schemas";
import {
  factsOfScrape,
  findProduct,
  recordCatalogFacts,
  upsertProduct,
  withStoredImage,
  type ProductFacts,
  type ProductSource,
  type StoredFacts,
} from "~/domains/products/product-facts.server";
import { scrapeProduct } from "~/domains/products/scraper.server";
import { listKey, productKey, purgeCdn } from "~/domains/cdn/purge.server";

const NO_SOURCE: ProductSource = { partnerId: null, shopId: null, domain: null };

export interface SaveChannel extends ProductSource {
  /** `hosted`: the user's own data; `widget`: through a partner's widget on `widgetOrigin`. */
  kind: "hosted" | "widget";
  widgetOrigin: string | null;
}

/**
 * Gate for a save's outbound fetches (the page scrape, image copies): runs
 * `fetch`, or resolves to `undefined` without fetching when the caller's
 * budget is spent. An import shares one across its items (imports.server.ts).
 */
export type FetchGate = <T>(fetch: () => Promise<T>) => Promise<T | undefined>;

const UNGATED: FetchGate = (fetch) => fetch();

function hostOf(origin: string | null): string | null {
  if (!origin) return null;
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return origin.toLowerCase();
  }
}

/**
 * A SaveRequest as the routes' schema read it (products/schemas.ts
 * saveRequestBody), with the canonical URL (400 `invalid_url` when there is none).
 */
export function parseSaveRequest(body: SaveRequestBody) {
  const { product } = body;
  const url = product.url;
  const canonical = canonicalUrl(url);
  if (!canonical) throw badRequest("invalid_url", "product.url must be an absolute http(s) URL");
  const rawProductId = product.productId ?? product.rawProductId;
  return {
    wishlistId: body.wishlistId,
    url,
    canonical,
    market: product.marketCode,
    facts: {
      title: product.title,
      description: product.description,
      imageUrl: product.imageUrl,
      priceMinor: product.price,
      currency: product.currency,
      rawProductId: rawProductId === undefined || rawProductId === null ? undefined : String(rawProductId).slice(0, 200),
    } satisfies ProductFacts,
    offerId: product.offerId,
    metadata: (product.metadata ?? product.partnerMeta ?? null) as Record<string, unknown> | null,
    siteDomain: (product.siteDomain ?? body.siteDomain)?.toLowerCase(),
    sourceLabel: product.sourceLabel,
    priority: product.priority,
  };
}

/**
 * A shop page's shopper credential saves only into the shopper's default list or a list made
 * through that partner (docs/identity.md): never into the account's other lists.
 */
function shopMaySaveInto(found: { list: { defaultKey: string | null; createdThroughPartnerId: number | null }; role: string | null }, partnerScope?: number) {
  if (partnerScope === undefined) return true;
  return found.role === "owner" && (found.list.defaultKey === "default" || found.list.createdThroughPartnerId === partnerScope);
}

/**
 * Saves a product into one of the user's lists (owner or editor).
 *
 * What the client sends (title, description, image, price) is the client's
 * own and stays on its item, whatever the channel: a widget's origin is the
 * client's word, not proof that it speaks for the product. The shared
 * catalogue and the product's source (partner, shop, domain) change only from
 * the page's own scrape here, and from the shop's platform elsewhere.
 *
 * Slow work first, outside any transaction: the scrape (only when neither the
 * request nor the catalogue has a title, so a product left untitled by an
 * interrupted save heals on its next save) and image copies. Then one
 * transaction writes the product, the scraped catalogue facts, the item with
 * the saver's own facts and the usage count (only when the item is new), and
 * touches the list: a crash leaves all of it or none.
 *
 * `gate`: where the fetches go through; a fetch it refuses leaves the item
 * titled with the host name (scrape) or showing the original image (copy).
 */
export async function saveProduct(saver: Saver, body: SaveRequestBody, channel: SaveChannel, gate: FetchGate = UNGATED) {
  const { userId } = saver;
  const req = parseSaveRequest(body);

  const found = await listAndRoleById(req.wishlistId, userId);
  if (!found || (found.role !== "owner" && found.role !== "editor") || !shopMaySaveInto(found, saver.partnerScope)) {
    throw new ApiError(403, "invalid_wishlist", "This wishlist does not belong to you");
  }
  const listId = found.list.id;

  // Checkout metadata from a widget counts only when the page it claims is the page it came from.
  const metadata =
    channel.kind === "hosted" || (req.siteDomain && req.siteDomain === hostOf(channel.widgetOrigin)) ? req.metadata : null;
  const variant = metadata?.variantId ?? metadata?.variant_id;

  let catalog: StoredFacts | null;
  let own: StoredFacts;
  let existing: Awaited<ReturnType<typeof findProduct>>;
  try {
    existing = await findProduct(req.canonical);
    // The page is asked only when nothing else would give the item a title.
    const scraped = !existing?.titled && !req.facts.title ? await scrapedFacts(req.url, req.market, gate) : null;
    [catalog, own] = await Promise.all([scraped && storedFacts(scraped, gate), storedFacts(req.facts, gate)]);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err; // a 503, not this 500
    throw productCreateFailed(err);
  }

  const meter = await saveMeter(channel.partnerId ?? existing?.sourcePartnerId ?? null);
  const ownFacts = ownFields(own);

  let stage: "product" | "item" = "product";
  function* write(): Op<{ productId: number; itemId: number; added: boolean; total: number | null }> {
    const now = new Date();
    // A new product takes only what the page said; its source is for the platform to claim.
    const product = yield* upsertProduct(req.canonical, catalog ?? {}, NO_SOURCE);
    if (catalog) yield* recordCatalogFacts(product.id, req.market, catalog);
    stage = "item";
    const item = yield* upsertSavedItem({
      wishlistId: listId,
      productId: product.id,
      addedByUserId: userId,
      market: req.market || null,
      offerId: req.offerId ?? null,
      sourceLabel: req.sourceLabel ?? null,
      checkoutMeta: metadata ? JSON.stringify(metadata) : null,
      variantId: variant === undefined || variant === null ? null : String(variant),
      sourcePartnerId: channel.partnerId,
      sourceShopId: channel.shopId,
      sourceDomain: channel.domain,
      priority: req.priority ?? null,
      ...ownFacts,
      addedAt: now,
    });
    // Counted in this transaction: the count and the item commit together (a 402 rolls everything back).
    const total = meter ? yield* meter.count(saver, { listId, productId: product.id, added: item.added }) : null;
    yield* touchList(listId, now);
    return { productId: product.id, itemId: item.id, added: item.added, total };
  }

  try {
    const { productId, itemId, added, total } = await transaction(write());
    if (meter && total !== null) meter.committed();
    await purgeCdn([listKey(listId), productKey(productId)]);
    await publish("saves.changed", { userId: found.list.ownerId });
    // A new item only: saving what is already on the list is no new event for Flow.
    if (added) await publish("item.added", { itemId, userId, shopId: channel.shopId, productId });
    return { ok: true as const, item_id: itemId, product_id: productId };
  } catch (err) {
    if (err instanceof ApiError || isDatabaseUnavailable(err)) throw err;
    if (stage === "product") throw productCreateFailed(err);
    log.error("item write failed", errorFields(err));
    throw new ApiError(500, "save_failed", "The item could not be saved");
  }
}

function productCreateFailed(err: unknown): ApiError {
  log.error("product upsert failed", errorFields(err));
  return new ApiError(500, "product_create_failed", "The product could not be created", {
    db_error: err instanceof Error ? err.message.split("\n").pop() : String(err),
  });
}

/** The saver's own facts as item columns (a rescrape clears them, so the item shows the catalogue). */
function ownFields(own: StoredFacts) {
  return {
    ownTitle: own.title ?? null,
    ownDescription: own.description ?? null,
    ownImageUrl: own.imageUrl ? (own.storedImageUrl ?? own.imageUrl) : null,
    ownPriceMinor: own.priceMinor ?? null,
    ownCurrency: own.priceMinor != null ? (own.currency ?? null) : null,
  };
}

/** The facts with their image copied, when the gate lets the copy through (else the original is shown). */
async function storedFacts(facts: ProductFacts, gate: FetchGate): Promise<StoredFacts> {
  if (!facts.imageUrl) return facts;
  return (await gate(() => withStoredImage(facts))) ?? { ...facts, storedImageUrl: null };
}

/**
 * What the page itself says (an entitled source); a failed or refused scrape
 * still saves the URL, titled with its host. A scrape passes the gate as one
 * fetch (on Shopify paths it asks the same site for two URLs at once).
 */
async function scrapedFacts(url: string, market: string, gate: FetchGate): Promise<ProductFacts> {
  const result = await gate(() => scrapeProduct(url, { market: market || undefined }));
  if (!result?.success) return { title: new URL(url).hostname };
  return { ...factsOfScrape(result.product), title: result.product.title ?? new URL(url).hostname };
}
