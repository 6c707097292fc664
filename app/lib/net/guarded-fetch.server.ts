// The one way the service fetches a URL it did not choose itself (scraper,
// image copy, later basket webhooks). GUIDE section 8: http/https only, only
// public unicast addresses after DNS resolution and on every redirect, only
// ports 80 and 443 (so a URL cannot probe other services of a public host),
// bounded redirects, time and size, optional content-type check.
//
// The address check sits in the socket's `lookup`, so the address that was
// checked is the address connected to (no DNS-rebinding window). IP-literal
// hosts skip `lookup` in Node, so they are checked before connecting.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import ipaddr from "ipaddr.js";
import { env } from "~/env.server";
import { log } from "~/lib/log.server";

export type FetchErrorCode =
  | "invalid_url"
  | "blocked_address"
  | "too_many_redirects"
  | "timeout"
  | "too_large"
  | "bad_content_type"
  | "network_error"
  | "http_error";

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    /** The upstream status, for http_error. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

/** The guard refused the address itself (private address, port, scheme): it will refuse it on every retry too. */
export const refusedForGood = (err: unknown): err is FetchError =>
  err instanceof FetchError && (err.code === "blocked_address" || err.code === "invalid_url");

export interface GuardedFetchOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Largest accepted (decoded) body. */
  maxBytes: number;
  /** Budget for the whole exchange, redirects and body included. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Tested against the media type (lower-case, without parameters) of the final response. */
  acceptContentType?: RegExp;
}

export interface GuardedResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Headers;
  /** Media type, lower-case, without parameters ("" when absent). */
  contentType: string;
  body: Buffer;
}

const USER_AGENT = `WishlistBot/1.0 (+${env.APP_URL})`;
/** The web's ports; any other needs an exact FETCH_TEST_ALLOW_HOSTS entry. */
const ALLOWED_PORTS = new Set(["80", "443"]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Caller headers that may follow a redirect to another origin; anything else
// (authorization, signatures) stays with the origin it was meant for.
const CROSS_ORIGIN_SAFE_HEADERS = new Set(["accept", "accept-language", "content-type"]);

/** True when the address is public unicast: what a user-supplied URL may reach. */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so mapped forms get the IPv4 verdict.
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  if (parsed.range() !== "unicast") return false;
  // ipaddr.js calls everything it has no name for "unicast"; for IPv6 that
  // includes IPv4-compatible ::a.b.c.d and other unassigned space, so only
  // global unicast (2000::/3) is accepted.
  if (parsed.kind() === "ipv6") return (parsed as ipaddr.IPv6).parts[0] >> 13 === 0b001;
  return true;
}

let allowList: Set<string> | undefined;

/** FETCH_TEST_ALLOW_HOSTS as a set of lower-case host:port, read at first use. */
function testAllowList(): Set<string> {
  if (allowList) return allowList;
  allowList = new Set(
    (env.FETCH_TEST_ALLOW_HOSTS ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  if (allowList.size > 0) {
    log.warn("FETCH_TEST_ALLOW_HOSTS is set: outbound fetches may reach these private addresses; never use in production", {
      hosts: [...allowList],
    });
  }
  return allowList;
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

function isTestAllowed(url: URL): boolean {
  return testAllowList().has(`${url.hostname}:${effectivePort(url)}`);
}

/** Parses and checks scheme and (for IP literals) address of one hop. */
function checkTarget(raw: string | URL): URL {
  let url: URL;
  try {
    // WHATWG parsing normalises 2130706433, 0x7f.1, 0177.0.0.1 etc. to dotted IPv4.
    url = new URL(raw);
  } catch {
    throw new FetchError("invalid_url", "Not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchError("invalid_url", "Only http and https URLs can be fetched");
  }
  if (!url.hostname) throw new FetchError("invalid_url", "URL has no host");
  if (!ALLOWED_PORTS.has(effectivePort(url)) && !isTestAllowed(url)) {
    throw new FetchError("blocked_address", "Only ports 80 and 443 can be fetched");
  }
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(literal) && !isPublicAddress(literal) && !isTestAllowed(url)) {
    throw new FetchError("blocked_address", "The address is not allowed");
  }
  return url;
}

/** A `lookup` that resolves every address and refuses the connection unless all are public. */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true, family: options.family }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (addresses.length === 0) return callback(new FetchError("network_error", "Host did not resolve"), "", 0);
      if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) {
        return callback(new FetchError("blocked_address", "The address is not allowed"), "", 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

interface Hop {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

function send(hop: Hop, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { url } = hop;
    const requestFn = url.protocol === "https:" ? https.request : http.request;
    const headers: Record<string, string> = { ...hop.headers };
    if (hop.body !== undefined) headers["content-length"] = String(Buffer.byteLength(hop.body));
    const req = requestFn({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: effectivePort(url),
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers,
      // No pooling: every connection goes through the lookup above.
      agent: false,
      lookup: guardedLookup(isTestAllowed(url)),
      signal,
    });
    req.on("error", reject);
    req.on("response", resolve);
    req.end(hop.body);
  });
}

function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? "identity").trim().toLowerCase()) {
    case "identity":
    case "":
      return null;
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      throw new FetchError("network_error", `Unsupported content encoding ${encoding}`);
  }
}

