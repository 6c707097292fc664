// Fixture Online Store 2.0 storefronts with Shopify's own Dawn 15.4.1 and Horizon 4.1.3 markup
// and CSS (tests/support/theme-pages.ts, tests/support/themes/), for the hearts test and the
// storefront benchmark. Pages: home (hero and 8 featured products), a product page (main
// product and 4 recommendations), a collection of 24 cards, or 48 with `?per_page=48` (filter, sort and a second page
// through Shopify's query parameters, `section_id` for the Section Rendering API) and search
// results. Served with Shopify's AJAX product (`/products/<handle>.js`) and cart
// (`POST /cart/add.js`) endpoints; the app embed is rendered from the extension's real Liquid
// with liquidjs and placed at the end of <body>, as Shopify does (its styles are inline in it;
// no stylesheet in <head>); on Horizon the card heart app block can be rendered into every card
// (the extension's blocks/card-heart.liquid). The extension's assets (`asset_url`) come from a
// second server on its own port, standing in for Shopify's CDN: another origin than the shop and the app.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Liquid, Tag, type TagToken, type TopLevelToken } from "liquidjs";
import { freePort } from "./net.ts";
import { root } from "./server.ts";
import { ALL_PRODUCTS, FIXTURE_PATHS, PRODUCTS, imageOf, themePage, type FixturePage, type FixtureProduct, type ThemeName } from "./theme-pages.ts";
import { dawnCollectionSection, horizonCollectionSection } from "./theme-pages.ts";

export { ALL_PRODUCTS, FIXTURE_PATHS, PRODUCTS, type FixturePage, type FixtureProduct, type ThemeName };

const EXT = path.join(root, "extensions/wishlist");
const readExt = (file: string) => readFileSync(path.join(EXT, file), "utf8");

/** The product images' host in `/products/<handle>.js` (Shopify's CDN stands here; route https://IMAGE_HOST/** in a browser context). */
export const IMAGE_HOST = "img.shop.test";

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
  /** A customer signed in to the store (Liquid's `customer`); `savedHandles`: the customer metafield mirror's `wishlist_handles`, absent when it was never written. */
  customer?: { id: number; savedHandles?: string[] };
}

/** liquidjs set up as Shopify renders the extension: its snippets, `t` with the storefront language's strings (and their {{ variables }}), `asset_url` on the fixture's CDN. */
function extensionLiquid(lang: "en" | "de", assetBase: string): Liquid {
  const locale = JSON.parse(readExt(lang === "de" ? "locales/de.json" : "locales/en.default.json"));
  const liquid = new Liquid({ root: [path.join(EXT, "snippets")], extname: ".liquid", strictFilters: true });
  liquid.registerTag("schema", SchemaTag);
  liquid.registerFilter("t", (key: string, ...args: unknown[]) => {
    const text = String(key.split(".").reduce((n: any, k) => n?.[k], locale) ?? "");
    // Keyword arguments arrive as [name, value] pairs.
    const vars = Object.fromEntries(args.filter((a): a is [string, unknown] => Array.isArray(a)));
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ""));
  });
  liquid.registerFilter("asset_url", (name: string) => `${assetBase}/cdn/extension-assets/${name}`);
  liquid.registerFilter("image_url", (src: string) => `//${IMAGE_HOST}${src}`);
  return liquid;
}

interface ShopGlobals {
  appUrl: string;
  publicKey: string;
  anonKey: string;
  basketId?: string;
  lang: "en" | "de";
  shopUrl?: string;
  customer?: EmbedOptions["customer"];
}
const shopGlobals = (o: ShopGlobals) => {
  const metafields: Record<string, { value: unknown }> = { public_key: { value: o.publicKey }, app_url: { value: o.appUrl }, anon_key: { value: o.anonKey } };
  if (o.basketId) metafields.basket_id = { value: o.basketId };
  return {
    shop: { url: o.shopUrl ?? "", metafields: { "$app:wishlist": metafields } },
    request: { locale: { iso_code: o.lang } },
    localization: { country: { iso_code: "DE" } },
    routes: { cart_add_url: "/cart/add", root_url: "/" },
    cart: { currency: { iso_code: "EUR" } },
    // App-owned metafields under the `$app` reserved prefix, as Shopify resolves it for the app's own extension.
    ...(o.customer && {
      customer: { id: o.customer.id, metafields: { $app: o.customer.savedHandles ? { wishlist_handles: { value: o.customer.savedHandles } } : {} } },
    }),
  };
};

/** The app embed block rendered for the fixture shop (assets from `assetBase`/cdn/extension-assets/). */
export async function renderEmbed(o: EmbedOptions): Promise<string> {
  const lang = o.lang ?? "en";
  const liquid = extensionLiquid(lang, o.assetBase);
  const globals = shopGlobals({ ...o, lang });
  const block = { id: "embed", settings: { ...embedDefaults(), ...o.settings }, shopify_attributes: "" };
  return liquid.parseAndRender(readExt("blocks/app-embed.liquid"), { ...globals, block }, { globals });
}

