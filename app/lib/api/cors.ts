// CORS for the public API: the caller's origin is reflected (access is
// controlled by keys, tokens and allow-lists, not by CORS).
import { appOrigin } from "~/env.server";
import { ReplyHeaders, type MutableHeaders } from "./http";

export const ALLOWED_REQUEST_HEADERS = [
  "authorization",
  "apikey",
  "x-widget-token",
  "x-analytics-token",
  "content-type",
  "x-client-info",
  "x-supabase-api-version",
].join(", ");

export const EXPOSED_RESPONSE_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-Usage-Month",
  "X-Usage-Limit",
  "X-Usage-Overage",
  "X-Usage-Total",
  "X-Usage-Remaining",
].join(", ");

export function applyCors(headers: MutableHeaders, requestOrigin: string | null): void {
  headers.set("Access-Control-Allow-Origin", requestOrigin ?? "*");
  headers.set("Access-Control-Expose-Headers", EXPOSED_RESPONSE_HEADERS);
  headers.append("Vary", "Origin");
}

/** Headers of a preflight answer; `allowMethods` is the route's methods plus OPTIONS, joined once per route. */
export function preflightHeaders(requestOrigin: string | null, allowMethods: string): ReplyHeaders {
  const headers = new ReplyHeaders();
  applyCors(headers, requestOrigin);
  headers.set("Access-Control-Allow-Methods", allowMethods);
  headers.set("Access-Control-Allow-Headers", ALLOWED_REQUEST_HEADERS);
  headers.set("Access-Control-Max-Age", "600");
  return headers;
}

/**
 * CORS of the routes a Shopify UI extension calls (customer accounts), the
 * rule of `@shopify/shopify-app-remix`'s `cors()` helper
 * (authenticate/helpers/ensure-cors-headers): a request from another origin
 * (extensions run in a worker whose origin is Shopify's or `null`) gets `*`,
 * the Authorization and Content-Type request headers and the library's
 * re-authorization header exposed. Applied to errors too, so the extension
 * can read them; tests compare it with the library's own answer.
 */
export function applyExtensionCors(headers: MutableHeaders, requestOrigin: string | null): void {
  if (!requestOrigin || requestOrigin === appOrigin) return;
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Allow-Headers", "Authorization, Content-Type");
  headers.set("Access-Control-Expose-Headers", "X-Shopify-API-Request-Failure-Reauthorize-Url");
}
