// The plans a shop can buy through the Shopify Billing API (SPEC 8.1): Starter,
// Growth and Scale at 19 / 49 / 99 USD every 30 days, each also yearly at
// -20%, all with the 14-day trial. Free is no subscription at all. Pure
// module: the Shopify configuration, the plans page and the subscription sync
// all read the subscription names from here.
import { toAmount } from "~/lib/money";
import { getPlan, YEARLY_DISCOUNT_PERCENT, type PlanId } from "./plans";

export type BillingInterval = "monthly" | "yearly";

export interface BillingPlan {
  /** The subscription name in Shopify (the billing config key): "Starter", "Starter (yearly)". */
  name: string;
  plan: PlanId;
  interval: BillingInterval;
  /** Price per interval in USD (Shopify takes decimal amounts). */
  amountUsd: number;
  trialDays: number;
}

/** The plans sold as subscriptions (Free is none, Enterprise is a contract). */
export const SOLD_PLANS: readonly PlanId[] = ["starter", "growth", "scale"];

function billingPlan(plan: PlanId, interval: BillingInterval): BillingPlan {
  const p = getPlan(plan)!;
  const cents = p.price_usd_cents!;
  const yearlyCents = Math.round((cents * 12 * (100 - YEARLY_DISCOUNT_PERCENT)) / 100);
  const amountUsd = toAmount(interval === "monthly" ? cents : yearlyCents, "USD")!;
  return { name: interval === "monthly" ? p.name : `${p.name} (yearly)`, plan, interval, amountUsd, trialDays: p.trialDays };
}

export const BILLING_PLANS: readonly BillingPlan[] = SOLD_PLANS.flatMap((id) => [
  billingPlan(id, "monthly"),
  billingPlan(id, "yearly"),
]);

export function billingPlanByName(name: string): BillingPlan | undefined {
  return BILLING_PLANS.find((p) => p.name === name);
}
