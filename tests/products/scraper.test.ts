// The scraper through `POST /api/v1/hosted/scrape-preview` on a real server
// that may reach one local shop server (FETCH_TEST_ALLOW_HOSTS), plus unit
// checks of price parsing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { freePort } from "../support/server.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";

let shop: http.Server;
let S: string; // the shop's origin
let unreachable: string; // allowed host:port with nothing listening
let server: InProcessServer;
let api: Api;

const page = (head: string, body = "") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const jsonLdPage = page(`
  <title>Fallback title | Shop</title>
  <meta property="og:title" content="OG title that JSON-LD beats">
  <meta property="og:image" content="https://cdn.example.com/og.jpg">
  <script type="application/ld+json">
  {"@context":"https://schema.org","@graph":[
    {"@type":"WebSite","name":"Example Shop"},
    {"@type":"BreadcrumbList","itemListElement":[]},
    {"@type":["Product"],"name":"Ceramic Mug &amp; Saucer","description":"<p>Hand-made mug.</p>",
     "image":[{"@type":"ImageObject","url":"/img/mug.jpg"}],
     "brand":{"@type":"Brand","name":"Potter & Co"},
     "offers":[{"@type":"Offer","price":"19.99","priceCurrency":"eur","availability":"https://schema.org/InStock"}]}
  ]}
  </script>`);

const aggregatePage = page(`
  <script type="application/ld+json">{"@type":"Product","name":"Camera","image":"https://cdn.example.com/cam.png",
    "offers":{"@type":"AggregateOffer","lowPrice":1299.5,"highPrice":1500,"priceCurrency":"USD"}}</script>`);

const yenPage = page(`
  <script type="application/ld+json">{"@type":"Product","name":"Tea bowl","offers":{"@type":"Offer","price":"1,500","priceCurrency":"JPY"}}</script>`);

const ogPage = page(`
  <title>Ignored | Shop</title>
  <meta property="og:type" content="product">
  <meta property="og:title" content="Linen Shirt">
  <meta property="og:description" content="Breathable linen.">
  <meta property="og:image" content="/images/shirt.webp">
  <meta property="product:price:amount" content="24.50">
  <meta property="product:price:currency" content="usd">
  <meta property="product:brand" content="Flax">`);

const titleOnlyPage = page(`<title>Just a blog post</title><meta name="description" content="About mugs.">`);
const nothingPage = page("", "<p>hello</p>");

// Shopify: the .js JSON carries the product (money × 100), the page the currency.
const shopifyJs = {
  id: 7001,
  title: "Cool Mug",
  handle: "cool-mug",
  description: "<p>A <strong>cool</strong> mug.</p>",
  vendor: "Mug Makers",
  type: "Drinkware",
  tags: ["kitchen", "gift"],
  price: 2500,
  compare_at_price: 3000,
  featured_image: "//cdn.shopify.example/files/main.jpg",
  images: ["//cdn.shopify.example/files/main.jpg", "//cdn.shopify.example/files/alt.jpg"],
  variants: [
    { id: 111, title: "Small", price: 2500, compare_at_price: 3000, available: false, featured_image: null },
    { id: 222, title: "Large", price: 2700, compare_at_price: null, available: true, featured_image: { src: "//cdn.shopify.example/files/large.jpg" } },
  ],
};
const shopifyHtml = page(`
  <title>Cool Mug – Mug Makers</title>
  <meta property="og:type" content="product">
  <meta property="og:title" content="Cool Mug">
  <meta property="og:price:amount" content="25,00">
  <meta property="og:price:currency" content="CAD">
  <script>window.Shopify = window.Shopify || {}; Shopify.currency = {"active":"CAD","rate":"1.0"};</script>`);

const shopifyYenJs = { ...shopifyJs, title: "Yen Mug", variants: [{ id: 9, price: 150000, available: true }] };
const shopifyYenHtml = page(`<script>Shopify.currency = {"active":"JPY","rate":"1.0"};</script>`);

// A /products/ path on a shop whose .js does not exist: the page is the fallback.
const notShopifyHtml = page(`<script type="application/ld+json">{"@type":"Product","name":"Plain Lamp","offers":{"price":"45","priceCurrency":"GBP"}}</script>`);

