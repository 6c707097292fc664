// The statement that records a platform webhook delivery as a step of the
// transaction that queues its work (webhook-deliveries.server.ts acceptDelivery).
import type { ProcessedWebhook } from "~/db.server";
import { run, statement } from "~/db/sql.server";

// A delivery seen before (same webhook id, or same signed body) is skipped, not an error:
// on PostgreSQL a failed insert would abort the transaction it is a step of.
const RECORD_DELIVERY = statement(
  "webhook_record_delivery",
  `INSERT INTO "ProcessedWebhook" ("webhookId", "topic", "shopDomain", "payloadDigest", "processedAt")
   VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT DO NOTHING`,
);

/** 1, or 0 when the webhook id or the payload digest is recorded already. */
export const recordDelivery = (
  webhookId: ProcessedWebhook["webhookId"],
  topic: ProcessedWebhook["topic"],
  shopDomain: ProcessedWebhook["shopDomain"],
  payloadDigest: string,
  at: Date,
) => run(RECORD_DELIVERY, webhookId, topic, shopDomain, payloadDigest, at);
