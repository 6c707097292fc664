// The "customer" auth mode of the API (endpoint.server.ts): requests from a
// Shopify customer account UI extension, `Authorization: Bearer <session
// token>` from `shopify.sessionToken.get()`. The Shopify library's
// authenticate.public.customerAccount verifies the token (HS256 with the app
// secret, expiry; it also refuses self-declared bots); the customer-accounts
// domain then checks what the library leaves out (audience, destination shop,
// customer) and names the shopper account.
import { env } from "~/env.server";
import { shopify } from "~/shopify.server";
import { customerOfSessionToken, type ShopCustomerIdentity } from "~/domains/customer-accounts/session.server";
import { ApiError, unauthorized } from "~/lib/api/errors";
import { ReplyHeaders, type ApiReply, type ApiRequest } from "~/lib/api/http";
import { applyExtensionCors } from "~/lib/api/cors";

const notConfigured = () => new ApiError(404, "not_found", "The Shopify app is not configured on this server");

/** Only what the library reads: the token, the origin (CORS) and the user agent (bots). */
function libraryRequest(request: ApiRequest): Request {
  const headers = new Headers();
  for (const name of ["authorization", "origin", "user-agent"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Request(new URL(request.pathname + request.search, env.APP_URL), { method: request.method, headers });
}

export async function requireCustomer(request: ApiRequest): Promise<ShopCustomerIdentity> {
  if (!shopify || !env.SHOPIFY_API_KEY) throw notConfigured();
  let claims;
  try {
    ({ sessionToken: claims } = await shopify.authenticate.public.customerAccount(libraryRequest(request)));
  } catch (thrown) {
    // The library answers a missing, forged or expired token (and a bot) with a bare Response.
    if (thrown instanceof Response) throw unauthorized("Missing or invalid customer account session token");
    throw thrown;
  }
  return customerOfSessionToken(claims, env.SHOPIFY_API_KEY);
}

/**
 * The preflight of an extension route: the library's CORS headers, plus the
 * route's methods (the library names none, and a browser asks before DELETE).
 */
export function customerAccountPreflight(request: ApiRequest, allowMethods: string): ApiReply {
  const headers = new ReplyHeaders({ "Access-Control-Max-Age": "7200" });
  applyExtensionCors(headers, request.headers.get("origin"));
  headers.set("Access-Control-Allow-Methods", allowMethods);
  return { status: 204, headers, body: null };
}
