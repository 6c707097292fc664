// Widget session store (SPEC 4.1, 7.1) in the storefront's session model
// (docs/storefront-protocol.md): the shop page never holds the shopper's
// account session. What a widget session id (`sid`) keeps is a *grant*: this
// user, through this sign-in session, may be recognised by this partner's
// widget. Restoring it mints a fresh partner-scoped shopper credential
// (shopper-token.server.ts) and touches no refresh token, so restores of any
// number of pages, in any order, never trip refresh-token reuse detection.
//
//   POST /widget/session-store   {access_token, refresh_token?, sid} → {ok: true, sid}
//   POST /widget/session-restore {sid} → {ok: true, session: <shopper session> | null}
//
// Store is called by the hosted dialog, which holds the account session, after
// the shopper saved there or chose to stay signed in there: that is their consent
// for this shop (docs/identity.md), recorded as a ShopperConsent row naming the
// shop's verified host. The access token must be a live account token (a shopper
// credential is none), and a refresh token, when sent, must belong to the same
// sign-in session (it is checked, never kept). The sid is the one in the widget
// token the dialog was opened with (minted by the server for this partner, see
// pairwise.server.ts); a body naming another is refused. A grant is made only
// for a shopper who saved through this partner or signed in moments ago (from
// its dialog), and lives only while the consent does: "Not on this shop"
// (DELETE) and "Disconnect" on My lists end every grant and credential of the pair.
// Grants are encrypted at rest, bound to partner and sid (crypto.server.ts),
// and expire after REFRESH_TOKEN_TTL_DAYS unless stored again.
//
// Errors: 400 missing_sid, 400 invalid_session, 401 invalid_access_token,
// 403 forbidden, 500 internal_error (logged).
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { env } from "~/env.server";
import { authenticateUserToken, refreshTokenOfSession } from "~/domains/identity/identity.server";
import { isSessionLive } from "~/domains/identity/session-revocations.server";
import { ApiError, badRequest, forbidden } from "~/lib/api/errors";
import { log } from "~/lib/log.server";
import { decryptJson, encryptJson } from "./crypto.server";
import { endConsent, hasConsent, recordConsent } from "./consent.server";
import { originHost } from "./origin";
import { issueShopperToken } from "./shopper-token.server";
import { withInternalError } from "./signin-bridge.server";
import type { WidgetClaims } from "./token.server";

type Widget = Pick<WidgetClaims, "partnerId" | "sid" | "origin">;

interface Grant {
  user_id: string;
  session_id: string | null;
  is_anonymous: boolean;
  /** Unix time (s) after which restore answers null. */
  expires_at: number;
}

/** How recent a sign-in must be to count as made from this partner's dialog. */
const FRESH_SIGN_IN_MS = 15 * 60_000;

const aadOf = (partnerId: number, sid: string) => `widget-session:${partnerId}:${sid}`;

// ------------------------------------------------------------ store

/** `POST /widget/session-store`, with the body the route's schema checked. */
export function storeSession(
  widget: Widget,
  { sid, access_token: accessToken, refresh_token: refreshToken }: { sid: string; access_token: string; refresh_token?: string },
) {
  return withInternalError("session-store", async () => {
    const identity = await authenticateUserToken(accessToken);
    // A grant hands out credentials later: its sign-in session is read, not taken from the in-memory view.
    if (!identity || (identity.sessionId && !(await isSessionLive(identity.sessionId)))) {
      throw new ApiError(401, "invalid_access_token", "access_token is not a valid user token");
    }
    if (sid !== widget.sid) throw forbidden("forbidden", "This is not the session id of the page's widget token");
    if (refreshToken !== undefined && !(await refreshTokenOfSession(refreshToken, identity.sessionId))) {
      throw badRequest("invalid_session", "refresh_token does not belong to the access token's session");
    }
    if (!(await mayRecognise(identity.userId, identity.sessionId, widget.partnerId))) {
      throw forbidden("forbidden", "The shopper has neither saved through this shop nor signed in from its dialog");
    }
    const grant: Grant = {
      user_id: identity.userId,
      session_id: identity.sessionId,
      is_anonymous: identity.isAnonymous,
      expires_at: Math.floor(Date.now() / 1000) + env.REFRESH_TOKEN_TTL_DAYS * 86_400,
    };
    const newShop = await recordConsent(identity.userId, widget.partnerId, originHost(widget.origin) ?? widget.origin);
    await writeGrant(widget.partnerId, sid, grant);
    return { ok: true as const, sid, new_shop: newShop };
  });
}

