// Who is signed in on the service's own pages (share pages), from the
// first-party `wish_user` cookie. The hosted dialog keeps the shopper's
// session in localStorage, which a server-rendered page cannot read, so after
// sign-in it trades the access token for this cookie (POST /session/cookie).
// The cookie holds a JWT of our own (token_use "site", its own audience): it
// names the user and the sign-in session, never carries the access token, can
// never stand in for one, and stops working when that session is revoked. It
// lives no longer than an access token, so the in-memory revocation view
// (which covers an access token's lifetime) always knows about it.
import { env } from "~/env.server";
import { unauthorized } from "~/lib/api/errors";
import { authenticateUserToken } from "./identity.server";
import { signToken, verifyToken } from "./jwt.server";
import { isSessionRevoked } from "./session-revocations.server";
import type { WithHeaders } from "~/lib/api/http";

export const SITE_COOKIE = "wish_user";
const AUDIENCE = "wish-site";

const secure = () => (new URL(env.APP_URL).protocol === "https:" ? "; Secure" : "");

/** `POST /session/cookie`: the Set-Cookie value for the user of `accessToken`; 401 when the token is not valid. */
export async function siteSessionCookie(accessToken: string): Promise<{ setCookie: string; expiresAt: number }> {
  const identity = await authenticateUserToken(accessToken);
  if (!identity) throw unauthorized("Missing or invalid access token");
  const ttl = env.ACCESS_TOKEN_TTL_SECONDS;
  const { token, expiresAt } = await signToken(
    { session_id: identity.sessionId ?? undefined },
    { use: "site", subject: identity.userId, audience: AUDIENCE, ttlSeconds: ttl },
  );
  return { setCookie: `${SITE_COOKIE}=${token}; Path=/; Max-Age=${ttl}; HttpOnly; SameSite=Lax${secure()}`, expiresAt };
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

/** The signed-in user's id from the `wish_user` cookie; null when absent, invalid, expired or its session was revoked. */
export async function signedInUser(request: WithHeaders): Promise<string | null> {
  const value = readCookie(request, SITE_COOKIE);
  if (!value || value.length > 4096) return null;
  const claims = await verifyToken(value, { use: "site", audience: AUDIENCE });
  if (!claims?.sub) return null;
  if (typeof claims.session_id === "string" && (await isSessionRevoked(claims.session_id))) return null;
  return claims.sub;
}
