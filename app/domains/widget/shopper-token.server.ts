// The partner-scoped shopper credential: what a shop page may hold for the
// shopper (docs/storefront-protocol.md). Minted by `POST /widget/session-restore`
// from a grant the hosted dialog stored for the page's widget session, never
// from anything the page sends. It works only together with a widget token of
// the same partner, only on the routes that opt in (`shopper: true` on the
// route: save and saved products), and only while the shopper's sign-in
// session lives: it names that session, so logout, refresh-token reuse and
// account deletion end it through the same revocation view as access tokens.
// Its lifetime is an access token's, so that view always covers it. It works
// only while the shopper's consent for its partner stands (ShopperConsent, one
// primary-key read), so "Not on this shop" and "Disconnect" end it at once.
// Its subject is the partner's pairwise id of the shopper (pairwise.server.ts);
// the account id travels only encrypted, bound to the partner.
import { env } from "~/env.server";
import type { Identity } from "~/domains/identity/identity.server";
import { signToken, verifyToken } from "~/domains/identity/jwt.server";
import { isSessionRevoked } from "~/domains/identity/session-revocations.server";
import { decryptJson, encryptJson } from "./crypto.server";
import { pairwiseShopperId } from "./pairwise.server";
import { hasConsent } from "./consent.server";

const AUDIENCE = "wish-shopper";
const accountAad = (partnerId: number) => `shopper-account:${partnerId}`;

export interface ShopperGrant {
  userId: string;
  sessionId: string | null;
  isAnonymous: boolean;
  partnerId: number;
}

export async function issueShopperToken(grant: ShopperGrant) {
  const ttl = env.ACCESS_TOKEN_TTL_SECONDS;
  const subject = await pairwiseShopperId(grant.partnerId, grant.userId);
  const account = await encryptJson(grant.userId, accountAad(grant.partnerId));
  const { token, expiresAt } = await signToken(
    { session_id: grant.sessionId ?? undefined, partner_id: grant.partnerId, is_anonymous: grant.isAnonymous, acct: account },
    { use: "shopper", subject, audience: AUDIENCE, ttlSeconds: ttl },
  );
  return { token, expiresIn: ttl, expiresAt, subject };
}

/** The shopper behind a valid credential of `partnerId`; null for anything else (another partner's, ended, forged). */
export async function authenticateShopperToken(token: string, partnerId: number): Promise<Identity | null> {
  const claims = await verifyToken(token, { use: "shopper", audience: AUDIENCE });
  if (!claims?.sub || claims.partner_id !== partnerId || typeof claims.acct !== "string") return null;
  const userId = await decryptJson<unknown>(claims.acct, accountAad(partnerId)).catch(() => null);
  if (typeof userId !== "string") return null;
  const sessionId = typeof claims.session_id === "string" ? claims.session_id : null;
  if (sessionId && (await isSessionRevoked(sessionId))) return null;
  if (!(await hasConsent(userId, partnerId))) return null;
  return { userId, sessionId, isAnonymous: claims.is_anonymous === true, email: null, partnerScope: partnerId };
}
