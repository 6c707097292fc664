// Baskets (SPEC 4.5, 6.2): a partner's storefront basket configuration,
// read by the storefront under a public `bkt_` id, its usage events, and the
// optional checkout webhook (Growth, Scale and Enterprise plans, SPEC 8.1).
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { db, type Prisma, type BasketConfig } from "~/db.server";
import { ApiError, badRequest, forbidden, notFound } from "~/lib/api/errors";
import { FetchError } from "~/lib/net/guarded-fetch.server";
import { httpUrlSchema, isHttpUrl, isPlainObject, parseOrThrow } from "~/lib/api/schemas";
import { log, errorFields } from "~/lib/log.server";
import { getPlan } from "~/domains/plans/plans";
import { allowedDomainsOf } from "~/domains/keys/key-rules";
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import { enqueue } from "~/domains/outbox/outbox.server";
import { newWebhookSecret, postWebhook } from "~/domains/outbox/webhook.server";
import type { WebhookRecipients } from "~/domains/outbox/worker.server";
import type { PartnerPrincipal } from "~/domains/partners/principal";
import { partnerKey, purgeCdn } from "~/domains/cdn/purge.server";

export const BASKET_ID_PREFIX = "bkt_";
/** 128 random bits, like share tokens (GUIDE section 8). */
export const newBasketId = () => BASKET_ID_PREFIX + randomBytes(16).toString("base64url");

export const LAYOUTS = ["drawer", "modal", "page"] as const;
export const EVENT_TYPES = ["open", "close", "item_added", "item_removed", "checkout_started", "checkout_completed"] as const;
/** Events that are forwarded to the basket's webhook (through the outbox). */
const WEBHOOK_EVENTS = new Set<string>(["checkout_started", "checkout_completed"]);
export const MAX_META_BYTES = 2048;
const TEST_WEBHOOK_TIMEOUT_MS = 5000;

