// The shopper's account session on the service's own pages (the save dialog,
// "My lists", share pages): the first-party `wish_user` cookie. It is the one
// place the account session lives in a browser (docs/storefront-protocol.md):
// HttpOnly, SameSite=Lax, on APP_URL only, so no shop page ever reads it.
//
// The cookie holds a JWT of our own (token_use "site", its own audience)
// naming the user and the sign-in session. It never carries an access or
// refresh token and can never stand in for one. Pages that need to call the
// API trade it for a short-lived access token of the same sign-in session
// (`POST /session/token`): nothing rotates, so the dialog, "My lists" and any
// number of tabs can use it at once without tripping refresh-token reuse
// detection. It lives as long as a refresh token (sliding: renewed when a day
// old) and stops working the moment its sign-in session is revoked (logout,
// reuse detection, account deletion).
import { env } from "~/env.server";
import { unauthorized } from "~/lib/api/errors";
import type { WithHeaders } from "~/lib/api/http";
import { accessTokenOfSession, authenticateUserToken, type Identity } from "./identity.server";
import { signToken, verifyToken } from "./jwt.server";
import { isSessionLive, isSessionRevoked } from "./session-revocations.server";

export const SITE_COOKIE = "wish_user";
const AUDIENCE = "wish-site";
const lifetimeSeconds = () => env.REFRESH_TOKEN_TTL_DAYS * 86_400;
/** A cookie older than this is re-issued on use, so an active shopper stays signed in. */
const RENEW_AFTER_SECONDS = 86_400;

const secure = () => (new URL(env.APP_URL).protocol === "https:" ? "; Secure" : "");

/** The Set-Cookie value naming `identity`'s sign-in session. */
export async function siteCookieFor(identity: Identity): Promise<{ setCookie: string; expiresAt: number }> {
  const ttl = lifetimeSeconds();
  const { token, expiresAt } = await signToken(
    { session_id: identity.sessionId ?? undefined, is_anonymous: identity.isAnonymous, email: identity.email ?? "" },
    { use: "site", subject: identity.userId, audience: AUDIENCE, ttlSeconds: ttl },
  );
  return { setCookie: `${SITE_COOKIE}=${token}; Path=/; Max-Age=${ttl}; HttpOnly; SameSite=Lax${secure()}`, expiresAt };
}

/** `POST /session/cookie`: the cookie for the user of `accessToken`; 401 unless it is a live account token. */
export async function siteSessionCookie(accessToken: string): Promise<{ setCookie: string; expiresAt: number }> {
  const identity = await authenticateUserToken(accessToken);
  if (!identity || (identity.sessionId && !(await isSessionLive(identity.sessionId)))) {
    throw unauthorized("Missing or invalid access token");
  }
  return siteCookieFor(identity);
}

/** `DELETE /session/cookie`: a Set-Cookie value that removes the cookie. */
export const clearedSiteSessionCookie = () => `${SITE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure()}`;

function readCookie(request: WithHeaders, name: string): string | null {
  for (const part of request.headers.get("cookie")?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export interface SiteSession {
  identity: Identity;
  /** A renewed cookie to send back, when the presented one is over a day old. */
  setCookie: string | null;
}

/** The signed-in shopper of this request; null when the cookie is absent, invalid, expired or its session ended. */
export async function siteSession(request: WithHeaders): Promise<SiteSession | null> {
  const value = readCookie(request, SITE_COOKIE);
  if (!value || value.length > 4096) return null;
  const claims = await verifyToken(value, { use: "site", audience: AUDIENCE });
  if (!claims?.sub) return null;
  const sessionId = typeof claims.session_id === "string" ? claims.session_id : null;
  const age = Math.floor(Date.now() / 1000) - (claims.iat ?? 0);
  if (sessionId) {
    // The in-memory revocation view covers an access token's lifetime; an older cookie asks the database.
    const ended = age < env.ACCESS_TOKEN_TTL_SECONDS ? await isSessionRevoked(sessionId) : !(await isSessionLive(sessionId));
    if (ended) return null;
  }
  const identity: Identity = {
    userId: claims.sub,
    sessionId,
    isAnonymous: claims.is_anonymous === true,
    email: typeof claims.email === "string" && claims.email ? claims.email : null,
  };
  const setCookie = age > RENEW_AFTER_SECONDS ? (await siteCookieFor(identity)).setCookie : null;
  return { identity, setCookie };
}

/** The signed-in user's id (share pages: the owner's spoiler protection), or null. */
export async function signedInUser(request: WithHeaders): Promise<string | null> {
  return (await siteSession(request))?.identity.userId ?? null;
}

/**
 * `POST /session/token`: a fresh access token of the cookie's sign-in session
 * (no refresh token, nothing rotates), or null when nobody is signed in; with
 * the renewed cookie when the presented one is over a day old.
 */
export async function siteAccessToken(request: WithHeaders) {
  const site = await siteSession(request);
  const session = site?.identity.sessionId ? await accessTokenOfSession(site.identity.userId, site.identity.sessionId) : null;
  return { session, setCookie: session ? (site?.setCookie ?? null) : null };
}