function readBody(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let decoder: ReturnType<typeof decoderFor>;
    try {
      decoder = decoderFor(res.headers["content-encoding"]);
    } catch (err) {
      res.destroy();
      return reject(err);
    }
    const source: Readable = decoder ? res.pipe(decoder) : res;
    const stop = (err: Error) => {
      reject(err);
      res.destroy();
      decoder?.destroy();
    };
    const onAbort = () => stop(new FetchError("timeout", "The request timed out"));
    signal.addEventListener("abort", onAbort, { once: true });
    const chunks: Buffer[] = [];
    let total = 0;
    // Counted as it arrives, so an endless or lying body stops at the cap.
    source.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return stop(new FetchError("too_large", `Response exceeds ${maxBytes} bytes`));
      chunks.push(chunk);
    });
    source.on("end", () => {
      signal.removeEventListener("abort", onAbort);
      resolve(Buffer.concat(chunks));
    });
    const onError = (err: Error) => {
      signal.removeEventListener("abort", onAbort);
      reject(err);
    };
    source.on("error", onError);
    if (decoder) res.on("error", onError);
  });
}

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0].trim().toLowerCase();
}

function discard(res: http.IncomingMessage): void {
  res.on("error", () => {});
  res.destroy();
}

function asFetchError(err: unknown, signal: AbortSignal): FetchError {
  if (err instanceof FetchError && err.code !== "network_error") return err;
  if (signal.aborted) return new FetchError("timeout", "The request timed out");
  if (err instanceof FetchError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  return new FetchError("network_error", code ? `Network error (${code})` : "Network error");
}

export async function guardedFetch(input: string, opts: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxRedirects = opts.maxRedirects ?? 3;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  const baseHeaders: Record<string, string> = { accept: "*/*" };
  for (const [name, value] of Object.entries(opts.headers ?? {})) baseHeaders[name.toLowerCase()] = value;
  // Fixed identity and no cookies, whatever the caller passes.
  baseHeaders["user-agent"] = USER_AGENT;
  baseHeaders["accept-encoding"] = "gzip, deflate, br";
  delete baseHeaders.cookie;
  delete baseHeaders.host;

  try {
    let hop: Hop = { url: checkTarget(input), method: opts.method ?? "GET", headers: baseHeaders, body: opts.body };
    for (let redirects = 0; ; redirects++) {
      const res = await send(hop, controller.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;

      if (REDIRECT_STATUSES.has(status) && location) {
        discard(res);
        if (redirects >= maxRedirects) throw new FetchError("too_many_redirects", `More than ${maxRedirects} redirects`);
        let target: URL;
        try {
          target = new URL(location, hop.url);
        } catch {
          throw new FetchError("invalid_url", "Redirect to an invalid URL");
        }
        const next = checkTarget(target);
        // As browsers do: 303, and 301/302 after POST, continue as GET without a body.
        const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === "POST");
        let headers = hop.headers;
        if (next.origin !== hop.url.origin) {
          headers = Object.fromEntries(
            Object.entries(headers).filter(([n]) => CROSS_ORIGIN_SAFE_HEADERS.has(n) || n === "user-agent" || n === "accept-encoding"),
          );
        }
        if (toGet) {
          headers = { ...headers };
          delete headers["content-type"];
        }
        hop = { url: next, method: toGet ? "GET" : hop.method, headers, body: toGet ? undefined : hop.body };
        continue;
      }

      if (status < 200 || status > 299) {
        discard(res);
        throw new FetchError("http_error", `Upstream answered HTTP ${status}`, status);
      }
      const contentType = mediaType(res.headers["content-type"]);
      if (opts.acceptContentType && !opts.acceptContentType.test(contentType)) {
        discard(res);
        throw new FetchError("bad_content_type", `Unexpected content type ${contentType || "(none)"}`);
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        discard(res);
        throw new FetchError("too_large", `Response exceeds ${opts.maxBytes} bytes`);
      }
      const body = await readBody(res, opts.maxBytes, controller.signal);
      return { url: hop.url.toString(), status, headers: toHeaders(res.headers), contentType, body };
    }
  } catch (err) {
    throw asFetchError(err, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