const routes: Record<string, { status?: number; type: string; body: string }> = {
  "/jsonld": { type: "text/html; charset=utf-8", body: jsonLdPage },
  "/aggregate": { type: "text/html", body: aggregatePage },
  "/yen": { type: "text/html", body: yenPage },
  "/og": { type: "text/html", body: ogPage },
  "/title-only": { type: "text/html", body: titleOnlyPage },
  "/nothing": { type: "text/html", body: nothingPage },
  "/broken": { status: 500, type: "text/html", body: "oops" },
  "/image.png": { type: "image/png", body: "\x89PNG" },
  "/products/cool-mug": { type: "text/html", body: shopifyHtml },
  "/products/cool-mug.js": { type: "application/javascript; charset=utf-8", body: JSON.stringify(shopifyJs) },
  "/en-us/products/cool-mug": { type: "text/html", body: shopifyHtml },
  "/en-us/products/cool-mug.js": { type: "application/json", body: JSON.stringify({ ...shopifyJs, title: "Cool Mug (US)" }) },
  "/products/yen-mug": { type: "text/html", body: shopifyYenHtml },
  "/products/yen-mug.js": { type: "application/javascript", body: JSON.stringify(shopifyYenJs) },
  "/products/plain-lamp": { type: "text/html", body: notShopifyHtml },
};
const requested: string[] = [];

