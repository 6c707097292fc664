// Shopify webhook deliveries: authentication with SPEC error bodies, and
// at-most-once processing per webhook id (Shopify retries and may deliver
// the same event twice).
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { shopify, type Shopify } from "~/shopify.server";
import { SHOPIFY_OFF_CODE, SHOPIFY_OFF_MESSAGE } from "./shopify-off";

export type WebhookContext = Awaited<ReturnType<Shopify["authenticate"]["webhook"]>>;

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8" } });
}

const REFUSALS: Record<number, [string, string]> = {
  400: ["invalid_webhook", "The request lacks Shopify's webhook headers"],
  401: ["unauthorized", "The webhook signature (X-Shopify-Hmac-Sha256) does not match"],
  405: ["method_not_allowed", "Webhooks are delivered with POST"],
};

/**
 * The verified webhook, or throws a Response: 401 for a wrong HMAC, 400 for
 * missing headers, 405 for other methods, 503 while Shopify is off.
 */
export async function authenticateWebhook(request: Request): Promise<WebhookContext> {
  if (!shopify) throw jsonResponse(503, { error: SHOPIFY_OFF_CODE, message: SHOPIFY_OFF_MESSAGE });
  try {
    return await shopify.authenticate.webhook(request);
  } catch (err) {
    if (err instanceof Response) {
      const [error, message] = REFUSALS[err.status] ?? ["invalid_webhook", "The webhook was refused"];
      const headers = err.status === 405 ? { Allow: "POST" } : undefined;
      const response = jsonResponse(err.status, { error, message });
      if (headers) response.headers.set("Allow", headers.Allow);
      throw response;
    }
    throw err;
  }
}

/** Key of a processed delivery in the dedup table shared with the usage meter. */
const deliveryKey = (webhookId: string) => `shopify-webhook:${webhookId}`;

/**
 * Runs `process` unless a delivery with this webhook id was processed before;
 * returns false for a duplicate. The id is claimed first (unique key, so two
 * concurrent deliveries cannot both run) and released if processing fails,
 * so Shopify's retry gets another chance.
 */
export async function oncePerWebhook(webhookId: string, partnerId: number, process: () => Promise<void>): Promise<boolean> {
  const dedupKey = deliveryKey(webhookId);
  try {
    await db.usageDedup.create({ data: { dedupKey, partnerId } });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
  try {
    await process();
    return true;
  } catch (err) {
    await db.usageDedup.delete({ where: { dedupKey } }).catch(() => undefined);
    throw err;
  }
}
