// After a shopper's saved items change, one outbox message per Shopify
// customer linked to them (ShopCustomer), so the customer metafield mirror
// (metafield-mirror.server.ts) is rewritten in the background, retried on
// failure and coalesced per customer. Queued after the change committed: a
// crash in between leaves the mirror one change behind until the next one.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { enqueue } from "~/domains/outbox/outbox.server";
import { log, errorFields } from "~/lib/log.server";

export const CUSTOMER_METAFIELDS_KIND = "customer_metafields";

/** The outbox topic of one customer of one shop: messages with the same topic are coalesced. */
export const mirrorTopic = (shopId: number, customerId: string) => `${shopId}:${customerId}`;

/** Never fails the change that caused it: a lost mirror update is logged, not the shopper's error. */
export async function queueCustomerMirrors(userId: string): Promise<void> {
  // Without the Shopify app there are no shop customers and nobody to deliver to: saves skip the query.
  if (!env.SHOPIFY_API_KEY) return;
  try {
    const links = await db.shopCustomer.findMany({ where: { userId, shop: { active: true } }, select: { shopId: true, customerId: true } });
    for (const link of links) await enqueueMirror(link.shopId, link.customerId);
  } catch (err) {
    log.error("customer metafield mirror not queued", { userId, ...errorFields(err) });
  }
}

const enqueueMirror = (shopId: number, customerId: string) =>
  enqueue({ kind: CUSTOMER_METAFIELDS_KIND, topic: mirrorTopic(shopId, customerId), payload: { shop_id: shopId, customer_id: customerId } });

/** One customer's mirror, also after their link ended (a disconnect): it then says that nothing is saved. */
export async function queueCustomerMirror(shopId: number, customerId: string): Promise<void> {
  if (!env.SHOPIFY_API_KEY) return;
  try {
    await enqueueMirror(shopId, customerId);
  } catch (err) {
    log.error("customer metafield mirror not queued", { shopId, ...errorFields(err) });
  }
}
