// The plan tables (SPEC 8.1, 8.3) and the usage record computation (SPEC 2.7)
// as pure functions: no database, no server.
import { describe, expect, it } from "vitest";
import {
  getPlan,
  nextPlan,
  PLANS,
  REQUEST_PLANS,
  upgradeCheaperFromActions,
  type Plan,
  type PlanId,
} from "~/domains/plans/plans";
import { computeUsageRecord, currentPeriod, NO_USAGE, usageLevel } from "~/domains/metering/usage";

const plan = (id: PlanId): Plan => getPlan(id)!;
const period = currentPeriod(new Date("2026-11-21T14:05:00Z"));
const counts = (total: number) => ({ saves: total, shares: 0, listViews: 0, total });

describe("plan table (SPEC 8.1)", () => {
  it("has the five plans with prices, included actions and overage rates", () => {
    expect(PLANS.map((p) => [p.id, p.price_eur_cents, p.price_usd_cents, p.includedActions, p.overagePerActionMinor])).toEqual([
      ["free", 0, 0, 200, null],
      ["starter", 1900, 1900, 2000, 2.5],
      ["growth", 4900, 4900, 15_000, 1.0],
      ["scale", 9900, 9900, 60_000, 0.5],
      ["enterprise", null, null, null, null],
    ]);
  });

  it("has entitlements and trials: webhooks from Growth, server keys from Scale, 14-day trial on paid plans", () => {
    expect(PLANS.map((p) => [p.id, p.webhooks, p.serverKeys, p.trialDays, p.hardLimit])).toEqual([
      ["free", false, false, 0, true],
      ["starter", false, false, 14, false],
      ["growth", true, false, 14, false],
      ["scale", true, true, 14, false],
      ["enterprise", true, true, 0, false],
    ]);
  });

  it("orders the plans for upgrades", () => {
    expect(PLANS.map((p) => nextPlan(p.id)?.id ?? null)).toEqual(["starter", "growth", "scale", "enterprise", null]);
  });

  it("derives the break-even points the SPEC states: Growth beats Starter from 1,200 over, Scale beats Growth from 5,000", () => {
    expect(PLANS.map((p) => upgradeCheaperFromActions(p.id))).toEqual([null, 1200, 5000, null, null]);
    // At the break-even point both cost the same.
    expect(1900 + 1200 * 2.5).toBe(4900);
    expect(4900 + 5000 * 1.0).toBe(9900);
  });
});

describe("per-key request plans (SPEC 8.3)", () => {
  it("has every key plan with its monthly calls, per-minute value and overage", () => {
    expect(REQUEST_PLANS.map((p) => [p.id, p.monthlyCalls, p.perMinute, p.overagePer1000, p.productionKeys, p.webhooks])).toEqual([
      ["trial", 1_000, 10, 0.05, false, false],
      ["creator", 0, 5, 0.1, true, false],
      ["premium-creator", 25_000, 50, 0.01, true, false],
      ["starter-api", 50_000, 100, 0.01, true, false],
      ["pro-api", 500_000, 1_000, 0.008, true, true],
      ["business-api", 2_000_000, 3_000, 0.005, true, true],
      ["enterprise-api", 10_000_000, 5_000, 0.003, true, true],
    ]);
    expect(REQUEST_PLANS.filter((p) => p.stackable).map((p) => p.id)).toEqual(["premium-creator"]);
  });
});

describe("currentPeriod", () => {
  it("is the UTC calendar month; period_end is the exclusive start of the next month", () => {
    expect(period).toEqual({
      period: "2026-11",
      period_start: "2026-11-01T00:00:00.000Z",
      period_end: "2026-12-01T00:00:00.000Z",
    });
    expect(currentPeriod(new Date("2026-12-31T23:59:59.999Z"))).toEqual({
      period: "2026-12",
      period_start: "2026-12-01T00:00:00.000Z",
      period_end: "2027-01-01T00:00:00.000Z",
    });
    expect(currentPeriod(new Date("2027-01-01T00:00:00.000Z")).period).toBe("2027-01");
  });

  it("uses UTC, not the local time zone", () => {
    // 23:30 on Jan 31 in New York is already February in UTC.
    expect(currentPeriod(new Date("2026-01-31T23:30:00-05:00")).period).toBe("2026-02");
  });
});

