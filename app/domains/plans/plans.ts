// The plans of SPEC 8.1 and the per-key request plans of SPEC 8.3, as data:
// every plan limit lives in this table. Pure module (no database): the usage
// computation, billing, the CLI and the tests all read the same table.

export type PlanId = "free" | "starter" | "growth" | "scale" | "enterprise";

export interface Plan {
  id: PlanId;
  name: string;
  /** Monthly price in the portal; null where it is individual (Enterprise). */
  price_eur_cents: number | null;
  /** Monthly price through the storefront platform (USD). */
  price_usd_cents: number | null;
  /** Included wishlist actions per month; null = unlimited (Enterprise). */
  includedActions: number | null;
  /** Price of one action over the limit in minor units (2.5 ct → 2.5); null when there is no overage billing. */
  overagePerActionMinor: number | null;
  /** Free stops saves at 100%; paid plans keep going and bill overage. */
  hardLimit: boolean;
  webhooks: boolean;
  serverKeys: boolean;
  /** Trial through the storefront platform (paid plans 14 days, Free none). */
  trialDays: number;
  /** The branding badge can be switched off on paid plans only. */
  canHideBadge: boolean;
  /**
   * The per-key request plan (SPEC 8.3) of the partner's keys that have none
   * of their own. SPEC leaves the mapping from shop plans open.
   */
  requestPlan: RequestPlanId;
  /** Creator media: ready videos per shop (SPEC 7.5); null = no limit. */
  readyVideoLimit: number | null;
  /** Alerts on saved products the shop may send (app/domains/alerts): Free back in stock only. */
  alerts: readonly AlertKind[];
  /** Reminder digests of saved items not yet bought (app/domains/alerts/reminders.server.ts): Starter and up. */
  reminders: boolean;
}

export type AlertKind = "price_drop" | "back_in_stock" | "low_stock";
export const ALERT_KINDS: readonly AlertKind[] = ["price_drop", "back_in_stock", "low_stock"];

// Ordered from the smallest plan up; nextPlan relies on the order.
export const PLANS: readonly Plan[] = [
  {
    id: "free",
    name: "Free",
    price_eur_cents: 0,
    price_usd_cents: 0,
    includedActions: 200,
    overagePerActionMinor: null,
    hardLimit: true,
    webhooks: false,
    serverKeys: false,
    trialDays: 0,
    canHideBadge: false,
    requestPlan: "trial",
    readyVideoLimit: 5,
    alerts: ["back_in_stock"],
    reminders: false,
  },
  {
    id: "starter",
    name: "Starter",
    price_eur_cents: 1900,
    price_usd_cents: 1900,
    includedActions: 2000,
    overagePerActionMinor: 2.5,
    hardLimit: false,
    webhooks: false,
    serverKeys: false,
    trialDays: 14,
    canHideBadge: true,
    requestPlan: "starter-api",
    readyVideoLimit: null,
    alerts: ALERT_KINDS,
    reminders: true,
  },
  {
    id: "growth",
    name: "Growth",
    price_eur_cents: 4900,
    price_usd_cents: 4900,
    includedActions: 15_000,
    overagePerActionMinor: 1.0,
    hardLimit: false,
    webhooks: true,
    serverKeys: false,
    trialDays: 14,
    canHideBadge: true,
    requestPlan: "pro-api",
    readyVideoLimit: null,
    alerts: ALERT_KINDS,
    reminders: true,
  },
  {
    id: "scale",
    name: "Scale",
    price_eur_cents: 9900,
    price_usd_cents: 9900,
    includedActions: 60_000,
    overagePerActionMinor: 0.5,
    hardLimit: false,
    webhooks: true,
    serverKeys: true,
    trialDays: 14,
    canHideBadge: true,
    requestPlan: "business-api",
    readyVideoLimit: null,
    alerts: ALERT_KINDS,
    reminders: true,
  },
  {
    // Individual contract: treated as unlimited, no list price, no overage rate.
    id: "enterprise",
    name: "Enterprise",
    price_eur_cents: null,
    price_usd_cents: null,
    includedActions: null,
    overagePerActionMinor: null,
    hardLimit: false,
    webhooks: true,
    serverKeys: true,
    trialDays: 0,
    canHideBadge: true,
    requestPlan: "enterprise-api",
    readyVideoLimit: null,
    alerts: ALERT_KINDS,
    reminders: true,
  },
];

