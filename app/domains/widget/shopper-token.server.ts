// The partner-scoped shopper credential: what a shop page may hold for the
// shopper (docs/storefront-protocol.md). Minted by `POST /widget/session-restore`
// from a grant the hosted dialog stored for the page's widget session, never
// from anything the page sends. It works only together with a widget token of
// the same partner, only on the routes that opt in (`shopper: true` on the
// route: save and saved products), and only while the shopper's sign-in
// session lives: it names that session, so logout, refresh-token reuse and
// account deletion end it through the same revocation view as access tokens.
// Its lifetime is an access token's, so that view always covers it.
import { env } from "~/env.server";
import type { Identity } from "~/domains/identity/identity.server";
import { signToken, verifyToken } from "~/domains/identity/jwt.server";
import { isSessionRevoked } from "~/domains/identity/session-revocations.server";

const AUDIENCE = "wish-shopper";

export interface ShopperGrant {
  userId: string;
  sessionId: string | null;
  isAnonymous: boolean;
  partnerId: number;
}

export async function issueShopperToken(grant: ShopperGrant) {
  const ttl = env.ACCESS_TOKEN_TTL_SECONDS;
  const { token, expiresAt } = await signToken(
    { session_id: grant.sessionId ?? undefined, partner_id: grant.partnerId, is_anonymous: grant.isAnonymous },
    { use: "shopper", subject: grant.userId, audience: AUDIENCE, ttlSeconds: ttl },
  );
  return { token, expiresIn: ttl, expiresAt };
}

/** The shopper behind a valid credential of `partnerId`; null for anything else (another partner's, ended, forged). */
export async function authenticateShopperToken(token: string, partnerId: number): Promise<Identity | null> {
  const claims = await verifyToken(token, { use: "shopper", audience: AUDIENCE });
  if (!claims?.sub || claims.partner_id !== partnerId) return null;
  const sessionId = typeof claims.session_id === "string" ? claims.session_id : null;
  if (sessionId && (await isSessionRevoked(sessionId))) return null;
  return { userId: claims.sub, sessionId, isAnonymous: claims.is_anonymous === true, email: null, partnerScope: partnerId };
}
