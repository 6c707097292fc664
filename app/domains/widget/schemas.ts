// The widget's API shapes (SPEC 2.5, 4.1) as zod schemas, for the route
// descriptions and the OpenAPI document.
import { z } from "zod";
import { sessionSchema } from "~/domains/identity/schemas";

/** WidgetInitResponse (SPEC 2.5). */
export const widgetInitSchema = z.object({
  token: z.string().describe("Signed token for X-Widget-Token"),
  partner_id: z.number().int(),
  api_key_id: z.number().int(),
  exp_minutes: z.number().int(),
  overage: z.boolean(),
  basketConfig: z
    .object({
      id: z.string(),
      layout: z.string(),
      primaryColor: z.string(),
      checkout: z.unknown(),
    })
    .nullable(),
  sid: z.string().describe("The widget session id (the one sent, when well-formed, else a new one)"),
});

/** The session the sign-in bridge carries (signin-bridge.server.ts sessionSchema). */
export const bridgeSessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_at: z.number().optional(),
  expires_in: z.number().optional(),
  token_type: z.string().optional(),
  user: z.record(z.string(), z.unknown()).optional(),
});

export const oauthStateSchema = z.object({ state: z.string(), expires_at: z.string() });

export const oauthPollSchema = z.union([
  z.object({ ok: z.literal(true), status: z.literal("pending") }),
  z.object({ ok: z.literal(true), status: z.literal("complete"), session: bridgeSessionSchema }),
]);

export const sessionStoreSchema = z.object({ ok: z.literal(true), sid: z.string() });
export const sessionRestoreSchema = z.object({
  ok: z.literal(true),
  session: sessionSchema.nullable().describe("null when nothing is stored for the sid, or the stored session ended"),
});
