// Sign-in bridge (SPEC 4.1, 7.1): how a user session signed in inside the
// popup reaches the widget on the partner's page, which cannot share storage
// with the popup.
//
//   1. The widget asks for a state: POST /widget/oauth-state → {state, expires_at}
//      (256 random bits, valid 10 minutes, one row in OAuthState).
//   2. The popup signs in and hands its session over:
//      POST /widget/oauth-complete {state, session: {access_token, refresh_token, expires_at?, user?}}
//      The access token must be a valid user token of this service. Each
//      state is completed at most once, and only while it is unexpired.
//   3. The widget polls: POST /widget/oauth-poll {state} → {ok, status: 'pending'}
//      until {ok, status: 'complete', session}. That answer is given exactly
//      once: consuming is a single conditional UPDATE (consumedAt IS NULL), so
//      of concurrent polls one wins; the stored tokens are wiped in the same
//      statement. Every later poll gets invalid_or_expired_state.
//
// All three routes need no credentials: the state itself is the secret.
// Tokens are stored encrypted (AES-256-GCM, crypto.server.ts), bound to their
// state. Expired rows are deleted an hour after expiry, whenever a new state is
// created. Errors: 400 missing_state, invalid_session_data,
// invalid_or_expired_state; anything unexpected is logged and answered with
// 500 internal_error.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { db } from "~/db.server";
import { authenticateUserToken } from "~/domains/identity/identity.server";
import { ApiError, badRequest } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { decryptJson, encryptJson } from "./crypto.server";
import type { bridgeSessionSchema } from "./schemas";

export const STATE_TTL_MINUTES = 10;
/** How long expired states are kept before being deleted. */
const EXPIRED_STATE_RETENTION_MS = 60 * 60_000;

const invalidState = () => badRequest("invalid_or_expired_state", "This state is unknown, expired or already used");
const invalidSessionData = (message: string) => badRequest("invalid_session_data", message);

/**
 * Runs a bridge or session-store operation: API errors pass through, anything
 * else is logged and becomes 500 `internal_error` (SPEC 7.1).
 */
export async function withInternalError<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    log.error(`${operation} failed`, errorFields(err));
    throw new ApiError(500, "internal_error", "Unexpected failure, please retry");
  }
}

/** Binds a stored session to its state (crypto.server.ts). */
const aadOf = (state: string) => `oauth-state:${state}`;

/** A state the route's schema read (a non-blank string); longer than any state made here is unknown. */
function checkedState(state: string): string {
  if (state.length > 256) throw invalidState();
  return state;
}

/** The session handed over, as stored and as returned by the poll. */
export type BridgeSession = z.infer<typeof bridgeSessionSchema>;

/** `POST /widget/oauth-state`. */
export function createState() {
  return withInternalError("oauth-state", async () => {
    const now = Date.now();
    await db.oAuthState.deleteMany({ where: { expiresAt: { lt: new Date(now - EXPIRED_STATE_RETENTION_MS) } } });
    const state = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now + STATE_TTL_MINUTES * 60_000);
    await db.oAuthState.create({ data: { state, expiresAt } });
    return { state, expires_at: expiresAt.toISOString() };
  });
}

/** `POST /widget/oauth-complete`: stores the popup's session for the state, once. */
export function completeState(body: { state: string; session: BridgeSession }) {
  return withInternalError("oauth-complete", async () => {
    const state = checkedState(body.state);
    const session = body.session;
    if (!(await authenticateUserToken(session.access_token))) {
      throw invalidSessionData("session.access_token is not a valid user token");
    }
    const sessionData = await encryptJson(session, aadOf(state));
    const stored = await db.oAuthState.updateMany({
      where: { state, sessionData: null, consumedAt: null, expiresAt: { gt: new Date() } },
      data: { sessionData },
    });
    if (stored.count !== 1) throw invalidState();
    return { ok: true as const };
  });
}

/** `POST /widget/oauth-poll`: pending until completed, then the session exactly once. */
export function pollState(body: { state: string }) {
  return withInternalError("oauth-poll", async () => {
    const state = checkedState(body.state);
    const now = new Date();
    const row = await db.oAuthState.findUnique({ where: { state } });
    if (!row || row.consumedAt || row.expiresAt <= now) throw invalidState();
    if (row.sessionData === null) return { ok: true as const, status: "pending" as const };

    // sessionData is written once (complete) and only cleared by this claim,
    // so the value read above is the one the winner hands out.
    const claimed = await db.oAuthState.updateMany({
      where: { state, consumedAt: null, sessionData: { not: null }, expiresAt: { gt: now } },
      data: { consumedAt: now, sessionData: null },
    });
    if (claimed.count !== 1) throw invalidState();
    const session = await decryptJson<BridgeSession>(row.sessionData, aadOf(state));
    return { ok: true as const, status: "complete" as const, session };
  });
}
