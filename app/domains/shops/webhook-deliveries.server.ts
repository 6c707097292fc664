// Platform webhook deliveries as the domain sees them: what a verified
// delivery carries, and the record that makes each one processed once only
// (by webhook id and by signed payload). The HTTP receiver is
// app/webhooks/receive.server.ts.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import type { AdminGraphql } from "./admin-graphql.server";

export interface PlatformWebhook {
  /** `orders/create` style (lowercase, slash), whatever form the header used. */
  topic: string;
  /** The shop's `<store>.myshopify.com` domain, from the signed request. */
  shop: string;
  webhookId: string;
  /** SHA-256 (hex) of the raw body: the delivery's identity, the only part the HMAC covers (not the topic, shop or ids). */
  payloadDigest: string;
  payload: unknown;
  /** The shop's Admin API, when the app holds an offline session for it. */
  graphql?: AdminGraphql;
}

export type WebhookHandler = (hook: PlatformWebhook) => Promise<void>;

// Shopify stops retrying a delivery after 48 hours; ids are kept far longer, then forgotten.
const KEEP_IDS_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
let lastPrune = 0;

/**
 * Records the delivery; false when it was processed before (or is being
 * processed now), by its webhook id or by its signed payload (the same body
 * resent under another id, topic or shop header).
 */
export async function claimDelivery(hook: PlatformWebhook): Promise<boolean> {
  try {
    await db.processedWebhook.create({
      data: { webhookId: hook.webhookId.slice(0, 200), topic: hook.topic, shopDomain: hook.shop, payloadDigest: hook.payloadDigest },
    });
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await db.processedWebhook.deleteMany({ where: { processedAt: { lt: new Date(Date.now() - KEEP_IDS_MS) } } });
    }
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Forgets a claimed delivery that was not processed, so that Shopify's retry does it again. */
export async function releaseDelivery(hook: PlatformWebhook): Promise<void> {
  await db.processedWebhook.delete({ where: { webhookId: hook.webhookId.slice(0, 200) } }).catch(() => undefined);
}
