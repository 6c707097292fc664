// The API shapes of public keys and their usage (SPEC 4.6, section 5 rule 6)
// as zod schemas, for the route descriptions and the OpenAPI document.
import { z } from "zod";

/** keys.server.ts apiKeyJson: public keys are not secret, the full value is in every answer. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  key: z.string().describe("pk_test_… or pk_live_…"),
  environment: z.string(),
  status: z.enum(["active", "rotated", "revoked"]),
  allowed_domains: z.array(z.string()),
  created_at: z.string(),
  request_plan: z.string().describe('The key\'s own request plan; "trial" follows the partner\'s plan'),
  rotated_to_id: z.number().int().nullable(),
  grace_expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});

export const keyResultSchema = z.object({ key: apiKeySchema });

/** key-usage.server.ts apiKeyUsage. */
export const apiKeyUsageSchema = z.object({
  api_key_id: z.number().int(),
  environment: z.string(),
  status: z.string(),
  request_plan: z.string(),
  limits: z.object({ per_minute: z.number().int(), monthly_calls: z.number().int(), overage_per_1000: z.number() }),
  usage: z.object({
    month: z.string().describe("YYYY-MM"),
    requests_this_month: z.number().int(),
    requests_this_minute: z.number().int(),
    overage_amount: z.number(),
  }),
  reset_at: z.string().describe("End of the current minute window, as X-RateLimit-Reset"),
});

/** `{id}` of a key in the path. */
export const keyIdParams = z.object({ id: z.string().describe("The key's numeric id") });