/** `DELETE /widget/session-store` ("Not on this shop"): this shop no longer recognises the signed-in shopper. */
export function withdrawConsent(widget: Widget, userId: string) {
  return withInternalError("session-store", async () => {
    await endConsent(userId, widget.partnerId, widget.sid);
    return { ok: true as const };
  });
}

/** A shop may recognise a shopper who saved through it, or who signed in just now (from its dialog). */
async function mayRecognise(userId: string, sessionId: string | null, partnerId: number): Promise<boolean> {
  if (sessionId) {
    const session = await db.authSession.findUnique({ where: { id: sessionId }, select: { createdAt: true } });
    if (session && Date.now() - session.createdAt.getTime() < FRESH_SIGN_IN_MS) return true;
  }
  const saved = await db.listItem.findFirst({
    where: { sourcePartnerId: partnerId, wishlist: { ownerId: userId } },
    select: { id: true },
  });
  return saved !== null;
}

async function writeGrant(partnerId: number, sid: string, grant: Grant): Promise<void> {
  const sessionData = await encryptJson(grant, aadOf(partnerId, sid));
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
  // Only the page's own sid (the one in its widget token) names its grant.
  return withInternalError("session-restore", async () => ({
    ok: true as const,
    session: sid === widget.sid ? await shopperSession(widget.partnerId, sid) : null,
  }));
}

/** The live grant of this partner's `sid` (null: none, another partner's, expired or its sign-in session ended; such a grant is deleted). */
export async function liveGrant(partnerId: number, sid: string): Promise<{ userId: string; sessionId: string | null; isAnonymous: boolean } | null> {
  const row = await db.widgetSession.findUnique({ where: { sid } });
  if (!row || row.partnerId !== partnerId) return null;
  const grant = await decryptJson<Partial<Grant>>(row.sessionData, aadOf(partnerId, sid));
  const live =
    typeof grant.user_id === "string" &&
    typeof grant.expires_at === "number" &&
    grant.expires_at * 1000 > Date.now() &&
    (!grant.session_id || (await isSessionLive(grant.session_id))) &&
    (await hasConsent(grant.user_id, partnerId));
  if (!live) {
    // Expired, its sign-in session ended, consent withdrawn, or a full session stored by an earlier version: never handed out.
    await db.widgetSession.deleteMany({ where: { sid, partnerId, sessionData: row.sessionData } });
    log.info("widget session grant dropped", { partnerId });
    return null;
  }
  return { userId: grant.user_id!, sessionId: grant.session_id ?? null, isAnonymous: grant.is_anonymous === true };
}

/** The shopper credential of a shopper for this partner's shop pages (the answer's `session`). */
export async function shopperSessionOf(shopper: { userId: string; sessionId: string | null; isAnonymous: boolean }, partnerId: number) {
  const { token, expiresIn, expiresAt, subject } = await issueShopperToken({ ...shopper, partnerId });
  return {
    access_token: token,
    token_type: "bearer" as const,
    expires_in: expiresIn,
    expires_at: expiresAt,
    scope: "shopper" as const,
    user: { id: subject, is_anonymous: shopper.isAnonymous },
  };
}

async function shopperSession(partnerId: number, sid: string) {
  const grant = await liveGrant(partnerId, sid);
  return grant ? shopperSessionOf(grant, partnerId) : null;
}
