// `GET /api-usage/{apiKeyId}` (SPEC 4.6, 7.3, 8.3): a key's own request
// counters and the request plan behind its X-RateLimit-* / X-Usage-* headers,
// read with the key itself as credential.
import { db } from "~/db.server";
import { ApiError, notFound, unauthorized } from "~/lib/api/errors";
import { effectiveRequestPlan, getRequestPlan } from "~/domains/plans/plans";
import { localCounts } from "~/domains/metering/request-counter.server";
import { isKeyUsable } from "./key-rules";

/** Same rounding as the X-Usage-Overage header. */
const roundOverage = (amount: number) => Number(amount.toFixed(4));

/**
 * Checks in the order of SPEC 7.3: no bearer key → 401, no key with that
 * id → 404, bearer is not that key (or no longer works) → 401.
 */
export async function apiKeyUsage(apiKeyId: number, bearer: string | null, now: Date = new Date()) {
  if (!bearer) throw unauthorized("Send the key's own public key as Authorization: Bearer pk_…");
  const row = await db.apiKey.findUnique({ where: { id: apiKeyId }, include: { partner: { select: { plan: true } } } });
  if (!row) throw notFound("api_key_not_found", `No key with id ${apiKeyId}`);
  // A revoked key (or a rotated one past its grace period) is no credential any more.
  if (bearer !== row.key || !isKeyUsable(row, now)) throw unauthorized("The bearer key does not match this key id");

  const planId = effectiveRequestPlan(row.requestPlan, row.partner.plan);
  const plan = getRequestPlan(planId);
  if (!plan) throw new ApiError(500, "plan_limits_not_found", `Unknown request plan ${JSON.stringify(planId)}`);

  const iso = now.toISOString();
  const month = iso.slice(0, 7);
  const minute = iso.slice(0, 16);
  const rows = await db.apiKeyRequestCounter.findMany({ where: { apiKeyId, window: { in: [month, minute] } } });
  const stored = (window: string) => rows.find((r) => r.window === window)?.count ?? 0;
  // The database holds every instance's flushed counts; this instance's view
  // is its last flushed total plus what it has not flushed yet. Neither is a
  // superset of the other (other instances may have flushed since), and the
  // split is not exposed, so take the larger: it never counts a request twice
  // and lags by at most one flush interval, like the headers themselves.
  const local = localCounts(apiKeyId);
  const requestsThisMonth = Math.max(stored(month), local.month);
  const requestsThisMinute = Math.max(stored(minute), local.minute);

  return {
    api_key_id: row.id,
    environment: row.environment,
    status: row.status,
    request_plan: plan.id,
    limits: { per_minute: plan.perMinute, monthly_calls: plan.monthlyCalls, overage_per_1000: plan.overagePer1000 },
    usage: {
      month,
      requests_this_month: requestsThisMonth,
      requests_this_minute: requestsThisMinute,
      overage_amount: roundOverage((Math.max(0, requestsThisMonth - plan.monthlyCalls) / 1000) * plan.overagePer1000),
    },
    // End of the current minute window, as X-RateLimit-Reset.
    reset_at: new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 60_000).toISOString(),
  };
}