/** The card heart app block (blocks/card-heart.liquid) as Shopify renders it inside a product card: `closest.product` is the card's product. */
export function cardHeartRenderer(o: EmbedOptions & { shopUrl: string }): (p: FixtureProduct) => string {
  const lang = o.lang ?? "en";
  const liquid = extensionLiquid(lang, o.assetBase);
  const template = liquid.parse(readExt("blocks/card-heart.liquid"));
  const globals = shopGlobals({ ...o, lang });
  return (p) => {
    const variant = { id: p.variantId, price: p.price, featured_image: null };
    const product = { id: p.id, title: p.title, url: `/products/${p.handle}`, featured_image: imageOf(p), selected_or_first_available_variant: variant };
    const block = { id: `card-heart-${p.id}`, settings: { position: "auto", ...o.settings }, shopify_attributes: "" };
    return liquid.renderSync(template, { ...globals, block, closest: { product } }, { globals }) as string;
  };
}

export const productSvg = (handle: string) => {
  const p = ALL_PRODUCTS.find((q) => q.handle === handle);
  return p ? svg(p) : null;
};

const svg = (p: FixtureProduct) => {
  const hue = (p.id * 47) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><rect width="600" height="600" fill="hsl(${hue},35%,85%)"/><circle cx="300" cy="300" r="150" fill="hsl(${hue},40%,60%)"/></svg>`;
};

export interface ThemeShop {
  theme: ThemeName;
  origin: (host?: string) => string;
  /** The stand-in for Shopify's CDN: serves the extension's assets/ (and nothing else) under /cdn/extension-assets/. */
  cdnOrigin: string;
  /** The app embed's markup (null: the store without the app). */
  setEmbed: (embed: string | null) => void;
  /** Horizon: the card heart app block in every product card (renderCardHeart's output per product), or null for none. */
  setCardBlock: (block: ((p: FixtureProduct) => string) | null) => void;
  /** The theme's badge position setting (Dawn: "bottom left", "top right"…; Horizon: "top-right", "top-left"…), null for the theme's default. */
  setBadgePosition: (position: string | null) => void;
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

const THEMES = path.join(root, "tests/support/themes");
const contentType = (file: string) => (file.endsWith(".css") ? "text/css" : file.endsWith(".js") ? "text/javascript" : "text/plain");

/** The fixture storefront on its own port (any host name reaching it serves the same shop), and its CDN on another. */
export async function startThemeShop(options: { theme?: ThemeName } = {}): Promise<ThemeShop> {
  const theme = options.theme ?? "dawn";
  let embed: string | null = null;
  let cardBlock: ((p: FixtureProduct) => string) | undefined;
  let badgePosition: string | undefined;
  const cartAdds: unknown[] = [];
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const send = sender(req, res);
    const html = (body: string) => send(200, "text/html; charset=utf-8", body);
    const opts = () => ({ embed: embed ?? "", cardBlock, badgePosition });
    const listing = {
      sort: url.searchParams.get("sort_by") ?? undefined,
      available: url.searchParams.get("filter.v.availability") === "1",
      page: Number(url.searchParams.get("page")) || 1,
      perPage: Number(url.searchParams.get("per_page")) || undefined,
    };
    if (url.pathname === "/collections/all") {
      // The Section Rendering API: the section alone, in its shopify-section wrapper.
      if (url.searchParams.get("section_id")) {
        return html(theme === "horizon" ? horizonCollectionSection(listing, opts()) : dawnCollectionSection(listing, badgePosition));
      }
      return html(themePage(theme, "collection", opts(), listing));
    }
    if (url.pathname === "/") return html(themePage(theme, "home", opts()));
    if (url.pathname === "/search") return html(themePage(theme, "search", opts()));
    const productJs = /^\/products\/([\w-]+)\.js$/.exec(url.pathname);
    if (productJs) {
      const p = ALL_PRODUCTS.find((q) => q.handle === productJs[1]);
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
          featured_image: `//${IMAGE_HOST}${imageOf(p)}`,
          variants: [{ id: p.variantId, title: "Default Title", price: p.price, available: p.available }],
        }),
      );
    }
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    if (url.pathname.startsWith("/products/")) return html(themePage(theme, "product", opts()));
    const img = /^\/cdn\/img\/([\w-]+)\.svg$/.exec(url.pathname);
    if (img) {
      const p = ALL_PRODUCTS.find((q) => q.handle === img[1]);
      return p ? send(200, "image/svg+xml", svg(p)) : send(404, "text/plain", "");
    }
    // The theme's own assets (tests/support/themes/<theme>/).
    const asset = /^\/cdn\/theme\/(dawn|horizon)\/([\w.-]+)$/.exec(url.pathname);
    if (asset) {
      try {
        return send(200, contentType(asset[2]!), readFileSync(path.join(THEMES, asset[1]!, asset[2]!), "utf8"));
      } catch {
        return send(404, "text/plain", "");
      }
    }
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
    if (url.pathname === "/cart") return html("<!doctype html><html lang='en'><title>Cart – Fixture Shop</title><h1>Your cart</h1></html>");
    send(404, "text/html; charset=utf-8", "<!doctype html><title>Not found</title><h1>Not found</h1>");
  });
  const cdn = createServer(cdnHandler);
  const [port, cdnPort] = await Promise.all([listen(server), listen(cdn)]);
  const close = (srv: Server) => new Promise<void>((resolve) => srv.close(() => resolve()));
  return {
    theme,
    origin: (host = "theme.shop.test") => `http://${host}:${port}`,
    cdnOrigin: `http://shopify-cdn.shop.test:${cdnPort}`,
    setEmbed: (e) => void (embed = e),
    setCardBlock: (b) => void (cardBlock = b ?? undefined),
    setBadgePosition: (b) => void (badgePosition = b ?? undefined),
    cartAdds,
    requests,
    stop: async () => void (await Promise.all([close(server), close(cdn)])),
  };
}
