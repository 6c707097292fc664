// Image proxy (SPEC 7.3/7.5): re-serves a remote image fetched
// through the guarded fetcher (public addresses, ports 80/443, redirects
// re-checked), within a size and time cap. The type is read from the bytes
// (JPEG, PNG, GIF, WebP, AVIF), never from the origin's header, and the
// answer carries that type: an SVG, HTML page or anything else is refused.
// Recent images are kept in a bounded in-memory LRU cache for as long as
// the origin's Cache-Control allows (at most a day). An image whose header
// describes more than IMAGE_MAX_PIXELS is refused like one of too many bytes:
// the proxy decodes nothing, but whoever shows it would.
import { env } from "~/env.server";
import { ApiError, badRequest } from "~/lib/api/errors";
import { overPixelLimit, rasterSize } from "~/lib/images/raster.server";
import { FetchError, guardedFetch } from "~/lib/net/guarded-fetch.server";

const TIMEOUT_MS = 10_000;
const DEFAULT_TTL_S = 3600;
const MAX_TTL_S = 86_400;

/** The image type the bytes start with, or null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const at = (offset: number, ascii: string) =>
    bytes.length >= offset + ascii.length && [...ascii].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && bytes[0] === 0x89 && at(1, "PNG\r\n\x1a\n")) return "image/png";
  if (at(0, "GIF87a") || at(0, "GIF89a")) return "image/gif";
  if (at(0, "RIFF") && at(8, "WEBP")) return "image/webp";
  if (at(4, "ftyp")) {
    // ISO-BMFF: the major brand and the compatible brands of the ftyp box.
    const size = Math.min(bytes.length, ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0);
    for (let off = 8; off + 4 <= size; off += 4) {
      if (off === 12) continue; // minor version
      if (at(off, "avif") || at(off, "avis")) return "image/avif";
    }
  }
  return null;
}

interface CachedImage {
  body: Buffer;
  contentType: string;
  expiresAt: number;
}

/** Least recently used first (Map keeps insertion order; a hit is re-inserted). */
const cache = new Map<string, CachedImage>();
let cachedBytes = 0;

function cacheGet(url: string): CachedImage | null {
  const hit = cache.get(url);
  if (!hit) return null;
  cache.delete(url);
  cachedBytes -= hit.body.length;
  if (hit.expiresAt <= Date.now()) return null;
  cache.set(url, hit);
  cachedBytes += hit.body.length;
  return hit;
}

function cachePut(url: string, image: CachedImage): void {
  const limit = env.IMAGE_PROXY_CACHE_BYTES;
  if (image.body.length > limit / 4) return;
  const old = cache.get(url);
  if (old) {
    cache.delete(url);
    cachedBytes -= old.body.length;
  }
  cache.set(url, image);
  cachedBytes += image.body.length;
  for (const [key, value] of cache) {
    if (cachedBytes <= limit) break;
    cache.delete(key);
    cachedBytes -= value.body.length;
  }
}

/** Seconds the origin lets the image be kept (null: not at all), capped at a day. */
function ttlOf(cacheControl: string | null): number | null {
  const header = (cacheControl ?? "").toLowerCase();
  if (/(^|[\s,])(no-store|no-cache|private)([\s,=]|$)/.test(header)) return null;
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d{1,10})/.exec(header)?.[1];
  if (maxAge === undefined) return DEFAULT_TTL_S;
  const seconds = Number(maxAge);
  return seconds === 0 ? null : Math.min(seconds, MAX_TTL_S);
}

export interface ProxiedImage {
  body: Buffer;
  contentType: string;
  /** Seconds a client may keep it (0: revalidate). */
  maxAge: number;
  cache: "hit" | "miss";
}

function upstream(status: number, reason: string, message: string): ApiError {
  // An origin status that is not an error status is passed on as 502.
  const httpStatus = status >= 400 && status <= 599 ? status : 502;
  return new ApiError(httpStatus, "upstream_error", message, { status: httpStatus, reason });
}

export async function proxyImage(url: string): Promise<ProxiedImage> {
  const hit = cacheGet(url);
  if (hit) return { body: hit.body, contentType: hit.contentType, maxAge: Math.max(0, Math.floor((hit.expiresAt - Date.now()) / 1000)), cache: "hit" };
  let fetched;
  try {
    fetched = await guardedFetch(url, { maxBytes: env.IMAGE_PROXY_MAX_BYTES, timeoutMs: TIMEOUT_MS, headers: { accept: "image/avif,image/webp,image/*;q=0.8" } });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    switch (err.code) {
      case "invalid_url":
      case "blocked_address":
        throw badRequest("invalid_or_disallowed_url", `The URL cannot be fetched: ${err.message}`);
      case "http_error":
        throw upstream(err.status ?? 502, "http_error", `The origin answered HTTP ${err.status}`);
      case "too_large":
        throw upstream(502, "too_large", `The image is larger than ${env.IMAGE_PROXY_MAX_BYTES} bytes`);
      case "timeout":
        throw upstream(504, "timeout", "The origin did not answer in time");
      default:
        throw upstream(502, err.code, err.message);
    }
  }
  const contentType = sniffImageType(fetched.body);
  if (!contentType) throw upstream(502, "not_an_image", "The origin's answer is not a JPEG, PNG, GIF, WebP or AVIF image");
  const size = await rasterSize(fetched.body);
  if (size && overPixelLimit(size)) {
    throw upstream(502, "too_many_pixels", `The image has ${size.width}×${size.height} pixels, more than ${env.IMAGE_MAX_PIXELS}`);
  }
  const ttl = ttlOf(fetched.headers.get("cache-control"));
  if (ttl !== null) cachePut(url, { body: fetched.body, contentType, expiresAt: Date.now() + ttl * 1000 });
  return { body: fetched.body, contentType, maxAge: ttl ?? 0, cache: "miss" };
}
