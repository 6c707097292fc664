// The shape every `/webhooks/*` route shares: Shopify's signature check
// (`authenticate.webhook`: wrong HMAC → 401, missing headers → 400, not POST →
// 405), the topic the route is for, once-only processing by webhook id and by
// the signed payload, and SPEC error bodies throughout. A route names its
// topics and handler.
import { createHash } from "node:crypto";
import { json } from "@remix-run/node";
import { errorResponse } from "~/api/endpoint.server";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, badRequest, notFound, unauthorized } from "~/lib/api/errors";
import { log } from "~/lib/log.server";
import { shopify } from "~/shopify.server";
import type { AdminGraphql } from "./admin-graphql.server";

export interface PlatformWebhook {
  /** `orders/create` style (lowercase, slash), whatever form the header used. */
  topic: string;
  /** The shop's `<store>.myshopify.com` domain, from the signed request. */
  shop: string;
  webhookId: string;
  /** SHA-256 (hex) of the topic and the raw body: the delivery's identity that the HMAC covers. */
  payloadDigest: string;
  payload: unknown;
  /** The shop's Admin API, when the app holds an offline session for it. */
  graphql?: AdminGraphql;
}

export type WebhookHandler = (hook: PlatformWebhook) => Promise<void>;

/** `ORDERS_CREATE` and `orders/create` both become `orders/create`. */
export function topicName(topic: string): string {
  const value = topic.trim().toLowerCase();
  return value.includes("/") ? value : value.replace(/^(app_subscriptions|[a-z]+)_/, "$1/");
}

// The library answers its refusals with empty bodies; these are the SPEC bodies.
function refusal(status: number): ApiError {
  if (status === 401) return unauthorized("The webhook's HMAC signature does not match");
  if (status === 405) return new ApiError(405, "method_not_allowed", "Webhooks are delivered with POST", {}, { Allow: "POST" });
  return badRequest("invalid_webhook", "Missing Shopify webhook headers (X-Shopify-Topic, -Hmac-Sha256, -Shop-Domain, -Webhook-Id, -API-Version)");
}

/** Shopify delivers for shops by their `<store>.myshopify.com` domain (lowercase, as the library requires); no other name is a shop of ours. */
const MYSHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const notAShop = () => badRequest("invalid_webhook", "X-Shopify-Shop-Domain is not a <store>.myshopify.com domain");

async function verified(request: Request): Promise<PlatformWebhook> {
  if (!shopify) throw notFound("not_found", "The Shopify app is not configured on this server");
  // The headers are not signed, the body is: its digest is what a replay cannot change.
  const rawBody = await request.clone().text();
  try {
    const hook = await shopify.authenticate.webhook(request);
    if (!MYSHOPIFY_DOMAIN.test(hook.shop)) throw notAShop();
    const topic = topicName(hook.topic);
    return {
      topic,
      shop: hook.shop.toLowerCase(),
      webhookId: hook.webhookId,
      payloadDigest: createHash("sha256").update(`${topic}\n`).update(rawBody).digest("hex"),
      payload: hook.payload,
      graphql: hook.admin?.graphql as AdminGraphql | undefined,
    };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof Response) throw refusal(err.status);
    // Signed but not JSON: the library's JSON.parse failed.
    if (err instanceof SyntaxError) throw badRequest("invalid_payload", "The webhook body is not JSON");
    // Signed, but the shop header names no shop: the library's session lookup throws on it after the HMAC check.
    if (!MYSHOPIFY_DOMAIN.test(request.headers.get("x-shopify-shop-domain") ?? "")) throw notAShop();
    throw err;
  }
}

// Shopify stops retrying a delivery after 48 hours; ids are kept far longer, then forgotten.
const KEEP_IDS_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
let lastPrune = 0;

/**
 * Records the delivery; false when it was processed before (or is being
 * processed now), by its webhook id or by its signed payload (the same body
 * resent under another id).
 */
async function claim(hook: PlatformWebhook): Promise<boolean> {
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

/**
 * The answer to a webhook delivery for `topics` (loader and action of a
 * webhook route: GET and friends get the library's 405, or 404 while the app
 * is off).
 */
export async function receiveWebhook(request: Request, topics: readonly string[], handle: WebhookHandler): Promise<Response> {
  try {
    const hook = await verified(request);
    if (!topics.includes(hook.topic)) {
      throw badRequest("invalid_topic", `This address receives ${topics.join(", ")}, not ${hook.topic}`);
    }
    if (!(await claim(hook))) {
      log.info("webhook duplicate", { topic: hook.topic, shop: hook.shop, webhookId: hook.webhookId });
      return json({ ok: true, duplicate: true });
    }
    try {
      await handle(hook);
    } catch (err) {
      // Not processed: let Shopify's retry do it again.
      await db.processedWebhook.delete({ where: { webhookId: hook.webhookId.slice(0, 200) } }).catch(() => undefined);
      throw err;
    }
    log.info("webhook processed", { topic: hook.topic, shop: hook.shop, webhookId: hook.webhookId });
    return json({ ok: true });
  } catch (err) {
    return errorResponse(err, request);
  }
}
