// Reading a partner's usage of the current month (SPEC 2.7). A pure read:
// the counters are written elsewhere with atomic increments.
import { db } from "~/db.server";
import { ApiError } from "~/lib/api/errors";
import { getPartner } from "~/domains/partners/partners.server";
import { getPlan } from "./plans";
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