beforeAll(async () => {
  shop = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requested.push(`${url.pathname} ${req.headers["accept-language"] ?? ""}`);
    if (url.pathname === "/redirect-to-private") {
      return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    }
    const route = routes[url.pathname];
    if (!route) return res.writeHead(404, { "content-type": "text/html" }).end("not found");
    res.writeHead(route.status ?? 200, { "content-type": route.type }).end(route.body);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", () => resolve()));
  const port = (shop.address() as AddressInfo).port;
  S = `http://127.0.0.1:${port}`;
  const deadPort = await freePort();
  unreachable = `http://127.0.0.1:${deadPort}`;
  server = await startInProcess({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${port},127.0.0.1:${deadPort}` });
  api = await apiFor(server);
});

afterAll(async () => {
  await server?.stop();
  shop?.closeAllConnections();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

async function scrape(url: string, extra: Record<string, unknown> = {}) {
  const res = await api.post("/hosted/scrape-preview", { body: { url, ...extra }, noApiKey: true });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("POST /hosted/scrape-preview", () => {
  it("reads a JSON-LD Product in an @graph, with offers as an array", async () => {
    const body = await scrape(`${S}/jsonld?utm_source=news`);
    expect(body.success).toBe(true);
    expect(body.product).toMatchObject({
      url: `${S}/jsonld?utm_source=news`,
      canonical_url: `${S}/jsonld`,
      title: "Ceramic Mug & Saucer",
      description: "Hand-made mug.",
      image_url: `${S}/img/mug.jpg`,
      price_minor: 1999,
      currency: "EUR",
      brand: "Potter & Co",
      source: "json-ld",
      tags: [],
      variant_id: null,
    });
  });

  it("reads an AggregateOffer's lowPrice", async () => {
    const { product } = await scrape(`${S}/aggregate`);
    expect(product).toMatchObject({ title: "Camera", price_minor: 129950, currency: "USD", image_url: "https://cdn.example.com/cam.png" });
  });

  it("uses the currency's exponent (JPY has no minor unit)", async () => {
    const { product } = await scrape(`${S}/yen`);
    expect(product).toMatchObject({ title: "Tea bowl", price_minor: 1500, currency: "JPY" });
  });

  it("reads an Open Graph-only product page", async () => {
    const body = await scrape(`${S}/og`);
    expect(body.success).toBe(true);
    expect(body.product).toMatchObject({
      title: "Linen Shirt",
      description: "Breathable linen.",
      image_url: `${S}/images/shirt.webp`,
      price_minor: 2450,
      currency: "USD",
      brand: "Flax",
      source: "open-graph",
    });
  });

  it("reads a Shopify product from /products/<handle>.js, with the shop currency from the page", async () => {
    const body = await scrape(`${S}/products/cool-mug`);
    expect(body.success).toBe(true);
    expect(body.product).toMatchObject({
      title: "Cool Mug",
      description: "A cool mug.",
      // No ?variant=: the first available variant, as the storefront shows it.
      variant_id: "222",
      price_minor: 2700,
      compare_at_price_minor: null,
      currency: "CAD",
      image_url: "https://cdn.shopify.example/files/large.jpg",
      brand: "Mug Makers",
      product_type: "Drinkware",
      tags: ["kitchen", "gift"],
      source: "shopify",
    });
  });

  it("uses ?variant= and a locale prefix on Shopify, and passes the market as Accept-Language", async () => {
    const { product } = await scrape(`${S}/en-us/products/cool-mug?variant=111`, { market: "en-US" });
    expect(product).toMatchObject({
      title: "Cool Mug (US)",
      variant_id: "111",
      price_minor: 2500,
      compare_at_price_minor: 3000,
      currency: "CAD",
      image_url: "https://cdn.shopify.example/files/main.jpg",
    });
    expect(requested).toContain("/en-us/products/cool-mug.js en-US,en;q=0.8,*;q=0.5");
  });

  it("converts Shopify's ×100 money to real minor units for JPY", async () => {
    const { product } = await scrape(`${S}/products/yen-mug`);
    expect(product).toMatchObject({ title: "Yen Mug", price_minor: 1500, currency: "JPY" });
  });

  it("falls back to the page when /products/<handle>.js does not exist", async () => {
    const { product } = await scrape(`${S}/products/plain-lamp`);
    expect(product).toMatchObject({ title: "Plain Lamp", price_minor: 4500, currency: "GBP", source: "json-ld" });
  });

  it("a page with only a title is still usable (source meta, no price)", async () => {
    const { success, product } = await scrape(`${S}/title-only`);
    expect(success).toBe(true);
    expect(product).toMatchObject({ title: "Just a blog post", description: "About mugs.", price_minor: null, currency: null, source: "meta" });
  });

  it("a page with nothing usable gives not_a_product_page", async () => {
    expect(await scrape(`${S}/nothing`)).toEqual({ success: false, error: "not_a_product_page", message: expect.any(String) });
  });

  it("a non-HTML answer gives not_a_product_page", async () => {
    expect((await scrape(`${S}/image.png`)).error).toBe("not_a_product_page");
  });

  it("a 500 from the page gives fetch_failed inside a 200", async () => {
    const body = await scrape(`${S}/broken`);
    expect(body).toEqual({ success: false, error: "fetch_failed", message: expect.stringContaining("500") });
  });

  it("a Shopify-shaped URL where both the .js and the page fail gives fallback_scrape_failed", async () => {
    expect(await scrape(`${S}/products/gone`)).toEqual({ success: false, error: "fallback_scrape_failed", message: "The page answered HTTP 404" });
  });

  it("an unreachable host gives network_error", async () => {
    expect((await scrape(`${unreachable}/x`)).error).toBe("network_error");
  });

  it("private addresses and redirects to them give fetch_failed without revealing internals", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/products/mug", `${S}/redirect-to-private`, "http://[::1]/"]) {
      const body = await scrape(url);
      expect(body, url).toEqual({ success: false, error: "fetch_failed", message: "The address is not allowed" });
    }
  });

  it("needs no credentials and rejects a missing or blank url with 400 missing_url", async () => {
    for (const body of [{}, { url: "" }, { url: "   " }, { url: 42 }, undefined]) {
      const res = await api.post("/hosted/scrape-preview", { body, noApiKey: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("missing_url");
    }
  });

  it("rejects a URL that is not http(s) with 400 invalid_url", async () => {
    for (const url of ["ftp://example.com/x", "javascript:alert(1)", "not a url", "/relative"]) {
      const res = await api.post("/hosted/scrape-preview", { body: { url }, noApiKey: true });
      expect(res.status, url).toBe(400);
      expect(res.body).toEqual({ error: "invalid_url", message: expect.any(String) });
    }
  });

  it("answers GET with 404 not_found (no such route)", async () => {
    expect((await api.get("/hosted/scrape-preview")).status).toBe(404);
  });
});

describe("price parsing", () => {
  let mod: typeof import("~/domains/products/scraper.server");
  beforeAll(async () => {
    mod = await import("~/domains/products/scraper.server");
  });

  it.each([
    ["19.99", "EUR", 1999],
    ["1,299.00", "USD", 129900],
    ["1.299,00", "EUR", 129900],
    ["19,99", "EUR", 1999],
    ["€ 1 299,00", "EUR", 129900],
    ["1,299", "USD", 129900],
    ["1.234.567", "EUR", 123456700],
    [0.1 + 0.2, "USD", 30],
    [1500, "JPY", 1500],
    ["12.345", "KWD", 12345],
    ["1 500 Ft", "HUF", 150000],
    ["1500", "HUF", 150000],
    ["¥1,500", "JPY", 1500],
  ] as const)("%j %s → %d minor units", (input, currency, expected) => {
    expect(mod.toMinorUnits(input, currency)).toBe(expected);
  });

  it("rejects what is not a price", () => {
    for (const v of ["", "free", null, undefined, {}, -5, Number.NaN]) expect(mod.toMinorUnits(v, "EUR")).toBeNull();
  });

  it("recognises Shopify product paths", () => {
    expect(mod.shopifyJsonUrl(new URL("https://s.example/products/mug?variant=1"))).toBe("https://s.example/products/mug.js");
    expect(mod.shopifyJsonUrl(new URL("https://s.example/de-de/products/mug/"))).toBe("https://s.example/de-de/products/mug.js");
    expect(mod.shopifyJsonUrl(new URL("https://s.example/collections/all/products/mug"))).toBe("https://s.example/products/mug.js");
    expect(mod.shopifyJsonUrl(new URL("https://s.example/product/mug"))).toBeNull();
    expect(mod.shopifyJsonUrl(new URL("https://s.example/products/mug.js"))).toBeNull();
  });
});
