// orders/create (beyond SPEC, docs/shopify.md "Shopify webhooks"): an order that
// carries a list item's signed reference marks that item purchased, confirmed
// by the order. References arrive as the line-item property `_wish_ref` (the
// basket drawer's cart lines), a `wish_ref` cart attribute (note_attributes),
// or the `wish_ref` parameter of the order's landing URL (a share page's
// product link). Unknown, forged, or other shops' references change nothing.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { log } from "~/lib/log.server";
import { findPlatformShop, shopHosts } from "~/domains/shops/platform-webhooks.server";
import { items, record, shopifyId, text } from "~/domains/shops/payload";
import type { PlatformWebhook } from "~/domains/shops/webhook-deliveries.server";
import { verifyWishRef, WISH_REF_PARAM, WISH_REF_PROPERTY } from "./wish-ref.server";

const REF_NAMES = new Set([WISH_REF_PROPERTY, WISH_REF_PARAM]);
const MAX_REFS = 50;

/** Every reference-looking value of the order, de-duplicated. */
export function orderRefs(payload: unknown): string[] {
  const order = record(payload);
  const refs: string[] = [];
  const fromPairs = (pairs: unknown) => {
    for (const pair of items(pairs).map(record)) {
      const name = text(pair.name, 100);
      const value = text(pair.value, 2000);
      if (name && value && REF_NAMES.has(name)) refs.push(...value.split(/[\s,]+/));
    }
  };
  for (const line of items(order.line_items)) fromPairs(record(line).properties);
  fromPairs(order.note_attributes);
  for (const field of [order.landing_site, order.landing_site_ref]) {
    const landing = text(field, 4000);
    if (!landing) continue;
    try {
      refs.push(...new URL(landing, "https://landing.invalid").searchParams.getAll(WISH_REF_PARAM));
    } catch {
      // not a URL: no reference there
    }
  }
  return [...new Set(refs.filter(Boolean))].slice(0, MAX_REFS);
}

export async function orderCreated(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  if (!shop) return;
  const order = record(hook.payload);
  const orderId = shopifyId(order.id);
  if (!orderId) return;
  const customerId = shopifyId(record(order.customer).id);
  const hosts = shopHosts(shop);
  for (const ref of orderRefs(order)) {
    const itemId = await verifyWishRef(ref);
    if (itemId === null) {
      log.warn("order carries an invalid wish reference", { shop: hook.shop, order: orderId });
      continue;
    }
    const item = await db.listItem.findUnique({ where: { id: itemId }, select: { id: true, purchased: true, product: { select: { canonicalUrl: true } } } });
    // Only an item whose product this shop sells: a reference copied into another shop's order counts for nothing.
    const host = item?.product.canonicalUrl ? new URL(item.product.canonicalUrl).hostname : null;
    if (!item || !host || !hosts.includes(host)) continue;
    try {
      await db.$transaction([
        db.purchaseConfirmation.create({ data: { shopDomain: shop.domain, listItemId: item.id, orderId, customerId } }),
        db.listItem.update({
          where: { id: item.id },
          data: { purchased: true, purchaseConfirmed: true, ...(item.purchased ? {} : { purchasedAt: new Date() }) },
        }),
      ]);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // this order confirmed this item already
    }
  }
}
