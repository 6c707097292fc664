// The credential of the service's own pages for `POST /analytics/track`: a
// short-lived token the server signs for one partner and writes into a page
// that shows that partner's context (`<meta name="wish-analytics-token">`),
// sent back as `X-Analytics-Token`. A share page carries its list's partner,
// the basket drawer its basket's; a page without a partner carries none.
// `Origin` is whatever a script sets, and a token is only in our pages: an
// event is recorded only for the partner its page's token names.
import { signToken, verifyToken } from "~/domains/identity/jwt.server";

const AUDIENCE = "analytics";
const SUBJECT = /^partner:([1-9]\d{0,14})$/;
/** How long a token works. */
export const PAGE_TOKEN_SECONDS = 2 * 3600;
/** A new token is signed after this long: a page open for up to an hour more still holds a working one. */
const REISSUE_AFTER_SECONDS = 3600;
/** Tokens kept per process (one per partner whose pages were served lately). */
const MAX_CACHED = 10_000;

const current = new Map<number, Promise<{ token: string; expiresAt: number }>>();

/** The token to embed in a page of `partnerId` now. */
export async function analyticsPageToken(partnerId: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const cached = current.get(partnerId);
  const issued = cached ? await cached.catch(() => null) : null;
  if (issued && issued.expiresAt - now >= PAGE_TOKEN_SECONDS - REISSUE_AFTER_SECONDS) return issued.token;
  if (current.size >= MAX_CACHED) current.clear();
  const signed = signToken({}, { use: "page", subject: `partner:${partnerId}`, audience: AUDIENCE, ttlSeconds: PAGE_TOKEN_SECONDS });
  current.set(partnerId, signed);
  return (await signed).token;
}

/** The same for a page whose partner may be unknown (then no token), or null when it cannot be signed now (a page is still served, without it). */
export const analyticsPageTokenOrNull = async (partnerId: number | null): Promise<string | null> =>
  partnerId === null ? null : analyticsPageToken(partnerId).catch(() => null);

/** The partner a page token of this service names, or null (no token, forged, expired, another kind, or naming none). */
export async function analyticsTokenPartner(token: string | null): Promise<number | null> {
  if (!token) return null;
  const claims = await verifyToken(token, { use: "page", audience: AUDIENCE });
  const match = claims ? SUBJECT.exec(String(claims.sub)) : null;
  return match ? Number(match[1]) : null;
}
