// A fixture Online Store 2.0 storefront with Dawn-like markup (header icons,
// `.card-wrapper` product cards with a full-card link, `.grid` of cards), for
// the hearts test and the storefront benchmark. Pages: home (hero and a
// featured collection of 8), a product page, and a collection of 24 cards.
// Served with Shopify's AJAX product (`/products/<handle>.js`) and cart
// (`POST /cart/add.js`) endpoints; the app embed is rendered from the
// extension's real Liquid with liquidjs and placed at the end of <body>, as
// Shopify does (its styles are inline in it; no stylesheet in <head>). The
// extension's assets (`asset_url`) come from a second server on its own port,
// standing in for Shopify's CDN: another origin than the shop and the app.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Liquid, Tag, type TagToken, type TopLevelToken } from "liquidjs";
import { freePort } from "./net.ts";
import { root } from "./server.ts";

const EXT = path.join(root, "extensions/wishlist");
const readExt = (file: string) => readFileSync(path.join(EXT, file), "utf8");

/** The product images' host in `/products/<handle>.js` (Shopify's CDN stands here; route https://IMAGE_HOST/** in a browser context). */
export const IMAGE_HOST = "img.shop.test";

export interface FixtureProduct {
  id: number;
  handle: string;
  title: string;
  price: number;
  variantId: number;
}

const NAMES = ["Linen shirt", "Wool scarf", "Canvas tote", "Leather belt", "Cotton tee", "Denim jacket", "Rain coat", "Knit beanie"];
export const PRODUCTS: FixtureProduct[] = Array.from({ length: 24 }, (_, i) => ({
  id: 7000 + i,
  handle: `item-${String(i + 1).padStart(2, "0")}`,
  title: `${NAMES[i % NAMES.length]} ${Math.floor(i / NAMES.length) + 1}`,
  price: 1900 + i * 150,
  variantId: 41000 + i,
}));

class SchemaTag extends Tag {
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    while (remain.length) if ((remain.shift() as TagToken).name === "endschema") return;
    throw new Error("schema tag not closed");
  }
  *render(): Generator<unknown, void, unknown> {}
}

/** The embed's settings as a merchant would leave them by default (schema defaults). */
export function embedDefaults(): Record<string, unknown> {
  const schema = JSON.parse(/\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema/.exec(readExt("blocks/app-embed.liquid"))![1]!);
  return Object.fromEntries((schema.settings as Array<{ id: string; default?: unknown }>).map((s) => [s.id, s.default ?? ""]));
}

export interface EmbedOptions {
  appUrl: string;
  publicKey: string;
  /** The app's anon key (shop metafield anon_key): the extension's scripts send it with every API call. */
  anonKey: string;
  /** Where `asset_url` points: the fixture's CDN (ThemeShop.cdnOrigin). */
  assetBase: string;
  basketId?: string;
  settings?: Record<string, unknown>;
  lang?: "en" | "de";
}

/** The app embed block rendered for the fixture shop (assets from `assetBase`/cdn/extension-assets/). */
export async function renderEmbed(o: EmbedOptions): Promise<string> {
  const lang = o.lang ?? "en";
  const locale = JSON.parse(readExt(lang === "de" ? "locales/de.json" : "locales/en.default.json"));
  const liquid = new Liquid({ root: [path.join(EXT, "snippets")], extname: ".liquid", strictFilters: true });
  liquid.registerTag("schema", SchemaTag);
  liquid.registerFilter("t", (key: string) => key.split(".").reduce((n: any, k) => n?.[k], locale));
  liquid.registerFilter("asset_url", (name: string) => `${o.assetBase}/cdn/extension-assets/${name}`);
  const metafields: Record<string, { value: unknown }> = { public_key: { value: o.publicKey }, app_url: { value: o.appUrl }, anon_key: { value: o.anonKey } };
  if (o.basketId) metafields.basket_id = { value: o.basketId };
  const globals = {
    shop: { url: "", metafields: { "$app:wishlist": metafields } },
    request: { locale: { iso_code: lang } },
    localization: { country: { iso_code: "DE" } },
    routes: { cart_add_url: "/cart/add", root_url: "/" },
  };
  const block = { id: "embed", settings: { ...embedDefaults(), ...o.settings }, shopify_attributes: "" };
  return liquid.parseAndRender(readExt("blocks/app-embed.liquid"), { ...globals, block }, { globals });
}

