// Subscription state follows Shopify (SPEC 3, 8.1): an active subscription
// sets the partner's plan and the shop's subscription_status = active (which
// lifts the Free pause and the trial's subscription_required at once); a
// subscription that ends returns the partner to Free. Two sources call in:
// every admin load (the shop's full list of active subscriptions) and the
// app_subscriptions/update webhook (one subscription's new status).
import { z } from "zod";
import { db } from "~/db.server";
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import { billingIsTest, env } from "~/env.server";
import { ApiError, badRequest } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { getPlan, type PlanId } from "~/domains/plans/plans";
import { adminQuery, type AdminGraphql } from "./admin-graphql.server";
import { billingPlanByName, SOLD_PLANS } from "~/domains/plans/billing-plans";
import { fetchShopInfo, writeShopMetafields, type ScriptMetafields } from "./provisioning.server";
import { SHOP_METAFIELD_KEYS, SHOP_METAFIELD_NAMESPACE } from "./metafields";
import type { PlatformWebhook } from "./webhook-deliveries.server";

export interface ShopifySubscription {
  /** gid://shopify/AppSubscription/… */
  id: string;
  name: string;
  /** ACTIVE, PENDING, CANCELLED, DECLINED, EXPIRED, FROZEN (any case). */
  status: string;
  test?: boolean | null;
}

// The shop's script metafields ride along, so an admin load can refresh them without another call.
export const ACTIVE_SUBSCRIPTIONS_QUERY = `#graphql
query WishlistSubscriptions {
  currentAppInstallation { id activeSubscriptions { id name status test trialDays currentPeriodEnd } }
  shop {
    id
    appUrl: metafield(namespace: "${SHOP_METAFIELD_NAMESPACE}", key: "${SHOP_METAFIELD_KEYS.appUrl}") { value }
    anonKey: metafield(namespace: "${SHOP_METAFIELD_NAMESPACE}", key: "${SHOP_METAFIELD_KEYS.anonKey}") { value }
  }
}`;

export async function fetchActiveSubscriptions(graphql: AdminGraphql): Promise<{ subscriptions: ShopifySubscription[]; shop: ScriptMetafields | null }> {
  const data = await adminQuery<{ currentAppInstallation: { activeSubscriptions: ShopifySubscription[] }; shop?: ScriptMetafields | null }>(
    graphql,
    ACTIVE_SUBSCRIPTIONS_QUERY,
  );
  return { subscriptions: data.currentAppInstallation.activeSubscriptions, shop: data.shop ?? null };
}

/** Statuses after which a subscription no longer pays for a plan. */
const ENDED = new Set(["CANCELLED", "DECLINED", "EXPIRED"]);
/** Plans a Shopify subscription sells; a partner on another plan (Enterprise) is never downgraded by Shopify. */
const SOLD = new Set<string>(SOLD_PLANS);
const RANK: Record<string, number> = { starter: 1, growth: 2, scale: 3 };

export interface SyncOptions {
  /** Whether test charges count (SHOPIFY_BILLING_TEST). */
  acceptTest: boolean;
  /** When given, a downgrade also puts the branding badge back on in the shop metafield. */
  graphql?: AdminGraphql;
}

export type SyncResult = { changed: "activated" | "ended" | null; plan: string } | null;

async function shopByDomain(shopDomain: string) {
  return db.platformShop.findUnique({ where: { domain: shopDomain.toLowerCase() }, include: { partner: true } });
}
type ShopWithPartner = NonNullable<Awaited<ReturnType<typeof shopByDomain>>>;

async function activate(shop: ShopWithPartner, sub: ShopifySubscription, plan: PlanId): Promise<SyncResult> {
  const same =
    shop.subscriptionStatus === "active" && shop.subscriptionId === sub.id && shop.partner.plan === plan;
  if (same) return { changed: null, plan };
  await db.$transaction([
    db.partner.update({
      where: { id: shop.partnerId },
      data: { plan, ...(shop.partner.plan !== plan ? { planChangedAt: new Date() } : {}) },
    }),
    db.platformShop.update({
      where: { id: shop.id },
      data: { subscriptionStatus: "active", plan: sub.name, subscriptionId: sub.id },
    }),
  ]);
  invalidateKeyConfig(shop.partnerId);
  log.info("shop subscription active", { shop: shop.domain, plan, subscription: sub.id });
  return { changed: "activated", plan };
}

async function end(shop: ShopWithPartner, opts: SyncOptions): Promise<SyncResult> {
  const downgrade = SOLD.has(shop.partner.plan);
  await db.$transaction([
    ...(downgrade
      ? [db.partner.update({ where: { id: shop.partnerId }, data: { plan: "free", planChangedAt: new Date() } })]
      : []),
    db.platformShop.update({
      where: { id: shop.id },
      data: { subscriptionStatus: "cancelled", plan: null, subscriptionId: null },
    }),
  ]);
  invalidateKeyConfig(shop.partnerId);
  log.info("shop subscription ended", { shop: shop.domain, previousPlan: shop.partner.plan });
  const plan = downgrade ? "free" : shop.partner.plan;
  if (opts.graphql && !(getPlan(plan)?.canHideBadge ?? false)) {
    // The badge may only be off on paid plans; a failure here is retried on the next admin load.
    try {
      const info = await fetchShopInfo(opts.graphql);
      if (info.badge?.value === "false") await writeShopMetafields(opts.graphql, info.id, { badge: true });
    } catch (err) {
      log.warn("could not restore the branding badge", { shop: shop.domain, ...errorFields(err) });
    }
  }
  return { changed: "ended", plan };
}