/** Portal yearly billing discount (SPEC 8.1). */
export const YEARLY_DISCOUNT_PERCENT = 20;

export const PLAN_IDS = PLANS.map((p) => p.id);

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as string[]).includes(value);
}

export function getPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** The plan a partner would upgrade to; null for the largest. */
export function nextPlan(id: PlanId): Plan | null {
  const index = PLANS.findIndex((p) => p.id === id);
  return PLANS[index + 1] ?? null;
}

/**
 * Actions over the limit from which the next plan costs less than this plan
 * plus overage (SPEC 8.1: Starter → Growth from 1,200, Growth → Scale from
 * 5,000). Derived from the prices so the table stays the single source;
 * null when either side has no list price or there is no overage.
 */
export function upgradeCheaperFromActions(id: PlanId): number | null {
  const plan = getPlan(id);
  const next = nextPlan(id);
  if (!plan || !next || plan.overagePerActionMinor === null) return null;
  if (plan.price_eur_cents === null || next.price_eur_cents === null) return null;
  return Math.ceil((next.price_eur_cents - plan.price_eur_cents) / plan.overagePerActionMinor);
}

// ---------------------------------------------------------------- per-key request plans (SPEC 8.3)

export type RequestPlanId =
  | "trial"
  | "creator"
  | "premium-creator"
  | "starter-api"
  | "pro-api"
  | "business-api"
  | "enterprise-api";

export interface RequestPlan {
  id: RequestPlanId;
  /** Included requests per calendar month. */
  monthlyCalls: number;
  /** Requests per minute (X-RateLimit-Limit). Informational, never enforced with 429. */
  perMinute: number;
  /** Overage per 1,000 calls, in the SPEC's currency units (not minor units). */
  overagePer1000: number;
  productionKeys: boolean;
  webhooks: boolean;
  /** premium-creator calls are added on top of an API plan. */
  stackable: boolean;
}

export const REQUEST_PLANS: readonly RequestPlan[] = [
  { id: "trial", monthlyCalls: 1_000, perMinute: 10, overagePer1000: 0.05, productionKeys: false, webhooks: false, stackable: false },
  { id: "creator", monthlyCalls: 0, perMinute: 5, overagePer1000: 0.1, productionKeys: true, webhooks: false, stackable: false },
  { id: "premium-creator", monthlyCalls: 25_000, perMinute: 50, overagePer1000: 0.01, productionKeys: true, webhooks: false, stackable: true },
  { id: "starter-api", monthlyCalls: 50_000, perMinute: 100, overagePer1000: 0.01, productionKeys: true, webhooks: false, stackable: false },
  { id: "pro-api", monthlyCalls: 500_000, perMinute: 1_000, overagePer1000: 0.008, productionKeys: true, webhooks: true, stackable: false },
  { id: "business-api", monthlyCalls: 2_000_000, perMinute: 3_000, overagePer1000: 0.005, productionKeys: true, webhooks: true, stackable: false },
  { id: "enterprise-api", monthlyCalls: 10_000_000, perMinute: 5_000, overagePer1000: 0.003, productionKeys: true, webhooks: true, stackable: false },
];

/** The default of ApiKey.requestPlan. */
export const DEFAULT_REQUEST_PLAN: RequestPlanId = "trial";

export function getRequestPlan(id: string): RequestPlan | undefined {
  return REQUEST_PLANS.find((p) => p.id === id);
}

/** The request plan a key runs on: its own when set (not the default), else its partner's plan's. */
export function effectiveRequestPlan(keyPlan: string, partnerPlan: string): string {
  return keyPlan !== DEFAULT_REQUEST_PLAN ? keyPlan : (getPlan(partnerPlan)?.requestPlan ?? DEFAULT_REQUEST_PLAN);
}
