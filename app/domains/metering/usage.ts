// The usage record of SPEC 2.7 as a pure computation over one month's
// counter and the plan table, so it can be tested without a database.
import { nextPlan, upgradeCheaperFromActions, type Plan } from "~/domains/plans/plans";

export interface UsagePeriod {
  /** `YYYY-MM`, the key of UsageCounter.period. */
  period: string;
  period_start: string;
  /** Exclusive: the first instant of the next month (start <= t < end). */
  period_end: string;
}

/** The UTC calendar month containing `date` (SPEC 8: actions count per UTC month). */
export function currentPeriod(date: Date = new Date()): UsagePeriod {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + 1, 1));
  return {
    period: `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}`,
    period_start: start.toISOString(),
    period_end: end.toISOString(),
  };
}

export interface UsageCounts {
  saves: number;
  shares: number;
  listViews: number;
  total: number;
}

export const NO_USAGE: UsageCounts = { saves: 0, shares: 0, listViews: 0, total: 0 };

export type UsageLevel = "ok" | "warning" | "exceeded";

export const WARNING_PERCENT = 80;

/**
 * `ok` below 80%, `warning` from 80%, `exceeded` from 100% of the included
 * actions; plans without a finite limit are always `ok`. Compared in
 * integers so 160 of 200 is exactly the 80% threshold.
 */
export function usageLevel(used: number, limit: number | null): UsageLevel {
  if (limit === null) return "ok";
  if (used >= limit) return "exceeded";
  if (used * 100 >= limit * WARNING_PERCENT) return "warning";
  return "ok";
}

export function computeUsageRecord(plan: Plan, counts: UsageCounts, period: UsagePeriod) {
  const used = counts.total;
  const limit = plan.includedActions;
  const unlimited = limit === null;
  const overageActions = unlimited ? 0 : Math.max(0, used - limit);
  const rate = plan.overagePerActionMinor;
  return {
    plan: plan.id,
    plan_name: plan.name,
    period: period.period,
    actions_used: used,
    actions_limit: limit,
    period_start: period.period_start,
    period_end: period.period_end,
    breakdown: { save: counts.saves, share: counts.shares, list_view: counts.listViews },
    // Whole percent rounded down (never shows 100 before the limit is reached);
    // not capped, so 3,200 of 2,000 is 160. 0 when unlimited.
    percent: unlimited ? 0 : Math.floor((used * 100) / limit),
    level: usageLevel(used, limit),
    trial_days: plan.trialDays,
    hard_limit: plan.hardLimit,
    overage_per_action_minor: rate,
    overage_actions: overageActions,
    // Whole cents, half rounded up (1 action at 2.5 ct costs 3 ct).
    overage_cost_minor: rate === null ? null : Math.round(overageActions * rate),
    next_plan: nextPlan(plan.id)?.id ?? null,
    upgrade_cheaper_from_actions: upgradeCheaperFromActions(plan.id),
    // Free is paused at 100% (SPEC section 3); paid plans run on with overage.
    blocked: plan.hardLimit && !unlimited && used >= limit,
  };
}

export type UsageRecord = ReturnType<typeof computeUsageRecord>;
