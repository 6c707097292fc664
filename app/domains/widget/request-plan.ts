// Which per-key request plan (SPEC 8.3) a key runs on. SPEC leaves the
// mapping from shop plans open; a key's own plan, when set, wins.
import type { PlanId } from "~/domains/metering/plans";

export const REQUEST_PLAN_OF: Record<PlanId, string> = {
  free: "trial",
  starter: "starter-api",
  growth: "pro-api",
  scale: "business-api",
  enterprise: "enterprise-api",
};

export function effectiveRequestPlan(keyPlan: string, partnerPlan: string): string {
  return keyPlan !== "trial" ? keyPlan : (REQUEST_PLAN_OF[partnerPlan as PlanId] ?? "trial");
}
