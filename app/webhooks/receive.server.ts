// The shape every `/webhooks/*` route shares: Shopify's signature check
// (`authenticate.webhook`, or for the queued topics the same check without
// the session read: wrong HMAC → 401, missing headers → 400, not POST →
// 405), the topic the route is for, once-only processing by webhook id and by
// the signed payload (domains/shops/webhook-deliveries.server.ts), and SPEC
// error bodies throughout. A route names its topics and its domain handler.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { json } from "@remix-run/node";
import type { AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { acceptDelivery, claimDelivery, releaseDelivery, type PlatformWebhook, type WebhookHandler } from "~/domains/shops/webhook-deliveries.server";
import { errorResponse } from "~/http/error-reply.server";
import { ApiError, badRequest, notFound, unauthorized } from "~/lib/api/errors";
import { log } from "~/lib/log.server";
import { env } from "~/env.server";
import { shopify } from "~/shopify.server";
import { QUEUED_TOPICS } from "./queued.server";

/** `ORDERS_CREATE` and `orders/create` both become `orders/create`. */
export function topicName(topic: string): string {
  const value = topic.trim().toLowerCase();
  return value.includes("/") ? value : value.replace(/^(app_subscriptions|inventory_levels|[a-z]+)_/, "$1/");
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
  // The headers (topic, shop, webhook and event ids) are not signed, the body is: its digest alone is
  // what a replay cannot change, so it is the delivery's identity whatever topic or ids come with it.
  const rawBody = await request.clone().text();
  try {
    const hook = await shopify.authenticate.webhook(request);
    if (!MYSHOPIFY_DOMAIN.test(hook.shop)) throw notAShop();
    const topic = topicName(hook.topic);
    return {
      topic,
      shop: hook.shop.toLowerCase(),
      webhookId: hook.webhookId,
      payloadDigest: createHash("sha256").update(rawBody).digest("hex"),
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

/**
 * A delivery of a queued topic, checked as the library checks it (POST, the five headers, the
 * HMAC-SHA256 of the raw body with the app's secret, JSON) but without what the library does besides:
 * it reads the shop's offline session, and may refresh its token, before the answer. The queued work
 * reads the session when it runs; a wave of deliveries is answered after one transaction each.
 */
async function signedDelivery(request: Request): Promise<PlatformWebhook> {
  if (!shopify || !env.SHOPIFY_API_SECRET) throw notFound("not_found", "The Shopify app is not configured on this server");
  if (request.method !== "POST") throw refusal(405);
  const header = (name: string) => request.headers.get(`x-shopify-${name}`);
  const [topic, hmac, shop, webhookId] = [header("topic"), header("hmac-sha256"), header("shop-domain"), header("webhook-id")];
  if (!topic || !hmac || !shop || !webhookId || !header("api-version")) throw refusal(400);
  const rawBody = Buffer.from(await request.arrayBuffer());
  const expected = createHmac("sha256", env.SHOPIFY_API_SECRET).update(rawBody).digest();
  const given = Buffer.from(hmac, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refusal(401);
  if (!MYSHOPIFY_DOMAIN.test(shop)) throw notAShop();
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString("utf8"));
  } catch {
    throw badRequest("invalid_payload", "The webhook body is not JSON");
  }
  return { topic: topicName(topic), shop, webhookId, payloadDigest: createHash("sha256").update(rawBody).digest("hex"), payload };
}

function forTopics(hook: PlatformWebhook, topics: readonly string[]): PlatformWebhook {
  if (!topics.includes(hook.topic)) throw badRequest("invalid_topic", `This address receives ${topics.join(", ")}, not ${hook.topic}`);
  return hook;
}

async function verifiedFor(request: Request, topics: readonly string[]): Promise<PlatformWebhook> {
  return forTopics(await verified(request), topics);
}

const duplicate = (hook: PlatformWebhook) => {
  log.info("webhook duplicate", { topic: hook.topic, shop: hook.shop, webhookId: hook.webhookId });
  return json({ ok: true, duplicate: true });
};

/**
 * The answer to a delivery of a queued topic (queued.server.ts): verified,
 * recorded with its work queued in one transaction, answered; the work runs
 * after the answer. Loader and action of the route, like receiveWebhook.
 */
export async function queueWebhook(request: Request, topics: readonly string[]): Promise<Response> {
  try {
    const hook = forTopics(await signedDelivery(request), topics);
    const queued = QUEUED_TOPICS[hook.topic];
    if (!queued) throw new Error(`${hook.topic} is not a queued topic`);
    if (!(await acceptDelivery(hook, queued.lane(hook)))) return duplicate(hook);
    log.info("webhook queued", { topic: hook.topic, shop: hook.shop, webhookId: hook.webhookId });
    return json({ ok: true });
  } catch (err) {
    return errorResponse(err, request);
  }
}

/**
 * The answer to a webhook delivery for `topics`, processed before the answer
 * (loader and action of a webhook route: GET and friends get the library's
 * 405, or 404 while the app is off).
 */
export async function receiveWebhook(request: Request, topics: readonly string[], handle: WebhookHandler): Promise<Response> {
  try {
    const hook = await verifiedFor(request, topics);
    if (!(await claimDelivery(hook))) {
      return duplicate(hook);
    }
    try {
      await handle(hook);
    } catch (err) {
      // Not processed: let Shopify's retry do it again.
      await releaseDelivery(hook);
      throw err;
    }
    log.info("webhook processed", { topic: hook.topic, shop: hook.shop, webhookId: hook.webhookId });
    return json({ ok: true });
  } catch (err) {
    return errorResponse(err, request);
  }
}
