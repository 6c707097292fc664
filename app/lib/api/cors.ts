// CORS for the public API: the caller's origin is reflected (access is
// controlled by keys, tokens and allow-lists, not by CORS).
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
