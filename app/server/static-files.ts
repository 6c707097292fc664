// The files of build/client (Vite's assets, public/), indexed once at boot:
// path → bytes, type, ETag, headers. A request never touches the disk, and a
// path that is not in the index (traversal attempts included: nothing is
// resolved against the file system) falls through to the next handler.
// Compressed copies (br, gzip) are made once per file, asynchronously, the
// first time a client that accepts them asks; until then the file goes out
// as is.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import { etagMatches } from "~/lib/http/etag";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Hashed file names under /assets never change: cached for a year. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const DEFAULT_CACHE_CONTROL = "public, max-age=3600";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".json", ".map", ".html", ".txt", ".svg", ".ico", ".webmanifest"]);
// Below this, compression saves less than its headers cost.
const MIN_COMPRESS_BYTES = 1024;

type Encoding = "br" | "gzip";

interface StaticFile {
  body: Buffer;
  etag: string;
  compressible: boolean;
  /** Headers of a 200 (without Content-Length / Content-Encoding) and of a 304. */
  headers: Record<string, string>;
  encoded: Partial<Record<Encoding, Buffer | Promise<void>>>;
}

export interface StaticFiles {
  /** Answers GET/HEAD of a known file (200, or 304 on a matching If-None-Match); false when the path is not one. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  readonly size: number;
}

function walk(dir: string, prefix = ""): Array<[urlPath: string, file: string]> {
  const found: Array<[string, string]> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue; // dotfiles are not served (express.static's default too)
    const file = path.join(dir, entry.name);
    const urlPath = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...walk(file, urlPath));
    else if (entry.isFile()) found.push([urlPath, file]);
  }
  return found;
}

/** The best encoding the client accepts (br over gzip), ignoring q-values other than q=0. */
function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let gzipOk = false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue;
    if (name === "br") return "br";
    if (name === "gzip") gzipOk = true;
  }
  return gzipOk ? "gzip" : null;
}

/**
 * Indexes `root` (build/client). `securityHeaders(pathname)` gives the
 * headers every response at that path carries (app/lib/http/security-headers.ts).
 */
export function staticFiles(root: string, securityHeaders: (pathname: string) => Record<string, string>): StaticFiles {
  const index = new Map<string, StaticFile>();
  for (const [urlPath, file] of walk(root)) {
    const body = readFileSync(file);
    const ext = path.extname(file).toLowerCase();
    const compressible = COMPRESSIBLE.has(ext) && body.length >= MIN_COMPRESS_BYTES;
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    const headers: Record<string, string> = {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": urlPath.startsWith("/assets/") ? IMMUTABLE_CACHE_CONTROL : DEFAULT_CACHE_CONTROL,
      etag,
      "last-modified": statSync(file).mtime.toUTCString(),
      ...(compressible ? { vary: "Accept-Encoding" } : {}),
      ...securityHeaders(urlPath),
    };
    index.set(urlPath, { body, etag, compressible, headers, encoded: {} });
  }

  const compress = (file: StaticFile, encoding: Encoding) => {
    const work = encoding === "br"
      ? brotli(file.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: file.body.length } })
      : gzipAsync(file.body, { level: 9 });
    file.encoded[encoding] = work.then(
      (out) => void (file.encoded[encoding] = out.length < file.body.length ? out : file.body),
      () => void (file.encoded[encoding] = file.body),
    );
  };

  const lookup = (pathname: string): StaticFile | undefined => {
    const hit = index.get(pathname);
    if (hit || !pathname.includes("%")) return hit;
    try {
      return index.get(decodeURIComponent(pathname));
    } catch {
      return undefined;
    }
  };

  return {
    size: index.size,
    serve(req, res, pathname) {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const file = lookup(pathname);
      if (!file) return false;
      if (etagMatches(req.headers["if-none-match"], file.etag)) {
        res.writeHead(304, file.headers);
        res.end();
        return true;
      }
      let body = file.body;
      let encoding: Encoding | null = null;
      if (file.compressible) {
        encoding = acceptedEncoding(req.headers["accept-encoding"] as string | undefined);
        if (encoding) {
          const encoded = file.encoded[encoding];
          if (encoded === undefined) compress(file, encoding);
          if (Buffer.isBuffer(encoded) && encoded !== file.body) body = encoded;
          else encoding = null;
        }
      }
      res.writeHead(200, {
        ...file.headers,
        "content-length": String(body.length),
        ...(encoding ? { "content-encoding": encoding } : {}),
      });
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}
