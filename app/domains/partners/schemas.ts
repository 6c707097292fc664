// Personal access tokens (SPEC section 5 rule 7) as zod schemas, for the
// route descriptions and the OpenAPI document.
import { z } from "zod";

/** access-tokens.server.ts personalAccessTokenJson: metadata only, never the token. */
export const accessTokenSchema = z.object({
  id: z.number().int(),
  partner_id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_by: z.string().nullable().describe("The portal user whose role the token acts with; null: made by the operator, the embedded admin or before creators were recorded (acts as an owner)"),
});

/** The answer of creating one: the token is in it this once. */
export const createdAccessTokenSchema = z.object({
  id: z.number().int(),
  partner_id: z.number().int(),
  name: z.string(),
  token: z.string().describe("wpat_…: shown this once"),
  expires_at: z.string(),
  created_by: z.string().nullable(),
});