// ------------------------------------------------------------------ pages

const ICON = (d: string) => `<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="22" height="22"><path d="${d}" fill="none" stroke="currentColor" stroke-width="1.8"/></svg>`;

const THEME_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-size:62.5%}
body{margin:0;font:1.6rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#121212;background:#fff}
a{color:inherit}
.page-width{max-width:120rem;margin:0 auto;padding:0 1.5rem}
@media (min-width:750px){.page-width{padding:0 5rem}}
.header-wrapper{border-bottom:1px solid #e6e6e6}
.header{display:grid;grid-template-columns:1fr auto 1fr;grid-template-areas:"left heading icons";align-items:center;min-height:6.4rem}
.header__heading{grid-area:heading;margin:0;font-size:2rem}
.header__heading-link{text-decoration:none}
.header__inline-menu{grid-area:left;display:none}
@media (min-width:990px){.header__inline-menu{display:block}}
.list-menu{display:flex;gap:2rem;list-style:none;margin:0;padding:0}
.header__icons{grid-area:icons;justify-self:end;display:flex}
.header__icon{display:flex;align-items:center;justify-content:center;width:4.4rem;height:4.4rem}
.banner{display:flex;align-items:center;justify-content:center;min-height:36rem;background:#f3f3f3;text-align:center}
.banner h2{font-size:3.6rem;margin:0 0 1rem}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:4.4rem;padding:0 3rem;background:#121212;color:#fff;text-decoration:none;border:0;font:inherit;cursor:pointer}
.title{font-size:2.8rem;margin:3rem 0 2rem}
.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:1rem;list-style:none;margin:0 0 4rem;padding:0}
@media (min-width:750px){.grid{grid-template-columns:repeat(4,minmax(0,1fr));gap:2rem}}
.card{position:relative;display:flex;flex-direction:column}
.card__inner{position:relative;width:100%;padding-bottom:100%;background:#f3f3f3}
.card__media img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.card__content{padding:1rem 0}
.card__heading{font-size:1.5rem;font-weight:400;margin:0 0 .4rem}
.full-unstyled-link{text-decoration:none}
.card-wrapper .full-unstyled-link::after{content:"";position:absolute;inset:0;z-index:1}
.price{font-size:1.4rem;color:#555}
.product{display:grid;gap:3rem;margin:3rem 0}
@media (min-width:750px){.product{grid-template-columns:1fr 1fr}}
.product__media{position:relative;padding-bottom:100%;background:#f3f3f3}
.product__media img{position:absolute;inset:0;width:100%;height:100%}
.footer{border-top:1px solid #e6e6e6;padding:3rem 0;font-size:1.4rem}
`;

// A little theme script, as every theme has: the header's cart count and a deferred image reveal.
const THEME_JS = `document.querySelectorAll(".card__media img").forEach(function(img){img.decoding="async"});`;

const money = (minor: number) => `€${(minor / 100).toFixed(2).replace(".", ",")}`;
const image = (p: FixtureProduct) => `/cdn/img/${p.handle}.svg`;

function card(p: FixtureProduct, eager: boolean): string {
  return `<li class="grid__item"><div class="card-wrapper product-card-wrapper">
  <div class="card card--standard"><div class="card__inner"><div class="card__media">
    <img src="${image(p)}" alt="" width="600" height="600"${eager ? "" : ' loading="lazy"'}></div></div>
  <div class="card__content"><h3 class="card__heading"><a href="/collections/all/products/${p.handle}" class="full-unstyled-link">${p.title}</a></h3>
    <div class="price"><span class="price-item">${money(p.price)}</span></div></div></div></div></li>`;
}

function layout(title: string, main: string, embed: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} – Fixture Shop</title><meta name="description" content="A fixture storefront with Dawn-like markup.">
<link rel="icon" href="data:,">
<style>${THEME_CSS}</style>
<script>window.Shopify = { shop: "fixture.myshopify.com", routes: { root: "/" }, currency: { active: "EUR", rate: "1.0" } };</script>
<script src="/cdn/theme/global.js" defer></script>
</head><body>
<div class="header-wrapper"><header class="header page-width">
  <nav class="header__inline-menu" aria-label="Main"><ul class="list-menu"><li><a href="/">Home</a></li><li><a href="/collections/all">Catalog</a></li></ul></nav>
  <h1 class="header__heading"><a class="header__heading-link" href="/">Fixture Shop</a></h1>
  <div class="header__icons">
    <a class="header__icon" href="/search" aria-label="Search">${ICON("M10.5 18a7.5 7.5 0 1 1 0-15 7.5 7.5 0 0 1 0 15zM16 16l5 5")}</a>
    <a class="header__icon" href="/account/login" aria-label="Log in">${ICON("M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM3.5 21c.8-4.2 4.2-6.5 8.5-6.5s7.7 2.3 8.5 6.5")}</a>
    <a class="header__icon header__icon--cart" href="/cart" aria-label="Cart">${ICON("M3 4h2l2.4 11h11.2L21 7H6.2M9 20.5h.01M18 20.5h.01")}</a>
  </div>
</header></div>
<main id="MainContent" class="page-width">${main}</main>
<footer class="footer"><div class="page-width">© Fixture Shop</div></footer>
${embed}
</body></html>`;
}

export type FixturePage = "home" | "product" | "collection";
export const FIXTURE_PATHS: Record<FixturePage, string> = { home: "/", product: `/products/${PRODUCTS[0]!.handle}`, collection: "/collections/all" };

export function pageHtml(page: FixturePage, embed: string): string {
  if (page === "home") {
    return layout(
      "Home",
      `<section class="banner"><div><h2>New season</h2><p>Linen, wool and canvas for every day.</p><a class="button" href="/collections/all">Shop all</a></div></section>
<h2 class="title">Featured</h2><ul class="grid" role="list">${PRODUCTS.slice(0, 8).map((p, i) => card(p, i < 4)).join("")}</ul>`,
      embed,
    );
  }
  if (page === "collection") {
    return layout("Catalog", `<h2 class="title">Catalog</h2><ul class="grid" role="list">${PRODUCTS.map((p, i) => card(p, i < 4)).join("")}</ul>`, embed);
  }
  const p = PRODUCTS[0]!;
  return layout(
    p.title,
    `<div class="product"><div class="product__media"><img src="${image(p)}" alt="${p.title}" width="600" height="600"></div>
<div><h2 class="title">${p.title}</h2><p class="price">${money(p.price)}</p>
<form action="/cart/add" method="post"><input type="hidden" name="id" value="${p.variantId}"><button class="button" type="submit">Add to cart</button></form>
<p>Soft, breathable and made to last.</p></div></div>
<h2 class="title">You may also like</h2><ul class="grid" role="list">${PRODUCTS.slice(1, 5).map((q) => card(q, false)).join("")}</ul>`,
    embed,
  );
}

export const productSvg = (handle: string) => {
  const p = PRODUCTS.find((q) => q.handle === handle);
  return p ? svg(p) : null;
};

const svg = (p: FixtureProduct) => {
  const hue = (p.id * 47) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><rect width="600" height="600" fill="hsl(${hue},35%,85%)"/><circle cx="300" cy="300" r="150" fill="hsl(${hue},40%,60%)"/></svg>`;
};

export interface ThemeShop {
  origin: (host?: string) => string;
  /** The stand-in for Shopify's CDN: serves the extension's assets/ (and nothing else) under /cdn/extension-assets/. */
  cdnOrigin: string;
  /** The app embed's markup (null: the store without the app). */
  setEmbed: (embed: string | null) => void;
  /** Bodies posted to /cart/add.js, newest last. */
  cartAdds: unknown[];
  requests: string[];
  stop: () => Promise<void>;
}

type Send = (status: number, type: string, body: string) => void;

/** Compressed like Shopify's storefront and CDN answer (gzip when accepted). */
const sender =
  (req: IncomingMessage, res: ServerResponse, headers: Record<string, string> = {}): Send =>
  (status, type, body) => {
    const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")) && body.length > 1024;
    res.writeHead(status, { "content-type": type, "cache-control": "max-age=3600", vary: "Accept-Encoding", ...headers, ...(gzip ? { "content-encoding": "gzip" } : {}) });
    res.end(gzip ? gzipSync(body) : body);
  };

/** The stand-in for Shopify's CDN: the extension's assets/ as committed, cross-origin readable like cdn.shopify.com. */
function cdnHandler(req: IncomingMessage, res: ServerResponse): void {
  const send = sender(req, res, { "access-control-allow-origin": "*" });
  const asset = /^\/cdn\/extension-assets\/([\w.-]+)$/.exec(new URL(req.url ?? "/", "http://x").pathname);
  if (!asset) return send(404, "text/plain", "");
  try {
    send(200, asset[1]!.endsWith(".css") ? "text/css" : "text/javascript", readExt(`assets/${asset[1]}`));
  } catch {
    send(404, "text/plain", "");
  }
}

const listen = async (server: Server) => {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return port;
};

/** The fixture storefront on its own port (any host name reaching it serves the same shop), and its CDN on another. */
export async function startThemeShop(): Promise<ThemeShop> {
  let embed: string | null = null;
  const cartAdds: unknown[] = [];
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const send = sender(req, res);
    const pageName = (Object.keys(FIXTURE_PATHS) as FixturePage[]).find((k) => FIXTURE_PATHS[k] === url.pathname);
    if (pageName) {
      return send(200, "text/html; charset=utf-8", pageHtml(pageName, embed ?? ""));
    }
    const productJs = /^\/products\/([\w-]+)\.js$/.exec(url.pathname);
    if (productJs) {
      const p = PRODUCTS.find((q) => q.handle === productJs[1]);
      if (!p) return send(404, "application/json", JSON.stringify({ status: 404, description: "Not found" }));
      return send(
        200,
        "application/json",
        JSON.stringify({
          id: p.id,
          title: p.title,
          handle: p.handle,
          url: `/products/${p.handle}`,
          price: p.price,
          // Shopify answers with its CDN's protocol-relative address; https here, as on every storefront (tests route IMAGE_HOST).
          featured_image: `//${IMAGE_HOST}${image(p)}`,
          variants: [{ id: p.variantId, title: "Default Title", price: p.price, available: true }],
        }),
      );
    }
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    if (url.pathname.startsWith("/products/")) return send(200, "text/html; charset=utf-8", pageHtml("product", embed ?? ""));
    const img = /^\/cdn\/img\/([\w-]+)\.svg$/.exec(url.pathname);
    if (img) {
      const p = PRODUCTS.find((q) => q.handle === img[1]);
      return p ? send(200, "image/svg+xml", svg(p)) : send(404, "text/plain", "");
    }
    if (url.pathname === "/cdn/theme/global.js") return send(200, "text/javascript", THEME_JS);
    if (url.pathname === "/cart/add.js" && req.method === "POST") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        try {
          cartAdds.push(JSON.parse(body));
          send(200, "application/json", JSON.stringify({ items: [] }));
        } catch {
          send(400, "application/json", JSON.stringify({ status: 400, description: "Bad JSON" }));
        }
      });
      return;
    }
    if (url.pathname === "/cart") return send(200, "text/html; charset=utf-8", layout("Cart", "<h2 class='title'>Your cart</h2>", ""));
    send(404, "text/html; charset=utf-8", "<!doctype html><title>Not found</title><h1>Not found</h1>");
  });
  const cdn = createServer(cdnHandler);
  const [port, cdnPort] = await Promise.all([listen(server), listen(cdn)]);
  const close = (srv: Server) => new Promise<void>((resolve) => srv.close(() => resolve()));
  return {
    origin: (host = "theme.shop.test") => `http://${host}:${port}`,
    cdnOrigin: `http://shopify-cdn.shop.test:${cdnPort}`,
    setEmbed: (e) => void (embed = e),
    cartAdds,
    requests,
    stop: async () => void (await Promise.all([close(server), close(cdn)])),
  };
}
