// What the admin's home and plans pages show about a shop: plan, trial,
// usage of the month, the plans on offer and the setup checklist.
import { db, type PlatformShop } from "~/db.server";
import { env } from "~/env.server";
import { getPlan } from "~/domains/plans/plans";
import { usageRecord } from "~/domains/metering/usage.server";
import { BILLING_PLANS } from "~/domains/plans/billing-plans";

const DAY_MS = 86_400_000;

type ShopRow = Pick<PlatformShop, "id" | "partnerId" | "domain" | "name" | "trialEndsAt" | "subscriptionStatus" | "plan">;

/** Whole days left of the shop's install trial (rounded up); 0 once it ended; null once subscribed. */
export function trialDaysLeft(shop: Pick<ShopRow, "trialEndsAt" | "subscriptionStatus">, now = new Date()): number | null {
  if (shop.subscriptionStatus === "active") return null;
  return Math.max(0, Math.ceil((shop.trialEndsAt.getTime() - now.getTime()) / DAY_MS));
}

export async function shopOverview(shop: ShopRow, now = new Date()) {
  const usage = await usageRecord(shop.partnerId, now);
  const daysLeft = trialDaysLeft(shop, now);
  return {
    shop: { domain: shop.domain, name: shop.name ?? shop.domain },
    plan: { id: usage.plan, name: usage.plan_name },
    subscription: { status: shop.subscriptionStatus, name: shop.plan },
    trial: {
      daysLeft,
      endsAt: shop.trialEndsAt.toISOString(),
      // SPEC 3: after the trial, Free without a subscription stops the widget.
      expired: daysLeft === 0 && usage.plan === "free",
    },
    usage: {
      used: usage.actions_used,
      limit: usage.actions_limit,
      percent: usage.percent,
      level: usage.level,
      blocked: usage.blocked,
      periodEnd: usage.period_end,
      overageActions: usage.overage_actions,
      overageCostMinor: usage.overage_cost_minor,
      overagePerActionMinor: usage.overage_per_action_minor,
    },
  };
}
export type ShopOverview = Awaited<ReturnType<typeof shopOverview>>;

/** Starter, Growth and Scale with their monthly and yearly subscriptions. */
export function planOffers(currentPlan: string, currentSubscription: string | null) {
  return ["starter", "growth", "scale"].map((id) => {
    const plan = getPlan(id)!;
    const variants = BILLING_PLANS.filter((p) => p.plan === id).map((p) => ({
      name: p.name,
      interval: p.interval,
      amountUsd: p.amountUsd,
      current: p.name === currentSubscription,
    }));
    return {
      id,
      name: plan.name,
      includedActions: plan.includedActions,
      overagePerActionMinor: plan.overagePerActionMinor,
      trialDays: plan.trialDays,
      webhooks: plan.webhooks,
      current: currentPlan === id,
      variants,
    };
  });
}

/**
 * The home page's checklist. Whether the app embed is on is only visible in the theme editor, so that
 * item links there: to the app embed, switched on for the merchant to save (Shopify's deep link,
 * `activateAppId={api_key}/{handle}`, https://shopify.dev/docs/apps/build/online-store/theme-app-extensions/configuration).
 */
export async function setupChecklist(shop: ShopRow) {
  const [liveKey, saves] = await Promise.all([
    db.apiKey.findFirst({ where: { partnerId: shop.partnerId, environment: "live", status: "active" }, select: { id: true } }),
    db.usageCounter.findFirst({ where: { partnerId: shop.partnerId, saves: { gt: 0 } }, select: { period: true } }),
  ]);
  return {
    themeEditorUrl: `https://${shop.domain}/admin/themes/current/editor?context=apps&template=index&activateAppId=${encodeURIComponent(env.SHOPIFY_API_KEY ?? "")}/app-embed`,
    keyActive: liveKey !== null,
    firstSaveSeen: saves !== null,
  };
}
