// Reading a partner's usage of the current month (SPEC 2.7). A pure read:
// the counters are written elsewhere with atomic increments.
import { db } from "~/db.server";
import { ApiError } from "~/lib/api/errors";
import { getPartner } from "~/domains/partners/partners.server";
import { getPlan } from "~/domains/plans/plans";
import { computeUsageRecord, currentPeriod, NO_USAGE } from "./usage";

export { currentPeriod } from "./usage";

/** The usage record of a partner for the UTC month containing `now`; 404 `partner_not_found`. */
export async function usageRecord(partnerId: number, now: Date = new Date()) {
  const partner = await getPartner(partnerId);
  const plan = getPlan(partner.plan);
  if (!plan) throw new ApiError(500, "plan_limits_not_found", `Unknown plan ${JSON.stringify(partner.plan)}`);
  const period = currentPeriod(now);
  const counter = await db.usageCounter.findUnique({
    where: { partnerId_period: { partnerId, period: period.period } },
  });
  return { partner_id: partner.id, ...computeUsageRecord(plan, counter ?? NO_USAGE, period) };
}

/**
 * The month's actions per UTC day (every day from the 1st to today, zeros
 * included) and the month's requests per key of the partner: the admin's
 * usage page.
 */
export async function usageHistory(partnerId: number, now: Date = new Date()) {
  const { period } = currentPeriod(now);
  const [days, keys] = await Promise.all([
    db.usageDay.findMany({ where: { partnerId, day: { startsWith: period } } }),
    db.apiKey.findMany({ where: { partnerId }, select: { id: true, key: true, environment: true, status: true }, orderBy: { id: "asc" } }),
  ]);
  const counters = await db.apiKeyRequestCounter.findMany({ where: { window: period, apiKeyId: { in: keys.map((k) => k.id) } } });
  const byDay = new Map(days.map((d) => [d.day, d]));
  const today = now.getUTCDate();
  const daily = Array.from({ length: today }, (_, i) => {
    const day = `${period}-${String(i + 1).padStart(2, "0")}`;
    const row = byDay.get(day);
    return { day, saves: row?.saves ?? 0, shares: row?.shares ?? 0, listViews: row?.listViews ?? 0 };
  });
  const requests = new Map(counters.map((c) => [c.apiKeyId, c.count]));
  return {
    period,
    daily,
    keys: keys.map((k) => ({ id: k.id, key: k.key, environment: k.environment, status: k.status, requests: requests.get(k.id) ?? 0 })),
  };
}

