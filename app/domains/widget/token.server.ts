// Widget tokens: what `POST /widget/init` hands the SDK for the other
// /widget/* calls. ES256 JWTs from the same signer as user tokens but with
// their own audience and `token_use`, so neither can stand in for the other.
import { signToken, verifyToken } from "~/domains/identity/jwt.server";

export const WIDGET_TOKEN_MINUTES = 10;
const AUDIENCE = "widget";

export interface WidgetClaims {
  partnerId: number;
  apiKeyId: number;
  /** The origin the token was minted for; requests from other origins are refused. */
  origin: string;
  shopId: number | null;
  /** Widget session id (session store/restore). */
  sid: string;
  /** Per-key request plan behind the X-RateLimit-* headers. */
  requestPlan: string;
}

export async function issueWidgetToken(claims: WidgetClaims) {
  return signToken(
    {
      partner_id: claims.partnerId,
      api_key_id: claims.apiKeyId,
      origin: claims.origin,
      shop_id: claims.shopId,
      sid: claims.sid,
      request_plan: claims.requestPlan,
    },
    { use: "widget", subject: `key:${claims.apiKeyId}`, audience: AUDIENCE, ttlSeconds: WIDGET_TOKEN_MINUTES * 60 },
  );
}

export async function verifyWidgetToken(token: string): Promise<WidgetClaims | null> {
  const c = await verifyToken(token, { use: "widget", audience: AUDIENCE });
  if (!c || typeof c.partner_id !== "number" || typeof c.api_key_id !== "number" || typeof c.origin !== "string") {
    return null;
  }
  return {
    partnerId: c.partner_id,
    apiKeyId: c.api_key_id,
    origin: c.origin,
    shopId: typeof c.shop_id === "number" ? c.shop_id : null,
    sid: typeof c.sid === "string" ? c.sid : "",
    requestPlan: typeof c.request_plan === "string" ? c.request_plan : "trial",
  };
}
