// Response shapes shared by the partner bootstrap and roles routes (not a route module).
import { z } from "zod";

export const partnerSchema = z.object({
  partner_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  plan: z.string(),
  plan_changed_at: z.string(),
  created_at: z.string(),
});

export const memberSchema = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  display_name: z.string().nullable(),
  role: z.enum(["owner", "member"]),
  created_at: z.string(),
});

export const partnerIdParams = z.object({ partnerId: z.string().describe("The partner's numeric id") });
export const memberParams = partnerIdParams.extend({ userId: z.string().describe("The member's user id") });
