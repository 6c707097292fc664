// The usage record (SPEC 2.7) as a zod schema, for the route descriptions
// and the OpenAPI document (usage.ts computeUsageRecord builds it).
import { z } from "zod";

export const usageRecordSchema = z.object({
  partner_id: z.number().int(),
  plan: z.string(),
  plan_name: z.string(),
  period: z.string().describe("YYYY-MM"),
  actions_used: z.number().int(),
  actions_limit: z.number().int().nullable().describe("null when unlimited"),
  period_start: z.string(),
  period_end: z.string(),
  breakdown: z.object({ save: z.number().int(), share: z.number().int(), list_view: z.number().int() }),
  percent: z.number().int(),
  level: z.enum(["ok", "warning", "exceeded"]),
  trial_days: z.number().int(),
  hard_limit: z.boolean(),
  overage_per_action_minor: z.number().nullable(),
  overage_actions: z.number().int(),
  overage_cost_minor: z.number().int().nullable(),
  next_plan: z.string().nullable(),
  upgrade_cheaper_from_actions: z.number().int().nullable(),
  blocked: z.boolean(),
});