function planOf(sub: ShopifySubscription, opts: SyncOptions): PlanId | null {
  if (sub.status.toUpperCase() !== "ACTIVE" || (sub.test && !opts.acceptTest)) return null;
  return billingPlanByName(sub.name)?.plan ?? null;
}

/**
 * Reconciles the shop with its complete list of active subscriptions (from
 * `currentAppInstallation.activeSubscriptions`); null for an unknown shop.
 */
export async function syncSubscription(
  shopDomain: string,
  activeSubscriptions: readonly ShopifySubscription[],
  opts: SyncOptions,
): Promise<SyncResult> {
  const shop = await shopByDomain(shopDomain);
  if (!shop) return null;
  let best: { sub: ShopifySubscription; plan: PlanId } | null = null;
  for (const sub of activeSubscriptions) {
    const plan = planOf(sub, opts);
    if (plan && (!best || RANK[plan]! > RANK[best.plan]!)) best = { sub, plan };
  }
  if (best) return activate(shop, best.sub, best.plan);
  if (shop.subscriptionStatus === "active") return end(shop, opts);
  return { changed: null, plan: shop.partner.plan };
}

/**
 * One subscription changed status (app_subscriptions/update). An ended
 * subscription downgrades only if it is the shop's current one: on a plan
 * change Shopify cancels the old subscription, possibly after activating the
 * new one, and a declined new subscription leaves the current plan alone.
 */
export async function applySubscriptionUpdate(
  shopDomain: string,
  sub: ShopifySubscription,
  opts: SyncOptions,
): Promise<SyncResult> {
  const shop = await shopByDomain(shopDomain);
  if (!shop) return null;
  const plan = planOf(sub, opts);
  if (plan) return activate(shop, sub, plan);
  const isCurrent = shop.subscriptionId === sub.id || shop.subscriptionId === null;
  if (ENDED.has(sub.status.toUpperCase()) && isCurrent && shop.subscriptionStatus === "active") return end(shop, opts);
  return { changed: null, plan: shop.partner.plan };
}

const subscriptionEventSchema = z.object({
  app_subscription: z.object({ admin_graphql_api_id: z.string().min(1), name: z.string(), status: z.string().min(1) }),
});

/** The `app_subscriptions/update` webhook: one subscription of the shop changed status. */
export async function subscriptionUpdated(hook: PlatformWebhook): Promise<void> {
  const parsed = subscriptionEventSchema.safeParse(hook.payload);
  if (!parsed.success) throw badRequest("invalid_input", "app_subscription with admin_graphql_api_id, name and status is required");
  const sub = parsed.data.app_subscription;
  // A shop never provisioned has nothing to update (applySubscriptionUpdate answers null).
  await applySubscriptionUpdate(hook.shop, { id: sub.admin_graphql_api_id, name: sub.name, status: sub.status }, {
    acceptTest: billingIsTest(env),
    graphql: hook.graphql,
  });
}

export const CANCEL_SUBSCRIPTION_MUTATION = `#graphql
mutation WishlistCancelSubscription($id: ID!, $prorate: Boolean) {
  appSubscriptionCancel(id: $id, prorate: $prorate) {
    appSubscription { id name status }
    userErrors { field message }
  }
}`;

interface CancelPayload {
  appSubscriptionCancel: {
    appSubscription: ShopifySubscription | null;
    userErrors: Array<{ field?: string[] | null; message: string }>;
  } | null;
}

/**
 * The merchant leaves the paid plan (the plans page's "Switch to Free"):
 * Shopify cancels the shop's current subscription (prorated, so the unused
 * part of the period is credited), and the cancellation is recorded exactly
 * as the app_subscriptions/update webhook that follows records it. Shopify's
 * refusal (userErrors) is a 409 `cancel_failed` carrying Shopify's words,
 * and changes nothing here.
 */
export async function switchToFree(shopDomain: string, graphql: AdminGraphql, opts: SyncOptions): Promise<SyncResult> {
  const shop = await shopByDomain(shopDomain);
  if (!shop || shop.subscriptionStatus !== "active" || !shop.subscriptionId) {
    throw new ApiError(409, "no_subscription", "This shop has no paid plan to leave");
  }
  const data = await adminQuery<CancelPayload>(graphql, CANCEL_SUBSCRIPTION_MUTATION, { id: shop.subscriptionId, prorate: true });
  const payload = data.appSubscriptionCancel;
  const errors = payload?.userErrors ?? [];
  if (errors.length > 0 || !payload?.appSubscription) {
    log.warn("shopify refused to cancel a subscription", { shop: shop.domain, subscription: shop.subscriptionId, errors: JSON.stringify(errors) });
    throw new ApiError(409, "cancel_failed", errors.map((e) => e.message).join(" ") || "Shopify did not cancel the subscription");
  }
  const sub = payload.appSubscription;
  return applySubscriptionUpdate(shopDomain, { id: sub.id, name: sub.name ?? shop.plan ?? "", status: sub.status }, { ...opts, graphql });
}
