// The one place that decides the security headers of every response: pages
// (Remix documents, entry.server.tsx), the API (endpoint layer) and what the
// HTTP server answers itself (static files, early 4xx). New pages inherit them
// by path; nothing has to be added per route.
import { createHash, randomBytes } from "node:crypto";
import type { MutableHeaders } from "~/lib/api/http";

/** Where the Shopify admin embeds the app (Shopify's own frame-ancestors guidance for embedded apps). */
export const SHOPIFY_ADMIN_FRAME_ANCESTORS = "https://admin.shopify.com https://*.myshopify.com";

/** A fresh CSP nonce for one HTML document (Remix's inline scripts carry it). */
export const newNonce = () => randomBytes(16).toString("base64");

/** Embedded admin pages and the Shopify OAuth/exit-iframe pages run inside the Shopify admin. */
const embedded = (pathname: string) => /^\/(app|auth)(\/|$)/.test(pathname);

/** Link-preview documents (`/api/v1/og/list/{token}`): crawlers read their tags, people are sent on by one script. */
const linkPreview = (pathname: string) => /^\/api\/v1\/og\/list\//.test(pathname);

/**
 * The only inline script of a link-preview document. It is the same text on
 * every such document (it reads the target from the canonical link), so the
 * CSP allows it by hash and no nonce has to reach the API layer.
 */
export const PREVIEW_REDIRECT_SCRIPT = `location.replace(document.querySelector('link[rel="canonical"]').href)`;
const PREVIEW_REDIRECT_HASH = `'sha256-${createHash("sha256").update(PREVIEW_REDIRECT_SCRIPT).digest("base64")}'`;

/** Share pages: the address carries the share token. */
const sharePage = (pathname: string) => /^\/[a-z]{2}\/list(\/|$)/.test(pathname);

/** Pages whose address carries a secret (share tokens, widget tokens, an alert's click key): the address must not leak as a Referer. */
const carriesToken = (pathname: string) =>
  sharePage(pathname) || /^\/dialog(\/|$)/.test(pathname) || linkPreview(pathname) || pathname === "/alerts/buy";

/** "My lists" shows share links and posts its own forms: like share pages, nothing of it goes to other sites. */
const myListsPage = (pathname: string) => /^\/[a-z]{2}\/lists(\/|\.|$)/.test(pathname);

/** The account pages (forgot password, the e-mailed links' pages, settings): their own form posts, links' tokens in the fragment. */
const accountPage = (pathname: string) => /^\/[a-z]{2}\/account(\/|$)/.test(pathname);

/**
 * Share pages post their own forms (purchased toggle), and under
 * `no-referrer` Chromium sends those posts with `Origin: null`, which the
 * same-origin check of page writes must refuse. `same-origin` keeps the
 * address from every other site just the same.
 */
const referrerPolicy = (pathname: string) =>
  sharePage(pathname) || myListsPage(pathname) || accountPage(pathname) ? "same-origin" : carriesToken(pathname) ? "no-referrer" : "strict-origin-when-cross-origin";

/**
 * A page that specific sites may frame (the basket drawer) names them in this
 * header from its route; it is consumed here and never sent.
 */
export const FRAME_ANCESTORS_HEADER = "x-wish-frame-ancestors";

/** The CSP source that allows an inline script of exactly this text. */
export const scriptHash = (script: string) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`;

/** Content-Security-Policy of an HTML page at `pathname`; `scriptHashes` allow fixed inline scripts (scriptHash). */
export function contentSecurityPolicy(pathname: string, nonce?: string, frameAncestors?: string, scriptHashes: readonly string[] = []): string {
  const admin = embedded(pathname);
  // App Bridge and Polaris assets come from Shopify's CDN on admin pages.
  const shopifyCdn = admin ? " https://cdn.shopify.com" : "";
  return [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}${linkPreview(pathname) ? ` ${PREVIEW_REDIRECT_HASH}` : ""}${scriptHashes.map((h) => ` ${h}`).join("")}${shopifyCdn}`,
    // React renders style attributes; styles cannot run code.
    `style-src 'self' 'unsafe-inline'${shopifyCdn}`,
    // Product images are stored copies or the shop's own https URLs.
    "img-src 'self' https: data:",
    `font-src 'self'${shopifyCdn}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${admin ? SHOPIFY_ADMIN_FRAME_ANCESTORS : (frameAncestors ?? "'none'")}`,
  ].join("; ");
}

/**
 * Headers for a response at `pathname`: every response gets `nosniff` and a
 * Referrer-Policy; HTML gets a CSP whose `frame-ancestors` allows only the
 * Shopify admin on embedded pages and nobody elsewhere.
 */
export function securityHeaders(
  pathname: string,
  opts: { html: boolean; nonce?: string; frameAncestors?: string; scriptHashes?: readonly string[] },
): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": referrerPolicy(pathname),
  };
  if (opts.html) headers["Content-Security-Policy"] = contentSecurityPolicy(pathname, opts.nonce, opts.frameAncestors, opts.scriptHashes);
  return headers;
}

// The headers of non-HTML responses take one of three values: built once.
const PLAIN_HEADERS = new Map(
  ["strict-origin-when-cross-origin", "same-origin", "no-referrer"].map((policy) => [
    policy,
    Object.entries({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": policy }),
  ]),
);
const HTML_TYPE = /^text\/html/i;

/** Sets (replaces) the security headers on `headers`; HTML is read from its Content-Type. */
export function applySecurityHeaders(headers: MutableHeaders, pathname: string, nonce?: string, scriptHashes?: readonly string[]): void {
  const html = HTML_TYPE.test(headers.get("content-type") ?? "");
  const frameAncestors = headers.get(FRAME_ANCESTORS_HEADER) ?? undefined;
  if (frameAncestors !== undefined) headers.delete(FRAME_ANCESTORS_HEADER);
  const entries = html
    ? Object.entries(securityHeaders(pathname, { html, nonce, frameAncestors, scriptHashes }))
    : PLAIN_HEADERS.get(referrerPolicy(pathname))!;
  for (const [name, value] of entries) headers.set(name, value);
}
