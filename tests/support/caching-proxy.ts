// A small shared cache in front of a test server, standing in for a CDN
// (docs/operations.md "Running behind a CDN"). It honours what the origin
// says and nothing more:
// - stores a GET answer 200 whose Cache-Control is `public` with `s-maxage`
//   (or `max-age`) and neither `no-store` nor `private`, and that sets no cookie;
// - keys entries by URL plus the request headers the answer's `Vary` names;
// - serves an entry while it is fresh; a stale one is revalidated with
//   If-None-Match (304 refreshes it, 200 replaces it). The clock is the
//   test's: `expireAll()` makes every entry stale, nothing waits;
// - forwards everything else, with X-Forwarded-For naming the client (the
//   `x-test-client` request header, so one test process plays many viewers);
// - is its own purge endpoint: `POST /__purge` with `{tags}` drops entries whose
//   Surrogate-Key names one of them; `failNextPurges(n)` answers the next n with 503.
import http from "node:http";
import type { AddressInfo } from "node:net";

interface Entry {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  vary: string[];
  varyValues: string[];
  etag: string | null;
  keys: string[];
  fresh: boolean;
}

export interface CachingProxy {
  url: string;
  /** Requests for each path answered from the cache, and forwarded to the origin. */
  stats: { hits: Map<string, number>; forwarded: Map<string, number>; revalidated: number; notModified: number };
  /** Purge requests received: their tags and the answer given. */
  purges: { tags: string[]; authorization: string | null; surrogateKey: string | null; status: number }[];
  failNextPurges(n: number): void;
  setOrigin(origin: string): void;
  expireAll(): void;
  stop(): Promise<void>;
}

const directives = (cacheControl: string | null) =>
  new Map(
    (cacheControl ?? "")
      .split(",")
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean)
      .map((d) => {
        const [name, value] = d.split("=");
        return [name!, value ?? ""] as const;
      }),
  );

function storable(status: number, headers: http.IncomingHttpHeaders): boolean {
  const cc = directives(headers["cache-control"] ?? null);
  if (status !== 200 || cc.has("no-store") || cc.has("private") || headers["set-cookie"]) return false;
  const age = Number(cc.get("s-maxage") ?? cc.get("max-age") ?? "0");
  return cc.has("public") && age > 0;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || ["connection", "keep-alive", "transfer-encoding"].includes(k)) continue;
    out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** `origin` may be set later (setOrigin): the origin's configuration names the proxy's purge URL. */
export async function startCachingProxy(origin?: string): Promise<CachingProxy> {
  let target = new URL(origin ?? "http://127.0.0.1:9");
  const entries = new Map<string, Entry[]>();
  const stats = { hits: new Map<string, number>(), forwarded: new Map<string, number>(), revalidated: 0, notModified: 0 };
  const purges: CachingProxy["purges"] = [];
  let failing = 0;

  const forward = (req: http.IncomingMessage, body: Buffer, extra: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers: Record<string, string | string[] | undefined> = { ...req.headers, ...extra, host: target.host };
      const client = headers["x-test-client"];
      delete headers["x-test-client"];
      headers["x-forwarded-for"] = client ?? "127.0.0.1";
      // The site's own host, as a CDN passes it on (the origin's same-origin check of page writes reads it).
      if (req.headers.host) headers["x-forwarded-host"] = req.headers.host;
      const out = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      out.on("error", reject);
      out.end(body);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      void handle(req, res, Buffer.concat(chunks)).catch((err) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    const path = new URL(req.url!, "http://proxy").pathname;
    if (req.method === "POST" && path === "/__purge") {
      const tags: string[] = JSON.parse(body.toString() || "{}").tags ?? [];
      const status = failing > 0 ? 503 : 200;
      if (failing > 0) failing--;
      purges.push({ tags, authorization: req.headers.authorization ?? null, surrogateKey: (req.headers["surrogate-key"] as string) ?? null, status });
      if (status === 200) {
        for (const [key, list] of entries) {
          const kept = list.filter((e) => !e.keys.some((k) => tags.includes(k)));
          if (kept.length) entries.set(key, kept);
          else entries.delete(key);
        }
      }
      res.writeHead(status);
      return res.end();
    }
    const cacheable = req.method === "GET" || req.method === "HEAD";
    const key = req.url!;
    const variants = cacheable ? (entries.get(key) ?? []) : [];
    const entry = variants.find((e) => e.vary.every((h, i) => (req.headers[h] ?? "") === e.varyValues[i]));
    const send = (status: number, headers: Record<string, string>, payload: Buffer) => {
      res.writeHead(status, headers);
      res.end(req.method === "HEAD" ? undefined : payload);
    };
    if (entry?.fresh) {
      bump(stats.hits, path);
      return send(entry.status, entry.headers, entry.body);
    }
    bump(stats.forwarded, path);
    const revalidate: Record<string, string> = entry?.etag && !req.headers["if-none-match"] ? { "if-none-match": entry.etag } : {};
    if (entry?.etag) stats.revalidated++;
    const answer = await forward(req, body, revalidate);
    if (entry && answer.status === 304 && "if-none-match" in revalidate) {
      // Still current: the stored copy is fresh again, with the new answer's headers.
      stats.notModified++;
      entry.fresh = storable(200, answer.headers);
      Object.assign(entry.headers, flatHeaders(answer.headers));
      return send(entry.status, entry.headers, entry.body);
    }
    const headers = flatHeaders(answer.headers);
    if (cacheable && req.method === "GET" && storable(answer.status, answer.headers)) {
      const vary = (answer.headers.vary ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
      const stored: Entry = {
        status: answer.status,
        headers,
        body: answer.body,
        vary,
        varyValues: vary.map((h) => (req.headers[h] as string | undefined) ?? ""),
        etag: (answer.headers.etag as string | undefined) ?? null,
        keys: ((answer.headers["surrogate-key"] as string | undefined) ?? "").split(" ").filter(Boolean),
        fresh: true,
      };
      entries.set(key, [...variants.filter((e) => e !== entry), stored]);
    } else if (entry && answer.status !== 304) {
      // The origin no longer lets this be shared (404, private): the stored copy goes.
      entries.set(key, variants.filter((e) => e !== entry));
    }
    send(answer.status, headers, answer.body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    purges,
    setOrigin: (o) => {
      target = new URL(o);
    },
    failNextPurges: (n) => {
      failing = n;
    },
    expireAll: () => {
      for (const list of entries.values()) for (const e of list) e.fresh = false;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
