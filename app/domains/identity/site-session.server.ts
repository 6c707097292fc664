// The shopper's account session on the service's own pages (the save dialog,
// "My lists", share pages): the first-party `wish_user` cookie. It is the one
// place the account session lives in a browser (docs/storefront-protocol.md):
// HttpOnly, SameSite=Lax, on APP_URL only, so no shop page ever reads it.
//
// The cookie holds a JWT of our own (token_use "site", its own audience)
// naming the user and the sign-in session; this module sees only that token,
// the cookie's name and attributes are the HTTP wing's (app/http/cookies.server.ts). It never carries an access or
// refresh token and can never stand in for one. Pages that need to call the
// API trade it for a short-lived access token of the same sign-in session
// (`POST /session/token`): nothing rotates, so the dialog, "My lists" and any
// number of tabs can use it at once without tripping refresh-token reuse
// detection. It lives as long as a refresh token (sliding: renewed when a day
// old) and stops working the moment its sign-in session is revoked (logout,
// reuse detection, account deletion).
import { env } from "~/env.server";
import { unauthorized } from "~/lib/api/errors";
import { accessTokenOfSession, authenticateUserToken, type Identity } from "./identity.server";
import { signToken, verifyToken } from "./jwt.server";
import { isSessionLive, isSessionRevoked } from "./session-revocations.server";

const AUDIENCE = "wish-site";
const lifetimeSeconds = () => env.REFRESH_TOKEN_TTL_DAYS * 86_400;
/** A token older than this is re-issued on use, so an active shopper stays signed in. */
const RENEW_AFTER_SECONDS = 86_400;

/** The site token naming a sign-in session: what the cookie holds, how long it lives and when it expires. */
export interface SiteToken {
  value: string;
  maxAgeSeconds: number;
  /** Unix time. */
  expiresAt: number;
}

/** The site token naming `identity`'s sign-in session. */
export async function siteTokenFor(identity: Identity): Promise<SiteToken> {
  const ttl = lifetimeSeconds();
  const { token, expiresAt } = await signToken(
    { session_id: identity.sessionId ?? undefined, is_anonymous: identity.isAnonymous, email: identity.email ?? "" },
    { use: "site", subject: identity.userId, audience: AUDIENCE, ttlSeconds: ttl },
  );
  return { value: token, maxAgeSeconds: ttl, expiresAt };
}

/** `POST /session/cookie`: the site token for the user of `accessToken`; 401 unless it is a live account token. */
export async function siteTokenOfAccessToken(accessToken: string): Promise<SiteToken> {
  const identity = await authenticateUserToken(accessToken);
  if (!identity || (identity.sessionId && !(await isSessionLive(identity.sessionId)))) {
    throw unauthorized("Missing or invalid access token");
  }
  return siteTokenFor(identity);
}

export interface SiteSession {
  identity: Identity;
  /** A renewed token to hand back, when the presented one is over a day old. */
  renewed: SiteToken | null;
}

/** The signed-in shopper a site token names; null when it is absent, invalid, expired or its session ended. */
export async function siteSession(token: string | null): Promise<SiteSession | null> {
  if (!token || token.length > 4096) return null;
  const claims = await verifyToken(token, { use: "site", audience: AUDIENCE });
  if (!claims?.sub) return null;
  const sessionId = typeof claims.session_id === "string" ? claims.session_id : null;
  const age = Math.floor(Date.now() / 1000) - (claims.iat ?? 0);
  if (sessionId) {
    // The in-memory revocation view covers an access token's lifetime; an older token asks the database.
    const ended = age < env.ACCESS_TOKEN_TTL_SECONDS ? await isSessionRevoked(sessionId) : !(await isSessionLive(sessionId));
    if (ended) return null;
  }
  const identity: Identity = {
    userId: claims.sub,
    sessionId,
    isAnonymous: claims.is_anonymous === true,
    email: typeof claims.email === "string" && claims.email ? claims.email : null,
  };
  const renewed = age > RENEW_AFTER_SECONDS ? await siteTokenFor(identity) : null;
  return { identity, renewed };
}

/** The signed-in user's id (share pages: the owner's spoiler protection), or null. */
export async function signedInUser(token: string | null): Promise<string | null> {
  return (await siteSession(token))?.identity.userId ?? null;
}

/**
 * `POST /session/token`: a fresh access token of the site token's sign-in
 * session (no refresh token, nothing rotates), or null when nobody is signed
 * in; with the renewed site token when the presented one is over a day old.
 */
export async function siteAccessToken(token: string | null) {
  const site = await siteSession(token);
  const session = site?.identity.sessionId ? await accessTokenOfSession(site.identity.userId, site.identity.sessionId) : null;
  return { session, renewed: session ? (site?.renewed ?? null) : null };
}
