// The caching headers of answers a CDN may keep (public share pages, link
// preview documents and images; docs/operations.md "Running behind a CDN"):
// shared caches keep them CDN_SHARED_MAX_AGE_SECONDS and may serve them stale
// for CDN_STALE_SECONDS while they revalidate; browsers revalidate every
// time (max-age=0), so a reload after a change never shows their own stale
// copy. The ETag is a hash of the body: strong, and it changes exactly when
// what the answer shows changes. Everything else (private, personal, error
// answers) is `no-store`.
import { createHash } from "node:crypto";
import { env } from "~/env.server";

/** Cache-Control of an answer that is the same for everyone with the link. */
export const sharedCacheControl = () =>
  `public, max-age=0, s-maxage=${env.CDN_SHARED_MAX_AGE_SECONDS}, stale-while-revalidate=${env.CDN_STALE_SECONDS}`;

/** A strong validator of exactly these bytes. */
export const bodyEtag = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

/** Whether `If-None-Match` names `etag` (RFC 9110 13.1.2: weak comparison, `*` matches any current answer). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** The cache keys of an answer, in the two headers CDNs read them from (Fastly and others: Surrogate-Key; Cloudflare: Cache-Tag). */
export function cacheKeyHeaders(keys: readonly string[]): Record<string, string> {
  return keys.length ? { "surrogate-key": keys.join(" "), "cache-tag": keys.join(",") } : {};
}
