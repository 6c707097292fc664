// The customer metafield mirror: for each Shopify customer linked to a
// shopper account, the count, last save time and product handles of their
// saved products of that shop, written to app-owned customer metafields
// (declared in shopify.app.toml) with the Admin API's metafieldsSet. Themes
// read them in Liquid (heart state without a request), merchants segment
// customers by them, Flow can use them (docs/shopify.md).
//
// Delivered by the outbox (mirror-queue.server.ts queues): the job reads the
// state when it runs, so one write covers every change queued before it, and
// the messages of the same customer that were pending when it read are
// marked sent with it (the outbox runs one message per customer at a time).
import { db } from "~/db.server";
import { adminQuery, type AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { PermanentFailure, type OutboxJob } from "~/domains/outbox/worker.server";
import { CUSTOMER_METAFIELDS_KIND } from "./mirror-queue.server";
import { itemsOfShop, productHandle } from "~/domains/lists/shop-items";

/** The app-owned namespace (`$app`), as `[customer.metafields.app.<key>]` in shopify.app.toml declares it. */
export const CUSTOMER_METAFIELD_NAMESPACE = "$app";
export const CUSTOMER_METAFIELDS = {
  count: { key: "wishlist_count", type: "number_integer" },
  savedAt: { key: "wishlist_saved_at", type: "date_time" },
  handles: { key: "wishlist_handles", type: "list.single_line_text_field" },
} as const;
/** Handles kept (newest first): enough for any page's hearts, well inside a list metafield's limits. */
export const MAX_MIRRORED_HANDLES = 100;

const METAFIELDS_SET = `mutation WishlistCustomerMirror($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { key } userErrors { field message code } }
}`;

/** What the mirror says about one customer of one shop, read now. */
export async function mirrorState(shopId: number, customerId: string) {
  const shop = await db.platformShop.findUnique({
    where: { id: shopId },
    select: { id: true, partnerId: true, domain: true, primaryDomain: true, active: true },
  });
  if (!shop || !shop.active) return null;
  const link = await db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId, customerId } }, select: { userId: true } });
  // No link (the shopper disconnected the shop, or it forgot the customer): nothing is saved for them here.
  if (!link) return { shopDomain: shop.domain, count: 0, savedAt: null, handles: [] };
  const where = { wishlist: { ownerId: link.userId }, ...itemsOfShop(shop) };
  const items = await db.listItem.findMany({
    where,
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
    select: { addedAt: true, product: { select: { canonicalUrl: true } } },
  });
  const handles: string[] = [];
  for (const item of items) {
    const handle = productHandle(item.product.canonicalUrl);
    if (handle && !handles.includes(handle) && handles.length < MAX_MIRRORED_HANDLES) handles.push(handle);
  }
  return { shopDomain: shop.domain, count: items.length, savedAt: items[0]?.addedAt ?? null, handles };
}

/** The metafieldsSet input for a customer (the last save time only while something is saved). */
export function mirrorMetafields(customerId: string, state: { count: number; savedAt: Date | null; handles: string[] }) {
  const ownerId = `gid://shopify/Customer/${customerId}`;
  const field = (f: { key: string; type: string }, value: string) => ({ ownerId, namespace: CUSTOMER_METAFIELD_NAMESPACE, key: f.key, type: f.type, value });
  return [
    field(CUSTOMER_METAFIELDS.count, String(state.count)),
    ...(state.savedAt ? [field(CUSTOMER_METAFIELDS.savedAt, state.savedAt.toISOString())] : []),
    field(CUSTOMER_METAFIELDS.handles, JSON.stringify(state.handles)),
  ];
}

/** The outbox job; `adminFor` gives the Admin API of an installed shop (its offline session), null without one. */
export function customerMirrorJob(adminFor: (shopDomain: string) => Promise<AdminGraphql | null>): OutboxJob {
  return {
    kind: CUSTOMER_METAFIELDS_KIND,
    async deliver(message) {
      const p = (message.payload ?? {}) as Record<string, unknown>;
      if (typeof p.shop_id !== "number" || typeof p.customer_id !== "string") throw new PermanentFailure("mirror payload needs shop_id and customer_id");
      // Pending messages of this customer seen before the state is read: this write covers them.
      const covered = await db.outboxMessage.findMany({
        where: { kind: CUSTOMER_METAFIELDS_KIND, topic: message.topic, status: "pending", id: { not: message.id } },
        select: { id: true },
      });
      const state = await mirrorState(p.shop_id, p.customer_id);
      if (!state) throw new PermanentFailure("shop uninstalled");
      const graphql = await adminFor(state.shopDomain);
      if (!graphql) throw new Error(`no Admin API session for ${state.shopDomain}`);
      const data = await adminQuery<{ metafieldsSet: { userErrors: Array<{ message: string }> } }>(graphql, METAFIELDS_SET, {
        metafields: mirrorMetafields(p.customer_id, state),
      });
      const errors = data.metafieldsSet.userErrors;
      if (errors.length) throw new PermanentFailure(`metafieldsSet: ${errors.map((e) => e.message).join("; ")}`);
      if (covered.length) {
        await db.outboxMessage.updateMany({
          where: { id: { in: covered.map((c) => c.id) }, status: "pending" },
          data: { status: "sent", sentAt: new Date(), lastError: null },
        });
      }
    },
  };
}
