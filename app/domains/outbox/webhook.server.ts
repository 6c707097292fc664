// Outgoing webhooks, signed as Standard Webhooks (standardwebhooks.com) so
// receivers can verify them with any of its libraries. Used by the outbox
// worker and by the synchronous test call of a basket.
import { createHmac, randomBytes } from "node:crypto";
import { guardedFetch } from "~/lib/net/guarded-fetch.server";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** `whsec_` + 32 random bytes in base64, the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; the key is the secret's decoded base64 part. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, "base64");
  return "v1," + createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
}

export interface WebhookDelivery {
  url: string;
  secret: string;
  /** `webhook-id`: receivers deduplicate retries by it. */
  id: string;
  payload: unknown;
  timeoutMs: number;
}

/**
 * POSTs the payload through the guarded fetcher (public addresses only) and
 * resolves with the receiver's 2xx status; throws FetchError otherwise
 * (`http_error` carries the status).
 */
export async function postWebhook(delivery: WebhookDelivery): Promise<{ status: number }> {
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await guardedFetch(delivery.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": delivery.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(delivery.secret, delivery.id, timestamp, body),
    },
    body,
    // The answer is not used; a small cap keeps a chatty receiver cheap.
    maxBytes: 64 * 1024,
    timeoutMs: delivery.timeoutMs,
    // A signed delivery goes to the configured URL only, never onward.
    maxRedirects: 0,
  });
  return { status: res.status };
}