const checkoutSchema = z.strictObject({
  mode: z.enum(["cart", "webhook", "link"]),
  cartUrl: z
    .string()
    .max(2048)
    .refine((s) => s.includes("{variant_id}") && s.includes("{quantity}"), "must contain {variant_id} and {quantity}")
    // A storefront path ("/cart/add…", not protocol-relative "//host") or an absolute http(s) URL.
    .refine((s) => /^\/(?![/\\])/.test(s) || isHttpUrl(s), "must be a path or an http(s) URL")
    .optional(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

/** Request shape of `POST /partner/baskets` and `PUT /partner/baskets/{id}`. */
export const basketInputSchema = z.strictObject({
  layout: z.enum(LAYOUTS).optional(),
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must look like #rrggbb")
    .transform((s) => s.toLowerCase())
    .optional(),
  checkout: checkoutSchema.optional(),
  /** null removes the webhook. */
  webhookUrl: httpUrlSchema.nullable().optional(),
});
export type BasketInput = z.input<typeof basketInputSchema>;

const parseInput = (body: unknown) => parseOrThrow(basketInputSchema, body ?? {});

type BasketRow = Pick<BasketConfig, "publicId" | "partnerId" | "shopId" | "layout" | "primaryColor" | "checkout" | "webhookUrl" | "webhookSecret" | "createdAt" | "updatedAt">;

/** What a storefront may see: never the webhook URL or secret. */
function publicView(row: BasketRow, webhooksAllowed: boolean) {
  return {
    id: row.publicId,
    layout: row.layout,
    primaryColor: row.primaryColor,
    checkout: row.checkout,
    webhook: Boolean(row.webhookUrl) && webhooksAllowed,
  };
}

/** The owner's view: adds the URL (not the secret, which is shown once). */
function partnerView(row: BasketRow, webhooksAllowed: boolean) {
  return {
    ...publicView(row, webhooksAllowed),
    webhookUrl: row.webhookUrl,
    shopId: row.shopId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Partner routes act for the caller's partner; a user without one gets 404 `no_partner`. */
export function partnerIdOf(principal: PartnerPrincipal): number {
  if (principal.partnerId === null) throw notFound("no_partner", "This user is not linked to a partner");
  return principal.partnerId;
}

async function partnerPlan(partnerId: number) {
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { plan: true } });
  // SPEC 7.4: basket routes say not_found for a missing partner.
  if (!partner) throw notFound("not_found", `No partner with id ${partnerId}`);
  return { id: partner.plan, webhooks: getPlan(partner.plan)?.webhooks ?? false };
}

function webhooksNotAvailable(plan: string) {
  return forbidden("webhooks_not_available", "Webhooks are available on the Growth, Scale and Enterprise plans", { plan });
}

function checkCheckoutMode(checkout: Checkout, webhookUrl: string | null) {
  if (checkout.mode === "webhook" && !webhookUrl) {
    throw badRequest("invalid_input", "checkout.mode webhook needs a webhookUrl");
  }
}

/** Creates a configuration; the webhook secret is returned here and never again. */
export async function createBasketConfig(partnerId: number, body: unknown, opts: { shopId?: number } = {}) {
  const input = parseInput(body);
  const plan = await partnerPlan(partnerId);
  const webhookUrl = input.webhookUrl ?? null;
  if (webhookUrl && !plan.webhooks) throw webhooksNotAvailable(plan.id);
  const checkout: Checkout = input.checkout ?? { mode: "cart" };
  checkCheckoutMode(checkout, webhookUrl);
  const row = await db.basketConfig.create({
    data: {
      publicId: newBasketId(),
      partnerId,
      shopId: opts.shopId ?? null,
      layout: input.layout ?? "drawer",
      ...(input.primaryColor ? { primaryColor: input.primaryColor } : {}),
      checkout,
      webhookUrl,
      webhookSecret: webhookUrl ? newWebhookSecret() : null,
    },
  });
  invalidateKeyConfig(partnerId);
  await purgeCdn([partnerKey(partnerId)]); // the shop's colour on its share pages
  return { basket: partnerView(row, plan.webhooks), ...(row.webhookSecret ? { webhookSecret: row.webhookSecret } : {}) };
}

/** The partner's own configuration, or 404 `not_found`. */
async function ownBasket(partnerId: number, publicId: string | undefined) {
  const row = publicId?.startsWith(BASKET_ID_PREFIX)
    ? await db.basketConfig.findUnique({ where: { publicId } })
    : null;
  if (!row || row.partnerId !== partnerId) throw notFound("not_found", "Basket configuration not found");
  return row;
}

/** Changes the given fields; a secret is generated (and returned once) when a webhook is first set. */
export async function updateBasketConfig(partnerId: number, publicId: string | undefined, body: unknown) {
  const input = parseInput(body);
  const row = await ownBasket(partnerId, publicId);
  const plan = await partnerPlan(partnerId);
  if (input.webhookUrl && !plan.webhooks) throw webhooksNotAvailable(plan.id);
  const webhookUrl = input.webhookUrl === undefined ? row.webhookUrl : input.webhookUrl;
  checkCheckoutMode(input.checkout ?? (row.checkout as Checkout), webhookUrl);
  // Removing the webhook drops its secret; setting one again issues a new secret.
  const newSecret = webhookUrl && !row.webhookSecret ? newWebhookSecret() : null;
  const updated = await db.basketConfig.update({
    where: { id: row.id },
    data: {
      ...(input.layout ? { layout: input.layout } : {}),
      ...(input.primaryColor ? { primaryColor: input.primaryColor } : {}),
      ...(input.checkout ? { checkout: input.checkout } : {}),
      webhookUrl,
      webhookSecret: webhookUrl ? (newSecret ?? row.webhookSecret) : null,
    },
  });
  invalidateKeyConfig(partnerId);
  await purgeCdn([partnerKey(partnerId)]);
  return { basket: partnerView(updated, plan.webhooks), ...(newSecret ? { webhookSecret: newSecret } : {}) };
}

export async function listBasketConfigs(partnerId: number) {
  const plan = await partnerPlan(partnerId);
  const rows = await db.basketConfig.findMany({ where: { partnerId }, orderBy: { id: "asc" } });
  return { baskets: rows.map((r) => partnerView(r, plan.webhooks)) };
}

async function basketWithPlan(publicId: string | undefined) {
  // Ids that cannot exist skip the database.
  if (!publicId?.startsWith(BASKET_ID_PREFIX) || publicId.length > 64) return null;
  return db.basketConfig.findUnique({ where: { publicId }, include: { partner: { select: { plan: true } } } });
}

/** `GET /baskets/{id}`: the storefront's view, or 404 `not_found`. */
export async function getPublicBasket(publicId: string | undefined) {
  const row = await basketWithPlan(publicId);
  if (!row) throw notFound("not_found", "Basket configuration not found");
  return publicView(row, getPlan(row.partner.plan)?.webhooks ?? false);
}

/** `POST /baskets/{id}/event`: stores the event; checkout events also go to the webhook via the outbox. */
export async function recordBasketEvent(publicId: string | undefined, body: unknown) {
  const input = isPlainObject(body) ? body : {};
  const type = input.type;
  if (typeof type !== "string" || !(EVENT_TYPES as readonly string[]).includes(type)) {
    throw badRequest("invalid_input", `type must be one of ${EVENT_TYPES.join(", ")}`, { allowed_types: EVENT_TYPES });
  }
  const meta = input.meta;
  if (meta !== undefined && (meta === null || typeof meta !== "object" || Array.isArray(meta))) {
    throw badRequest("invalid_input", "meta must be a JSON object");
  }
  if (meta !== undefined && Buffer.byteLength(JSON.stringify(meta)) > MAX_META_BYTES) {
    throw badRequest("invalid_input", `meta must be at most ${MAX_META_BYTES} bytes of JSON`);
  }
  const basket = await basketWithPlan(publicId);
  if (!basket) throw notFound("not_found", "Basket configuration not found");
  const event = await db.basketEvent.create({
    data: { basketConfigId: basket.id, type, meta: meta as Prisma.InputJsonValue | undefined },
  });
  if (WEBHOOK_EVENTS.has(type) && basket.webhookUrl && getPlan(basket.partner.plan)?.webhooks) {
    try {
      await enqueue({
        kind: "webhook",
        topic: `basket.${type}`,
        payload: {
          basket_id: basket.publicId,
          body: { type: `basket.${type}`, basket_id: basket.publicId, occurred_at: event.createdAt.toISOString(), meta: meta ?? {} },
        } as Prisma.InputJsonValue,
      });
    } catch (err) {
      // The event is stored; a lost notification must not fail the storefront.
      log.error("basket webhook enqueue failed", { basket: basket.publicId, ...errorFields(err) });
    }
  }
  return { ok: true };
}

/**
 * Where the outbox delivers a basket's webhook now: the current URL and
 * secret, or why there is none (then the message fails without retries).
 */
export async function basketWebhookTarget(publicId: string): Promise<{ url: string; secret: string } | { missing: string }> {
  const basket = await basketWithPlan(publicId);
  if (!basket) return { missing: "basket configuration no longer exists" };
  if (!basket.webhookUrl || !basket.webhookSecret) return { missing: "basket has no webhook configured" };
  if (!getPlan(basket.partner.plan)?.webhooks) return { missing: `plan ${basket.partner.plan} has no webhooks` };
  return { url: basket.webhookUrl, secret: basket.webhookSecret };
}

/** The outbox's webhook messages name their basket in `basket_id` (see enqueue above). */
export const BASKET_WEBHOOKS: WebhookRecipients = { field: "basket_id", target: basketWebhookTarget };

/** `POST /partner/baskets/{id}/test-webhook`: one signed call now, answered with the receiver's status. */
export async function testBasketWebhook(partnerId: number, publicId: string | undefined) {
  const row = await ownBasket(partnerId, publicId);
  const plan = await partnerPlan(partnerId);
  if (!plan.webhooks) throw webhooksNotAvailable(plan.id);
  if (!row.webhookUrl || !row.webhookSecret) throw badRequest("no_webhook", "This basket configuration has no webhook URL");
  const payload = { type: "basket.test", basket_id: row.publicId, sent_at: new Date().toISOString() };
  try {
    const { status } = await postWebhook({
      url: row.webhookUrl,
      secret: row.webhookSecret,
      id: `test_${randomBytes(12).toString("base64url")}`,
      payload,
      timeoutMs: TEST_WEBHOOK_TIMEOUT_MS,
    });
    return { ok: true, status };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    throw new ApiError(502, "webhook_failed", err.message, {
      ...(err.status !== undefined ? { status: err.status } : {}),
      reason: err.code,
    });
  }
}

/**
 * The hosted drawer (`/dialog/basket?config=…`) for a basket: its storefront
 * view and the sites that may frame it (a CSP `frame-ancestors` value) — the
 * hosts the partner's active keys allow (any port, the app's own scheme), local
 * hosts always (as init allows them), any site when a key has no allow-list
 * (init accepts any origin for it too), nobody without an active key. Null
 * when the basket is unknown.
 */
export async function basketDrawer(publicId: string | undefined) {
  const row = await basketWithPlan(publicId);
  if (!row) return null;
  const keys = await db.apiKey.findMany({ where: { partnerId: row.partnerId, status: "active" }, select: { allowedDomains: true } });
  const lists = keys.map(allowedDomainsOf);
  const hosts = new Set(["localhost", "127.0.0.1", ...lists.flat()]);
  let frameAncestors = [...hosts].map((h) => `${h}:*`).join(" ");
  if (lists.length === 0) frameAncestors = "'none'"; // no key can start a widget session
  else if (lists.some((l) => l.length === 0)) frameAncestors = "*";
  return { basket: publicView(row, getPlan(row.partner.plan)?.webhooks ?? false), frameAncestors, partnerId: row.partnerId };
}
