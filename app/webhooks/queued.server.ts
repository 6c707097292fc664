// The high-volume topics, answered as soon as the delivery is recorded and its
// work queued (webhook-deliveries.server.ts acceptDelivery); the work runs
// after the answer in the outbox, by the handlers below, one delivery at a
// time per lane in arrival order. Shopify waits 5 s for an answer and a wave
// of product updates must not wait for product work, image copies or alerts.
// The other topics (app/uninstalled, shop/update, app_subscriptions/update,
// compliance) stay synchronous: rare, and their effect is due by the answer.
import { inventoryLevelUpdated, productChanged, productDeleted } from "~/flows/product-webhooks.server";
import { orderReceived } from "~/domains/revenue/attribution.server";
import { refundReceived } from "~/domains/revenue/refunds.server";
import { record, shopifyId } from "~/domains/shops/payload";
import { platformWebhookJob, type PlatformWebhook, type WebhookHandler } from "~/domains/shops/webhook-deliveries.server";

export interface QueuedTopic {
  handle: WebhookHandler;
  /** The outbox topic: deliveries whose order matters share one. */
  lane(hook: PlatformWebhook): string;
}

const id = (value: unknown) => shopifyId(value) ?? "none";
// One product's create, updates and delete in arrival order (the handler also drops an older `updated_at`).
const productLane = (hook: PlatformWebhook) => `product:${hook.shop}:${id(record(hook.payload).id)}`;
// An order before its refunds.
const orderLane = (orderId: unknown) => (hook: PlatformWebhook) => `order:${hook.shop}:${id(orderId)}`;

export const QUEUED_TOPICS: Readonly<Record<string, QueuedTopic>> = {
  "products/create": { handle: productChanged, lane: productLane },
  "products/update": { handle: productChanged, lane: productLane },
  "products/delete": { handle: productDeleted, lane: productLane },
  "inventory_levels/update": {
    handle: inventoryLevelUpdated,
    lane: (hook) => `inventory:${hook.shop}:${id(record(hook.payload).inventory_item_id)}`,
  },
  "orders/create": { handle: orderReceived, lane: (hook) => orderLane(record(hook.payload).id)(hook) },
  "refunds/create": { handle: refundReceived, lane: (hook) => orderLane(record(hook.payload).order_id)(hook) },
};

/** Registered by app/background.server.ts in every process (whichever holds the outbox lease runs it). */
export const queuedWebhookJob = platformWebhookJob(Object.fromEntries(Object.entries(QUEUED_TOPICS).map(([topic, q]) => [topic, q.handle])));
