// Widget session store (SPEC 4.1, 7.1): keeps a signed-in user's tokens under
// the widget session id (`sid`) so the
// widget can pick the session up again on the next page load.
//
//   POST /widget/session-store   {access_token, refresh_token, sid} → {ok: true, sid}
//   POST /widget/session-restore {sid} → {ok: true, session: <session body> | null}
//
// `sid` is the widget session id `POST /widget/init` returned (also a claim of
// the widget token); it is required in the body (400 missing_sid, SPEC 7.1).
//
// Both need a widget token. A sid belongs to the partner that stored it: other
// partners' widgets neither read it (restore answers session: null) nor
// overwrite it (403 forbidden). Tokens are encrypted at rest, bound to
// partner and sid (crypto.server.ts).
//
// Restore exchanges the stored refresh token at the identity provider
// (refreshGrant: one-time refresh tokens, reuse revokes the whole sign-in
// session), stores the new pair and returns the fresh session. A refresh the
// provider rejects (revoked, expired, reused) deletes the stored session and
// answers session: null, so the SDK signs in again.
//
// Concurrency: presenting a refresh token twice burns its family, so restores
// and stores of one sid run one at a time in this process, and concurrent
// restores of a sid share a single refresh (all callers get the same tokens).
// Across instances nothing serialises them: the second restore presents the
// already-rotated token, the provider revokes the session, that restore gets
// session: null and the SDK signs in again. Writes are compare-and-set on the
// ciphertext read, so a slower restore never overwrites a newer store.
//
// Errors: 400 missing_sid, 400 invalid_session, 401 invalid_access_token,
// 500 internal_error (logged).
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { authenticateUserToken, refreshGrant, type Session } from "~/domains/identity/identity.server";
import { isSessionLive } from "~/domains/identity/session-revocations.server";
import { ApiError, forbidden } from "~/lib/api/errors";
import { log } from "~/lib/log.server";
import { decryptJson, encryptJson } from "./crypto.server";
import { withInternalError } from "./signin-bridge.server";
import type { WidgetClaims } from "./token.server";

type Widget = Pick<WidgetClaims, "partnerId" | "sid">;

interface StoredSession {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

const aadOf = (partnerId: number, sid: string) => `widget-session:${partnerId}:${sid}`;

// ------------------------------------------------------------ per-sid ordering

const queues = new Map<string, Promise<unknown>>();
const restoresInFlight = new Map<string, Promise<Session | null>>();

/** Runs fn after every earlier operation on the same key has settled. */
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

// ------------------------------------------------------------ store

/** `POST /widget/session-store`, with the body the route's schema checked (sid, non-empty tokens). */
export function storeSession(
  widget: Widget,
  { sid, access_token: accessToken, refresh_token: refreshToken }: { sid: string; access_token: string; refresh_token: string },
) {
  return withInternalError("session-store", async () => {
    const identity = await authenticateUserToken(accessToken);
    // Storing a session hands out credentials later: its sign-in session is read, not taken from the in-memory view.
    if (!identity || (identity.sessionId && !(await isSessionLive(identity.sessionId)))) {
      throw new ApiError(401, "invalid_access_token", "access_token is not a valid user token");
    }
    const data: StoredSession = { access_token: accessToken, refresh_token: refreshToken, user_id: identity.userId };
    await serialized(`${widget.partnerId}:${sid}`, () => writeSession(widget.partnerId, sid, data));
    return { ok: true as const, sid };
  });
}

async function writeSession(partnerId: number, sid: string, data: StoredSession): Promise<void> {
  const sessionData = await encryptJson(data, aadOf(partnerId, sid));
  const update = () => db.widgetSession.updateMany({ where: { sid, partnerId }, data: { sessionData } });
  if ((await update()).count === 1) return;
  try {
    await db.widgetSession.create({ data: { sid, partnerId, sessionData } });
    return;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  // Created meanwhile: by this partner (another instance), or it is another partner's sid.
  if ((await update()).count === 1) return;
  throw forbidden("forbidden", "This session id belongs to another partner");
}

// ------------------------------------------------------------ restore

/** `POST /widget/session-restore`, with the sid the route's schema checked. */
export function restoreSession(widget: Widget, { sid }: { sid: string }) {
  return withInternalError("session-restore", async () => {
    const key = `${widget.partnerId}:${sid}`;
    let restore = restoresInFlight.get(key);
    if (!restore) {
      restore = serialized(key, () => refreshStoredSession(widget.partnerId, sid)).finally(() =>
        restoresInFlight.delete(key),
      );
      restoresInFlight.set(key, restore);
    }
    return { ok: true as const, session: await restore };
  });
}

async function refreshStoredSession(partnerId: number, sid: string): Promise<Session | null> {
  const row = await db.widgetSession.findUnique({ where: { sid } });
  if (!row || row.partnerId !== partnerId) return null;
  const aad = aadOf(partnerId, sid);
  const stored = await decryptJson<StoredSession>(row.sessionData, aad);
  const unchanged = { sid, partnerId, sessionData: row.sessionData };

  let session: Session;
  try {
    session = await refreshGrant({ refresh_token: stored.refresh_token });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    // Revoked, expired or already used: this stored session is dead.
    await db.widgetSession.deleteMany({ where: unchanged });
    log.info("widget session dropped", { partnerId, reason: err.code });
    return null;
  }
  const next: StoredSession = {
    access_token: session.access_token,
    refresh_token: session.refresh_token,
    user_id: session.user.id,
  };
  // If a newer store landed meanwhile, it wins; the session returned here is valid all the same.
  await db.widgetSession.updateMany({ where: unchanged, data: { sessionData: await encryptJson(next, aad) } });
  return session;
}
