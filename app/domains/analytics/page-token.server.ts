// The credential of the service's own pages for `POST /analytics/track`: a
// short-lived token the server signs and writes into every page it serves
// (`<meta name="wish-analytics-token">`), sent back as `X-Analytics-Token`.
// `Origin` is whatever a script sets; this token only comes from our pages.
// It names no page or partner, so one token serves every page for an hour.
import { signToken, verifyToken } from "~/domains/identity/jwt.server";

const AUDIENCE = "analytics";
/** How long a token works. */
export const PAGE_TOKEN_SECONDS = 2 * 3600;
/** A new token is signed after this long: a page open for up to an hour more still holds a working one. */
const REISSUE_AFTER_SECONDS = 3600;

let current: Promise<{ token: string; expiresAt: number }> | null = null;

/** The token to embed in a page now. */
export async function analyticsPageToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const issued = current ? await current.catch(() => null) : null;
  if (!issued || issued.expiresAt - now < PAGE_TOKEN_SECONDS - REISSUE_AFTER_SECONDS) {
    current = signToken({}, { use: "page", subject: "page", audience: AUDIENCE, ttlSeconds: PAGE_TOKEN_SECONDS });
  }
  return (await current!).token;
}

/** The same, or null when it cannot be signed now (a page is still served, without it). */
export const analyticsPageTokenOrNull = () => analyticsPageToken().catch(() => null);

/** Whether `token` is a page token of this service that has not expired. */
export async function isAnalyticsPageToken(token: string | null): Promise<boolean> {
  if (!token) return false;
  return (await verifyToken(token, { use: "page", audience: AUDIENCE })) !== null;
}