describe("usage level", () => {
  it("is ok below 80%, warning from 80%, exceeded from 100%", () => {
    expect([0, 159, 160, 199, 200, 500].map((n) => usageLevel(n, 200))).toEqual([
      "ok",
      "ok",
      "warning",
      "warning",
      "exceeded",
      "exceeded",
    ]);
  });

  it("is always ok without a finite limit", () => {
    expect(usageLevel(10_000_000, null)).toBe("ok");
  });
});

describe("usage record (SPEC 2.7)", () => {
  it("has every field, zeros and level ok without usage", () => {
    expect(computeUsageRecord(plan("free"), NO_USAGE, period)).toEqual({
      plan: "free",
      plan_name: "Free",
      period: "2026-11",
      actions_used: 0,
      actions_limit: 200,
      period_start: "2026-11-01T00:00:00.000Z",
      period_end: "2026-12-01T00:00:00.000Z",
      breakdown: { save: 0, share: 0, list_view: 0 },
      percent: 0,
      level: "ok",
      trial_days: 0,
      hard_limit: true,
      overage_per_action_minor: null,
      overage_actions: 0,
      overage_cost_minor: null,
      next_plan: "starter",
      upgrade_cheaper_from_actions: null,
      blocked: false,
    });
  });

  it("takes used actions from the counter's total and the breakdown from its parts", () => {
    const record = computeUsageRecord(plan("growth"), { saves: 7, shares: 2, listViews: 11, total: 20 }, period);
    expect(record).toMatchObject({ actions_used: 20, breakdown: { save: 7, share: 2, list_view: 11 } });
  });

  it("Free at 170 of 200: warning, 85%, not blocked", () => {
    expect(computeUsageRecord(plan("free"), counts(170), period)).toMatchObject({
      percent: 85,
      level: "warning",
      blocked: false,
      overage_actions: 0,
      overage_cost_minor: null,
    });
  });

  it("Free at 200: exceeded and blocked, no overage billing", () => {
    expect(computeUsageRecord(plan("free"), counts(200), period)).toMatchObject({
      percent: 100,
      level: "exceeded",
      blocked: true,
      hard_limit: true,
      overage_actions: 0,
      overage_cost_minor: null,
    });
    expect(computeUsageRecord(plan("free"), counts(250), period)).toMatchObject({ blocked: true, overage_actions: 50 });
  });

  it("percent is rounded down, so 100 only shows once the limit is reached", () => {
    expect(computeUsageRecord(plan("starter"), counts(1999), period)).toMatchObject({ percent: 99, level: "warning" });
    expect(computeUsageRecord(plan("starter"), counts(1599), period)).toMatchObject({ percent: 79, level: "ok" });
  });

  it("Starter at 3,200: exceeded, 1,200 over at 2.5 ct = 3,000 ct, not blocked", () => {
    expect(computeUsageRecord(plan("starter"), counts(3200), period)).toMatchObject({
      plan: "starter",
      actions_limit: 2000,
      percent: 160,
      level: "exceeded",
      trial_days: 14,
      hard_limit: false,
      overage_per_action_minor: 2.5,
      overage_actions: 1200,
      overage_cost_minor: 3000,
      next_plan: "growth",
      upgrade_cheaper_from_actions: 1200,
      blocked: false,
    });
  });

  it("rounds the overage cost to whole cents, half up", () => {
    expect(computeUsageRecord(plan("starter"), counts(2001), period).overage_cost_minor).toBe(3);
    expect(computeUsageRecord(plan("scale"), counts(60_003), period).overage_cost_minor).toBe(2);
  });

  it("Growth and Scale: their rates and upgrade hints", () => {
    expect(computeUsageRecord(plan("growth"), counts(20_000), period)).toMatchObject({
      overage_actions: 5000,
      overage_cost_minor: 5000,
      next_plan: "scale",
      upgrade_cheaper_from_actions: 5000,
    });
    expect(computeUsageRecord(plan("scale"), counts(1000), period)).toMatchObject({
      level: "ok",
      percent: 1,
      overage_per_action_minor: 0.5,
      overage_cost_minor: 0,
      next_plan: "enterprise",
      upgrade_cheaper_from_actions: null,
    });
  });

  it("Enterprise is unlimited: no limit, level ok, no overage, never blocked", () => {
    expect(computeUsageRecord(plan("enterprise"), counts(5_000_000), period)).toMatchObject({
      actions_used: 5_000_000,
      actions_limit: null,
      percent: 0,
      level: "ok",
      trial_days: 0,
      hard_limit: false,
      overage_per_action_minor: null,
      overage_actions: 0,
      overage_cost_minor: null,
      next_plan: null,
      upgrade_cheaper_from_actions: null,
      blocked: false,
    });
  });
});
