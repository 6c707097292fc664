// A Shopify storefront stand-in for browser tests of the app proxy: pages on
// `*.shop.test`, `/apps/wishlist/*` forwarded to the app's `/proxy/*` the way
// Shopify's app proxy does (cookies dropped, the query signed with the app
// secret, `logged_in_customer_id` from the store's own sign-in, here the
// cookie `customer`), an `application/liquid` answer rendered with a Liquid
// engine inside a theme layout, and the AJAX cart's `/cart/add.js` recorded.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { Liquid } from "liquidjs";
import { signedProxyQuery } from "./app-proxy.ts";
import { freePort } from "./net.ts";

export interface Storefront {
  origin: string;
  /** Serves `html` (inside the theme layout) at `path`. */
  page: (path: string, html: string) => void;
  /** JSON bodies the store's /cart/add.js received. */
  cartAdds: unknown[];
  /** Liquid bodies the proxy answered, before rendering. */
  liquidBodies: string[];
  stop: () => Promise<void>;
}

const liquid = new Liquid();

/** The theme layout a proxied Liquid page is rendered in. */
function layout(lang: string, content: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Stand-in store</title><link rel="icon" href="data:,">
<style>body{margin:0;font-family:sans-serif;color:#1a1a1a;background:#fff}header{padding:16px;border-bottom:1px solid #ddd}</style></head>
<body><header><a href="/">Stand-in store</a></header><main>${content}</main></body></html>`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startStorefront(opts: { appUrl: string; secret: string; shopDomain: string; host?: string; lang?: string }): Promise<Storefront> {
  const pages = new Map<string, string>();
  const cartAdds: unknown[] = [];
  const liquidBodies: string[] = [];
  const port = await freePort();
  const lang = opts.lang ?? "en";
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://x");
      const body = await readBody(req);
      if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
      if (url.pathname === "/cart/add.js" && req.method === "POST") {
        cartAdds.push(JSON.parse(body.toString("utf8")));
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ items: [] }));
      }
      const proxied = /^\/apps\/wishlist(\/.*)?$/.exec(url.pathname);
      if (proxied) {
        const customer = /(?:^|;\s*)customer=(\d+)/.exec(req.headers.cookie ?? "")?.[1];
        const extra: Record<string, string[]> = {};
        for (const [k, v] of url.searchParams) (extra[k] ??= []).push(v);
        const query = signedProxyQuery({ shop: opts.shopDomain, customerId: customer, extra }, opts.secret);
        const headers: Record<string, string> = { "accept-language": lang };
        for (const name of ["content-type", "origin", "accept"]) {
          const value = req.headers[name];
          if (typeof value === "string") headers[name] = value;
        }
        const answer = await fetch(`${opts.appUrl}/proxy${proxied[1] ?? ""}?${query}`, {
          method: req.method,
          headers,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(body),
        });
        const text = await answer.text();
        const type = answer.headers.get("content-type") ?? "";
        if (type.startsWith("application/liquid")) {
          liquidBodies.push(text);
          const rendered = await liquid.parseAndRender(text, { shop: { name: "Stand-in store" } });
          return void res.writeHead(answer.status, { "content-type": "text/html; charset=utf-8" }).end(layout(lang, rendered));
        }
        return void res.writeHead(answer.status, { "content-type": type || "text/plain" }).end(text);
      }
      const html = pages.get(url.pathname);
      if (html === undefined) return void res.writeHead(404, { "content-type": "text/html" }).end("<!doctype html><title>Not found</title><h1>Not found</h1>");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(layout(lang, html));
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://${opts.host ?? "store.shop.test"}:${port}`,
    page: (path, html) => void pages.set(path, html),
    cartAdds,
    liquidBodies,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
