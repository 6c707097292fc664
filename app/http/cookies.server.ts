// The service's cookies over HTTP: reading them from a request and writing
// their Set-Cookie values. Domains decide what a cookie holds and how long it
// lives (a site session token, a viewer id) and see only those plain values;
// the names and attributes live here. Every cookie of ours is first-party,
// HttpOnly and SameSite=Lax, Secure when APP_URL is https.
import { env } from "~/env.server";
import type { WithHeaders } from "~/lib/api/http";

/** The shopper's account session on the service's own pages (identity/site-session.server.ts). */
export const SITE_COOKIE = "wish_user";
/** Who views a public list, for list_view metering (metering/list-viewer.server.ts). */
export const VIEWER_COOKIE = "wl_viewer";

/** A cookie's value and lifetime as a domain hands it out. */
export interface CookieValue {
  value: string;
  maxAgeSeconds: number;
}

const secure = () => (new URL(env.APP_URL).protocol === "https:" ? "; Secure" : "");

/** The value of cookie `name` in the request's Cookie header, or null. */
export function readCookie(request: WithHeaders, name: string): string | null {
  for (const part of request.headers.get("cookie")?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The Set-Cookie value that stores `cookie` under `name`. */
export const setCookie = (name: string, cookie: CookieValue) =>
  `${name}=${cookie.value}; Path=/; Max-Age=${cookie.maxAgeSeconds}; HttpOnly; SameSite=Lax${secure()}`;

/** The Set-Cookie value that removes cookie `name`. */
export const clearedCookie = (name: string) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure()}`;

/** The bearer token of the Authorization header, or null. */
export const bearerToken = (request: WithHeaders) => request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;

/** What a public list's viewer presents (metering/list-viewer.server.ts tells the viewer from it). */
export function viewerSignals(request: WithHeaders, clientAddress: string | null) {
  return {
    userAgent: request.headers.get("user-agent"),
    bearerToken: bearerToken(request),
    viewerCookie: readCookie(request, VIEWER_COOKIE),
    address: clientAddress,
  };
}
