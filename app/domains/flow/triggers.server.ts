// Shopify Flow triggers (docs/shopify.md "Shopify Flow"): what happened to a
// shop's products in shoppers' wishlists, sent to Flow with the Admin API's
// flowTriggerReceive so merchants' workflows (and Shopify's marketing
// automations, through the customer reference) can act on it.
//
// Only shops that use a trigger in an active workflow get it: Flow's trigger
// lifecycle callback says which (recordTriggerLifecycle, FlowTriggerUse).
// A trigger is queued in the outbox after the change committed and sent by
// the outbox job below, one at a time per shop, retried when Shopify answers
// with an error or cannot be reached, and never sent twice: one event is
// queued once (dedupKey), and a delivery interrupted mid-call (a crash) is not
// repeated, because Shopify may already have started the workflow.
import { Buffer } from "node:buffer";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { enqueue } from "~/domains/outbox/outbox.server";
import { PermanentFailure, type OutboxJob } from "~/domains/outbox/worker.server";
import type { AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { shopifyId } from "~/domains/shops/payload";
import { toAmount } from "~/lib/money";

/** The trigger extensions (extensions/flow-*), by handle and merchant-facing name. */
export const FLOW_TRIGGERS = {
  productAdded: { handle: "wishlist-product-added", name: "Product added to wishlist" },
  priceDropped: { handle: "wishlist-price-dropped", name: "Wishlisted product price dropped" },
  backInStock: { handle: "wishlist-back-in-stock", name: "Wishlisted product back in stock" },
  shared: { handle: "wishlist-shared", name: "Wishlist shared" },
} as const;
export type FlowTriggerHandle = (typeof FLOW_TRIGGERS)[keyof typeof FLOW_TRIGGERS]["handle"];

export const FLOW_TRIGGER_KIND = "flow_trigger";
/** Under Shopify's 1 MB guideline; Admin API emulations refuse more than 50,000 bytes ("Properties size exceeds the limit of 50000 bytes"), so this is the bound. */
export const FLOW_PAYLOAD_MAX_BYTES = 50_000;
/** Text fields are cut to this many characters, URLs to 2,048: a payload stays far below the limit. */
const TEXT_MAX = 255;
const URL_MAX = 2048;

/** The outbox topic of a shop's triggers: the outbox sends one topic's messages one at a time, which paces each shop. */
export const flowTopic = (shopId: number) => `flow:${shopId}`;

const RECEIVE = `mutation WishlistFlowTrigger($handle: String!, $payload: JSON!) {
  flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
}`;

// ------------------------------------------------------------ lifecycle

/** Our trigger named by a lifecycle callback's `flow_trigger_definition_id` (its handle, or its name as older definitions say). */
export function triggerOfDefinition(definitionId: string): FlowTriggerHandle | null {
  const wanted = definitionId.trim().toLowerCase();
  for (const t of Object.values(FLOW_TRIGGERS)) if (t.handle === wanted || t.name.toLowerCase() === wanted) return t.handle;
  return null;
}

export interface TriggerLifecycle {
  definitionId: string;
  enabled: boolean;
  shopDomain: string;
  timestamp: Date;
}

/**
 * A trigger lifecycle callback: whether the shop has an active workflow that
 * starts with the trigger. A callback older than the one recorded changes
 * nothing (Flow: newer timestamps take precedence).
 */
export async function recordTriggerLifecycle(event: TriggerLifecycle): Promise<{ recorded: boolean }> {
  const handle = triggerOfDefinition(event.definitionId);
  const shop = await db.platformShop.findUnique({ where: { domain: event.shopDomain }, select: { id: true } });
  if (!handle || !shop) {
    log.warn("flow lifecycle callback for an unknown trigger or shop", { definitionId: event.definitionId.slice(0, 100), shop: event.shopDomain });
    return { recorded: false };
  }
  const where = { shopId: shop.id, handle, changedAt: { lt: event.timestamp } };
  const data = { enabled: event.enabled, changedAt: event.timestamp };
  if ((await db.flowTriggerUse.updateMany({ where, data })).count > 0) return { recorded: true };
  try {
    await db.flowTriggerUse.create({ data: { shopId: shop.id, handle, ...data } });
    return { recorded: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A row exists: newer (this callback loses) or created concurrently (compare again).
    return { recorded: (await db.flowTriggerUse.updateMany({ where, data })).count > 0 };
  }
}

/** The shop, when it is installed and uses the trigger in an active workflow. */
async function shopUsing(shopId: number, handle: FlowTriggerHandle) {
  const use = await db.flowTriggerUse.findUnique({
    where: { shopId_handle: { shopId, handle } },
    select: { enabled: true, shop: { select: { id: true, active: true, domain: true } } },
  });
  return use?.enabled && use.shop.active ? use.shop : null;
}

// ------------------------------------------------------------ payloads

const text = (value: string | null | undefined) => (value ? value.slice(0, TEXT_MAX) : null);
const pageUrl = (value: string | null | undefined) => (value && value.length <= URL_MAX && /^https?:\/\//i.test(value) ? value : null);

/** Flow's reference fields take the numeric id (or the GID); numbers where they are exact. */
function referenceId(id: string): number | string {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}

/** The payload: references, then the custom fields that have a value (a field without one is left out, never faked). */
function triggerBody(refs: { productId: string; customerId: string | null }, fields: Record<string, string | number | null>) {
  const body: Record<string, string | number> = { product_id: referenceId(refs.productId) };
  if (refs.customerId) body.customer_id = referenceId(refs.customerId);
  for (const [key, value] of Object.entries(fields)) if (value !== null) body[key] = value;
  return body;
}

interface Trigger {
  shopId: number;
  handle: FlowTriggerHandle;
  customerId: string | null;
  body: Record<string, string | number>;
  /** One event, one message. */
  dedupKey: string;
}

/** Queues one trigger; false when the same event was queued before. */
async function queueTrigger(t: Trigger): Promise<boolean> {
  const bytes = Buffer.byteLength(JSON.stringify(t.body));
  if (bytes > FLOW_PAYLOAD_MAX_BYTES) {
    log.error("flow trigger payload over Flow's limit, not queued", { handle: t.handle, shopId: t.shopId, bytes });
    return false;
  }
  return enqueue({
    kind: FLOW_TRIGGER_KIND,
    topic: flowTopic(t.shopId),
    // customer_id beside the body: what customers/redact looks for.
    payload: { shop_id: t.shopId, handle: t.handle, customer_id: t.customerId, body: t.body },
    dedupKey: t.dedupKey,
  });
}

async function customerOf(shopId: number, userId: string): Promise<string | null> {
  const row = await db.shopCustomer.findUnique({ where: { shopId_userId: { shopId, userId } }, select: { customerId: true } });
  return row?.customerId ?? null;
}

/** Title, page and price of a product as a shopper saw it: the item's own facts first, then the catalogue's (the item's market, else any). */
function productFacts(
  product: { canonicalUrl: string | null; localizations: Array<{ market: string; title: string; priceMinor: number | null; currency: string | null }> },
  item?: { market: string | null; ownTitle: string | null; ownPriceMinor: number | null; ownCurrency: string | null },
) {
  const loc = product.localizations.find((l) => l.market === (item?.market ?? "")) ?? product.localizations[0];
  const priceMinor = item?.ownPriceMinor ?? loc?.priceMinor ?? null;
  const currency = item?.ownPriceMinor != null ? item.ownCurrency : (loc?.currency ?? null);
  return {
    title: text(item?.ownTitle ?? loc?.title),
    url: pageUrl(product.canonicalUrl),
    price: priceMinor !== null && currency ? toAmount(priceMinor, currency) : null,
    currency: priceMinor !== null && currency ? currency : null,
  };
}

/**
 * The shop a product belongs to: the shop whose catalogue owns it (its
 * products webhooks spoke), else the shop it was saved through when the page
 * is on that shop's own domains. A foreign page saved through a shop's widget
 * is no product of that shop.
 */
async function shopOfProduct(product: { sourceShopId: number | null; canonicalUrl: string | null }, savedThrough: number | null): Promise<number | null> {
  if (product.sourceShopId !== null) return product.sourceShopId;
  if (savedThrough === null || !product.canonicalUrl) return null;
  const shop = await db.platformShop.findUnique({ where: { id: savedThrough }, select: { domain: true, primaryDomain: true } });
  const host = new URL(product.canonicalUrl).host;
  return shop && (host === shop.domain || host === shop.primaryDomain) ? savedThrough : null;
}

const productSelect = {
  id: true,
  canonicalUrl: true,
  rawProductId: true,
  sourceShopId: true,
  localizations: { select: { market: true, title: true, priceMinor: true, currency: true } },
} as const;

// ------------------------------------------------------------ the events

/**
 * "Product added to wishlist": a save that added a new item of a Shopify
 * shop's product (saved through that shop, or a product the shop's catalogue
 * owns). Called after the save committed; never fails it.
 */
export async function queueProductAdded(save: { itemId: number; userId: string; shopId: number | null; productId: number }): Promise<void> {
  // Without the Shopify app there is no Flow: saves skip every query.
  if (!env.SHOPIFY_API_KEY) return;
  try {
    const product = await db.product.findUnique({ where: { id: save.productId }, select: { sourceShopId: true, canonicalUrl: true } });
    const shopId = product ? await shopOfProduct(product, save.shopId) : null;
    if (shopId === null) return;
    const shop = await shopUsing(shopId, FLOW_TRIGGERS.productAdded.handle);
    if (!shop) return;
    const item = await db.listItem.findUnique({
      where: { id: save.itemId },
      select: { market: true, ownTitle: true, ownPriceMinor: true, ownCurrency: true, wishlist: { select: { name: true } }, product: { select: productSelect } },
    });
    const productId = shopifyId(item?.product.rawProductId);
    // Flow's product reference needs Shopify's product id: a page saved without one is no Shopify product we can name.
    if (!item || !productId) return;
    const facts = productFacts(item.product, item);
    const customerId = await customerOf(shopId, save.userId);
    await queueTrigger({
      shopId,
      handle: FLOW_TRIGGERS.productAdded.handle,
      customerId,
      body: triggerBody(
        { productId, customerId },
        { "List name": text(item.wishlist.name), "Product title": facts.title, "Product URL": facts.url, Price: facts.price, Currency: facts.currency },
      ),
      dedupKey: `flow:added:${save.itemId}`,
    });
  } catch (err) {
    log.error("flow trigger not queued", { trigger: FLOW_TRIGGERS.productAdded.handle, itemId: save.itemId, ...errorFields(err) });
  }
}

/**
 * "Wishlist shared": a list was made public. One trigger per shop whose
 * products are on it (and which uses the trigger), naming the newest of them
 * and how many there are. Called after the change committed; never fails it.
 */
export async function queueListShared(list: { id: number; ownerId: string; name: string; shareToken: string; sharedAt: Date }): Promise<void> {
  if (!env.SHOPIFY_API_KEY) return;
  try {
    const items = await db.listItem.findMany({
      where: { wishlistId: list.id, product: { rawProductId: { not: null } } },
      orderBy: [{ addedAt: "desc" }, { id: "desc" }],
      take: 1000,
      select: { sourceShopId: true, product: { select: { rawProductId: true, sourceShopId: true, canonicalUrl: true } } },
    });
    const byShop = new Map<number, { productId: string; count: number }>();
    for (const item of items) {
      const shopId = await shopOfProduct(item.product, item.sourceShopId);
      const productId = shopifyId(item.product.rawProductId);
      if (shopId === null || !productId) continue;
      const seen = byShop.get(shopId);
      if (seen) seen.count++;
      else byShop.set(shopId, { productId, count: 1 });
    }
    const shareUrl = `${env.APP_URL}/en/list/${encodeURIComponent(list.shareToken)}`;
    for (const [shopId, newest] of byShop) {
      if (!(await shopUsing(shopId, FLOW_TRIGGERS.shared.handle))) continue;
      const customerId = await customerOf(shopId, list.ownerId);
      await queueTrigger({
        shopId,
        handle: FLOW_TRIGGERS.shared.handle,
        customerId,
        body: triggerBody({ productId: newest.productId, customerId }, { "List name": text(list.name), "Share URL": shareUrl, "Saved products": newest.count }),
        dedupKey: `flow:shared:${list.id}:${shopId}:${list.sharedAt.getTime()}`,
      });
    }
  } catch (err) {
    log.error("flow trigger not queued", { trigger: FLOW_TRIGGERS.shared.handle, listId: list.id, ...errorFields(err) });
  }
}

export interface WishlistedProductChange {
  kind: "price_drop" | "back_in_stock";
  /** The catalogue product (Product.id) whose price fell or which is available again. */
  productId: number;
  /** price_drop: the new and the previous price, in minor units of `currency`. */
  priceMinor?: number;
  previousPriceMinor?: number;
  currency?: string;
  /** When the change was seen: the same change reported twice is queued once. */
  changedAt: Date;
}

const OWNER_PAGE = 500;

/**
 * "Wishlisted product price dropped" / "back in stock": one trigger for every
 * shopper with the product on a list, with their customer reference where
 * they are a known customer of the shop. For the price and stock alerts'
 * detection to call once it has seen the change; returns how many were queued.
 */
export async function fireWishlistedProductChange(shopId: number, change: WishlistedProductChange): Promise<{ queued: number }> {
  if (!env.SHOPIFY_API_KEY) return { queued: 0 };
  const trigger = change.kind === "price_drop" ? FLOW_TRIGGERS.priceDropped : FLOW_TRIGGERS.backInStock;
  if (!(await shopUsing(shopId, trigger.handle))) return { queued: 0 };
  const product = await db.product.findUnique({ where: { id: change.productId }, select: productSelect });
  const productId = shopifyId(product?.rawProductId);
  // Only the shop's own product: another shop's shoppers are none of its business.
  if (!product || !productId || product.sourceShopId !== shopId) return { queued: 0 };
  const facts = productFacts(product);
  const currency = change.currency ?? facts.currency;
  const price = (minor: number | undefined) => (minor !== undefined && currency ? toAmount(minor, currency) : null);
  const fields: Record<string, string | number | null> =
    change.kind === "price_drop"
      ? { "Product title": facts.title, "Product URL": facts.url, Price: price(change.priceMinor), "Previous price": price(change.previousPriceMinor), Currency: currency }
      : { "Product title": facts.title, "Product URL": facts.url };
  let queued = 0;
  const seen = new Set<string>();
  // The shoppers with the product on a list, a page of items at a time.
  for (let after = 0; ; ) {
    const page = await db.listItem.findMany({
      where: { productId: change.productId, id: { gt: after } },
      orderBy: { id: "asc" },
      take: OWNER_PAGE,
      select: { id: true, wishlist: { select: { ownerId: true } } },
    });
    const owners = [...new Set(page.map((i) => i.wishlist.ownerId))].filter((o) => !seen.has(o));
    const links = await db.shopCustomer.findMany({ where: { shopId, userId: { in: owners } }, select: { userId: true, customerId: true } });
    const customers = new Map(links.map((l) => [l.userId, l.customerId]));
    for (const owner of owners) {
      seen.add(owner);
      const customerId = customers.get(owner) ?? null;
      const fresh = await queueTrigger({
        shopId,
        handle: trigger.handle,
        customerId,
        body: triggerBody({ productId, customerId }, fields),
        dedupKey: `flow:${change.kind}:${change.productId}:${change.changedAt.getTime()}:${owner}`,
      });
      if (fresh) queued++;
    }
    if (page.length < OWNER_PAGE) return { queued };
    after = page[page.length - 1]!.id;
  }
}

// ------------------------------------------------------------ delivery

const INTERRUPTED = "not sent again: an earlier attempt was interrupted after it may have reached Shopify, and a second send could run the workflow twice";

/** The outbox job; `adminFor` gives the Admin API of an installed shop (its offline session), null without one. */
export function flowTriggerJob(adminFor: (shopDomain: string) => Promise<AdminGraphql | null>): OutboxJob {
  return {
    kind: FLOW_TRIGGER_KIND,
    async deliver(message) {
      const p = (message.payload ?? {}) as Record<string, unknown>;
      if (typeof p.shop_id !== "number" || typeof p.handle !== "string" || typeof p.body !== "object" || p.body === null) {
        throw new PermanentFailure("flow trigger payload needs shop_id, handle and body");
      }
      // A retry follows a recorded failure (lastError set). No record means the last attempt ended mid-call.
      if (message.attempts > 1) {
        const { count } = await db.outboxMessage.updateMany({ where: { id: message.id, NOT: { lastError: null } }, data: { lastError: null } });
        if (count === 0) throw new PermanentFailure(INTERRUPTED);
      }
      const shop = await shopUsing(p.shop_id, p.handle as FlowTriggerHandle);
      if (!shop) throw new PermanentFailure("not sent: the shop uninstalled or no longer uses this trigger");
      const graphql = await adminFor(shop.domain);
      if (!graphql) throw new Error(`no Admin API session for ${shop.domain}`);
      let response;
      try {
        response = await graphql(RECEIVE, { variables: { handle: p.handle, payload: p.body } });
      } catch (err) {
        // The client throws on throttling and GraphQL errors: Shopify did not take it, the outbox retries.
        throw new Error(`flowTriggerReceive failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      const answer = (await response.json()) as {
        data?: { flowTriggerReceive?: { userErrors?: Array<{ message: string }> } };
        errors?: Array<{ message?: string; extensions?: { code?: string } }>;
      };
      // Throttled or failed: Shopify did not take it, so the outbox's retry may send it again.
      if (answer.errors?.length || !answer.data?.flowTriggerReceive) {
        const codes = (answer.errors ?? []).map((e) => e.extensions?.code ?? e.message ?? "error").join(", ");
        throw new Error(`flowTriggerReceive failed: ${codes || "no data"}`);
      }
      const userErrors = answer.data.flowTriggerReceive.userErrors ?? [];
      if (userErrors.length) throw new PermanentFailure(`flowTriggerReceive refused: ${userErrors.map((e) => e.message).join("; ").slice(0, 500)}`);
    },
  };
}

// ------------------------------------------------------------ privacy

/** The shop's trigger messages that name the customer (queued or sent), for customers/data_request and customers/redact. */
export async function triggersOfCustomer(shopId: number, customerId: string) {
  const found: Array<{ id: number; handle: string; status: string; queued_at: string; sent_at: string | null }> = [];
  for (let after = 0; ; ) {
    const page = await db.outboxMessage.findMany({
      where: { kind: FLOW_TRIGGER_KIND, topic: flowTopic(shopId), id: { gt: after } },
      orderBy: { id: "asc" },
      take: 500,
      select: { id: true, payload: true, status: true, createdAt: true, sentAt: true },
    });
    for (const m of page) {
      const p = (m.payload ?? {}) as Record<string, unknown>;
      if (p.customer_id !== customerId) continue;
      found.push({ id: m.id, handle: String(p.handle), status: m.status, queued_at: m.createdAt.toISOString(), sent_at: m.sentAt?.toISOString() ?? null });
    }
    if (page.length < 500) return found;
    after = page[page.length - 1]!.id;
  }
}

/** customers/redact: the customer's trigger messages of the shop go (their payloads name the customer). */
export async function forgetCustomerTriggers(shopId: number, customerId: string): Promise<number> {
  const ids = (await triggersOfCustomer(shopId, customerId)).map((t) => t.id);
  return ids.length ? (await db.outboxMessage.deleteMany({ where: { id: { in: ids } } })).count : 0;
}

/** shop/redact: every trigger message of the shop goes; the lifecycle rows go with the shop's row (cascade) or here. */
export async function forgetShopTriggers(shopId: number): Promise<void> {
  await db.outboxMessage.deleteMany({ where: { kind: FLOW_TRIGGER_KIND, topic: flowTopic(shopId) } });
  await db.flowTriggerUse.deleteMany({ where: { shopId } });
}
