// Platform webhook deliveries as the domain sees them: what a verified
// delivery carries, and the record that makes each one processed once only
// (by webhook id and by signed payload). Most topics are queued: the
// delivery is recorded and its work queued in one short transaction, the
// answer goes out, and the outbox runs the work (platformWebhookJob). The
// HTTP receiver is app/webhooks/receive.server.ts.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { transaction } from "~/db/sql.server";
import { enqueueStep } from "~/domains/outbox/outbox.server";
import { nudgeOutbox, PermanentFailure, type OutboxJob } from "~/domains/outbox/worker.server";
import type { AdminGraphql } from "./admin-graphql.server";
import { recordDelivery } from "./webhook-deliveries.sql.server";

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
      data: { webhookId: deliveryId(hook), topic: hook.topic, shopDomain: hook.shop, payloadDigest: hook.payloadDigest },
    });
    await pruneOldIds();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

const deliveryId = (hook: PlatformWebhook) => hook.webhookId.slice(0, 200);

async function pruneOldIds(): Promise<void> {
  if (Date.now() - lastPrune <= PRUNE_EVERY_MS) return;
  lastPrune = Date.now();
  await db.processedWebhook.deleteMany({ where: { processedAt: { lt: new Date(Date.now() - KEEP_IDS_MS) } } });
}

// ---------------------------------------------------------------- queued topics

/** Queued deliveries processed at once by the outbox (one process holds it). */
const QUEUED_AT_ONCE = 2;

/** The outbox job kind that runs queued deliveries' work after the answer. */
export const PLATFORM_WEBHOOK_JOB = "platform-webhook";

/** What the outbox keeps of a queued delivery (the Admin API client is not kept: queued topics do not use it). */
interface QueuedDelivery {
  topic: string;
  shop: string;
  webhookId: string;
  payloadDigest: string;
  payload: unknown;
}

/**
 * Records the delivery and queues its work in one transaction (two inserts,
 * no other reads or writes), so the answer waits for nothing else; false,
 * and nothing queued, when it was recorded before (by webhook id or signed
 * payload). `lane` is the outbox topic: the work of one lane runs one
 * delivery at a time in arrival order (e.g. one product's updates).
 */
export async function acceptDelivery(hook: PlatformWebhook, lane: string): Promise<boolean> {
  const at = new Date();
  const queued: QueuedDelivery = { topic: hook.topic, shop: hook.shop, webhookId: hook.webhookId, payloadDigest: hook.payloadDigest, payload: hook.payload as never };
  const accepted = await transaction(
    (function* () {
      if ((yield* recordDelivery(deliveryId(hook), hook.topic, hook.shop, hook.payloadDigest, at)) === 0) return false;
      yield* enqueueStep({ kind: PLATFORM_WEBHOOK_JOB, topic: lane.slice(0, 300), payload: queued as never });
      return true;
    })(),
  );
  if (accepted) {
    // Starts the work now where this process runs the outbox, rather than at its next poll.
    nudgeOutbox();
    await pruneOldIds();
  }
  return accepted;
}

/**
 * The outbox job that runs queued deliveries with the domain handler of their
 * topic (app/background.server.ts registers it with the table of
 * app/webhooks/queued.server.ts). A handler that throws is retried by the
 * outbox (backing off), not by Shopify, which had its 200.
 */
export function platformWebhookJob(handlers: Readonly<Record<string, WebhookHandler>>): OutboxJob {
  return {
    kind: PLATFORM_WEBHOOK_JOB,
    // Few at once: during a wave the answers come first; the queue drains when it has passed.
    concurrency: QUEUED_AT_ONCE,
    async deliver(message) {
      const queued = (message.payload ?? {}) as Partial<QueuedDelivery>;
      const handle = typeof queued.topic === "string" ? handlers[queued.topic] : undefined;
      if (!handle || typeof queued.shop !== "string" || typeof queued.webhookId !== "string") {
        throw new PermanentFailure(`no handler for queued webhook ${String(queued.topic)}`);
      }
      await handle({ topic: queued.topic!, shop: queued.shop, webhookId: queued.webhookId, payloadDigest: String(queued.payloadDigest ?? ""), payload: queued.payload });
    },
  };
}

/** Forgets a claimed delivery that was not processed, so that Shopify's retry does it again. */
export async function releaseDelivery(hook: PlatformWebhook): Promise<void> {
  await db.processedWebhook.delete({ where: { webhookId: deliveryId(hook) } }).catch(() => undefined);
}
