// GET /sdk/v1/{widget,basket-integration}.js (the v1 alias) and their
// content-hashed copies (SPEC 9) as an ApiReply: answered by the node:http path
// without Remix (handleSdkRequest) and by the Remix route
// app/routes/sdk.v1.$file.ts (remix vite:dev).
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { errorReply } from "~/http/error-reply.server";
import { ALIAS_CACHE_CONTROL, PINNED_CACHE_CONTROL, sdkScript } from "~/domains/shop-scripts/shop-scripts.server";
import { ReplyHeaders, type ApiReply } from "~/lib/api/http";
import { notFound } from "~/lib/api/errors";
import { sendReply } from "~/lib/api/node-adapter.server";
import { etagMatches } from "~/lib/http/etag";
import { applySecurityHeaders } from "~/lib/http/security-headers";

export const SDK_PREFIX = "/sdk/v1/";

// Every shop page loads these: gzip halves them (widget.js 8.5 → 3.9 KB). Made once per script body.
const gzipped = new WeakMap<Buffer, Buffer>();
const gzipOf = (body: Buffer) => {
  let out = gzipped.get(body);
  if (!out) gzipped.set(body, (out = gzipSync(body, { level: 9 })));
  return out;
};
const acceptsGzip = (header: string | null | undefined) =>
  !!header && header.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    return name === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });

/** The script `file` (decoded) for a GET or HEAD at `pathname`. */
export async function sdkScriptReply(
  request: { method: string; pathname: string; ifNoneMatch: string | null; acceptEncoding?: string | null },
  file: string,
): Promise<ApiReply> {
  try {
    const script = await sdkScript(file);
    if (!script) throw notFound("not_found", "No such script");
    const headers = new ReplyHeaders({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": script.pinned ? PINNED_CACHE_CONTROL : ALIAS_CACHE_CONTROL,
      etag: script.etag,
      // Shop pages load it cross-origin, also with crossorigin + integrity (SRI) and under COEP.
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
      vary: "Accept-Encoding",
    });
    applySecurityHeaders(headers, request.pathname);
    if (etagMatches(request.ifNoneMatch, script.etag)) return { status: 304, headers, body: null };
    const body = acceptsGzip(request.acceptEncoding) ? gzipOf(script.body) : script.body;
    if (body !== script.body) headers.set("content-encoding", "gzip");
    headers.set("content-length", String(body.length));
    return { status: 200, headers, body: request.method === "HEAD" ? null : body };
  } catch (err) {
    return errorReply(err, request);
  }
}

/**
 * The node:http path for GET/HEAD under /sdk/v1/: false (nothing sent)
 * when the rest is not one file name, which Remix then answers as before.
 */
export function handleSdkRequest(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> | false {
  const rest = pathname.slice(SDK_PREFIX.length);
  if (!rest || rest.includes("/")) return false;
  let file: string;
  try {
    file = decodeURIComponent(rest);
  } catch {
    return false;
  }
  const ifNoneMatch = req.headers["if-none-match"] ?? null;
  const acceptEncoding = req.headers["accept-encoding"] ?? null;
  return sdkScriptReply({ method: req.method ?? "GET", pathname, ifNoneMatch, acceptEncoding }, file).then((reply) => sendReply(res, reply));
}
