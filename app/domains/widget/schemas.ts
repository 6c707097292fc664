// The widget's API shapes (SPEC 2.5, 4.1) as zod schemas, for the route
// descriptions and the OpenAPI document.
import { z } from "zod";
import { objectBody } from "~/lib/api/schemas";

/** Longest widget session id (session-store.server.ts MAX_SID_LENGTH). */
const MAX_SID_LENGTH = 128;
const sid = z.string().min(1).max(MAX_SID_LENGTH).describe("The widget session id `POST /widget/init` returned");

/**
 * `POST /widget/session-store`: a sid that is absent, empty, no string or too long is 400 `missing_sid`;
 * a missing access token (or a refresh token that is no non-empty string) 400 `invalid_session`.
 */
export const sessionStoreBody = objectBody(
  z.object({
    sid,
    access_token: z.string().min(1).describe("The shopper's account access token (held by the hosted dialog only)"),
    refresh_token: z
      .string()
      .min(1)
      .optional()
      .describe("Optional; when sent it must belong to the access token's sign-in session. Never stored"),
  }),
);
export const sessionStoreCodes = {
  missing: { sid: "missing_sid", access_token: "invalid_session", refresh_token: "invalid_session" },
  invalid: { sid: "missing_sid", access_token: "invalid_session", refresh_token: "invalid_session" },
};

/** `POST /widget/session-restore`: `{sid}`, 400 `missing_sid` as above. */
export const sessionRestoreBody = objectBody(z.object({ sid }));
export const sessionRestoreCodes = { missing: { sid: "missing_sid" }, invalid: { sid: "missing_sid" } };

/** The shopper credential a shop page holds (session-restore, the app proxy, init with `saved`). */
export const shopperSessionSchema = z.object({
  access_token: z.string().describe("Partner-scoped shopper credential: only /widget/save and /widget/saved-products, with this partner's widget token"),
  token_type: z.literal("bearer"),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
  scope: z.literal("shopper"),
  user: z.object({ id: z.string().describe("The shopper's pairwise id for this partner (never the account id)"), is_anonymous: z.boolean() }),
});

/** WidgetInitResponse (SPEC 2.5), plus `sid` and, when asked, the page's saved state. */
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
  session: shopperSessionSchema
    .nullable()
    .optional()
    .describe("Only with `saved: true`: the page's shopper credential, as `/widget/session-restore` answers it"),
  saved: z
    .array(z.object({ url: z.string().nullable(), item_id: z.number().int() }))
    .optional()
    .describe("Only with `saved: true`: the product page and item id of each product the shopper saved through this partner, newest first"),
});

/** The session the sign-in bridge carries: what `oauth-complete` takes and `oauth-poll` hands out once. */
export const bridgeSessionSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number().positive().optional(),
  expires_in: z.number().positive().optional(),
  token_type: z.string().optional(),
  user: z.record(z.string(), z.unknown()).optional(),
});

// A state that is absent, blank or no string is 400 `missing_state`.
const state = z.string().refine((s) => s.trim() !== "", "must not be blank").describe("The state `POST /widget/oauth-state` made");
const sessionFields = ["session", ...Object.keys(bridgeSessionSchema.shape).map((key) => `session.${key}`)];
const invalidSession = Object.fromEntries(sessionFields.map((field) => [field, "invalid_session_data"]));

/** `POST /widget/oauth-poll`. */
export const oauthPollBody = objectBody(z.object({ state }));
export const oauthPollCodes = { missing: { state: "missing_state" }, invalid: { state: "missing_state" } };

/** `POST /widget/oauth-complete`: a session that is no object with string tokens is 400 `invalid_session_data`. */
export const oauthCompleteBody = objectBody(z.object({ state, session: bridgeSessionSchema }));
export const oauthCompleteCodes = {
  missing: { state: "missing_state", ...invalidSession },
  invalid: { state: "missing_state", ...invalidSession },
};

export const oauthStateSchema = z.object({ state: z.string(), expires_at: z.string() });

export const oauthPollSchema = z.union([
  z.object({ ok: z.literal(true), status: z.literal("pending") }),
  z.object({ ok: z.literal(true), status: z.literal("complete"), session: bridgeSessionSchema }),
]);

export const sessionStoreSchema = z.object({
  ok: z.literal(true),
  sid: z.string(),
  new_shop: z.boolean().describe("True when this is the first time the shopper lets this shop recognise them"),
});
/** What a shop page may hold: a partner-scoped shopper credential, never the account session or a refresh token. */

export const sessionRestoreSchema = z.object({
  ok: z.literal(true),
  session: shopperSessionSchema
    .nullable()
    .describe("A fresh shopper credential; null when nothing is stored for the sid, or the grant expired or its sign-in session ended"),
});
