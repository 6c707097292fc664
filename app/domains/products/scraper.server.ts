// Product data read from the product page itself, for callers that send only
// a URL. Sources, best first: Shopify's `/products/{handle}.js`, JSON-LD
// `Product`, Open Graph / product meta tags, plain <title> and description.
// Every fetch goes through the guarded fetcher (GUIDE section 8). Failures
// the caller can act on are result codes (SPEC 7.5), not HTTP errors.
import { parse, type HTMLElement } from "node-html-parser";
import { ApiError } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { FetchError, guardedFetch, type GuardedResponse } from "~/lib/net/guarded-fetch.server";
import { canonicalUrl } from "./canonical-url";

export interface ScrapedProduct {
  url: string;
  canonical_url: string | null;
  title: string | null;
  description: string | null;
  /** Absolute http(s) URL of the page's product image (not yet copied). */
  image_url: string | null;
  price_minor: number | null;
  currency: string | null;
  compare_at_price_minor: number | null;
  brand: string | null;
  product_type: string | null;
  tags: string[];
  variant_id: string | null;
  source: "shopify" | "json-ld" | "open-graph" | "meta";
}

export type ScrapeErrorCode =
  | "not_a_product_page"
  | "network_error"
  | "fetch_failed"
  | "external_error"
  | "fallback_scrape_failed"
  | "scraper_not_configured";

export type ScrapeResult =
  | { success: true; product: ScrapedProduct }
  | { success: false; error: ScrapeErrorCode; message: string };

export interface ScrapeOptions {
  /** Locale like `de-DE`; sent as Accept-Language so shops answer in it. */
  market?: string;
}

const HTML_LIMITS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 8000 };
const SHOPIFY_JSON_LIMITS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 8000 };
const MAX_DESCRIPTION = 5000;
const MAX_TITLE = 500;

class ScrapeFailure extends Error {
  constructor(
    readonly code: ScrapeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------
// Prices

// ISO 4217 minor-unit exponents that are not 2.
const ZERO_DECIMAL = new Set(["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"]);
const THREE_DECIMAL = new Set(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]);

export function currencyExponent(currency: string | null): number {
  if (currency && ZERO_DECIMAL.has(currency)) return 0;
  if (currency && THREE_DECIMAL.has(currency)) return 3;
  return 2;
}

export function normalizeCurrency(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

/**
 * A decimal amount as a number: 19.99, "19.99", "1,299.00", "1.299,00",
 * "19,99", "€ 1 299,00". A lone dot is always the decimal point (schema.org
 * and Open Graph use dot decimals); a lone comma is decimal only when one or
 * two digits follow it.
 */
export function parseAmount(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  let s = value.replace(/[^\d.,]/g, "");
  if (!/\d/.test(s)) return null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    // Both present: whichever comes last is the decimal separator.
    s = lastDot > lastComma ? s.replace(/,/g, "") : s.replace(/\./g, "").replace(",", ".");
  } else if (lastComma >= 0) {
    const commas = s.split(",").length - 1;
    s = commas === 1 && /,\d{1,2}$/.test(s) ? s.replace(",", ".") : s.replace(/,/g, "");
  } else if (s.split(".").length > 2) {
    s = s.replace(/\./g, "");
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

export function toMinorUnits(value: unknown, currency: string | null): number | null {
  const amount = parseAmount(value);
  if (amount === null) return null;
  return Math.round(amount * 10 ** currencyExponent(currency));
}

// ---------------------------------------------------------------------------
// Small helpers

function text(value: unknown, max = MAX_DESCRIPTION): string | null {
  if (typeof value !== "string") return null;
  const cleaned = value.replace(/\s+/g, " ").trim();
  if (!cleaned) return null;
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned;
}

/** Text content of an HTML fragment: Shopify descriptions carry markup, and many themes entity-escape JSON-LD strings. */
function htmlToText(value: unknown, max = MAX_DESCRIPTION): string | null {
  if (typeof value !== "string") return null;
  if (!/[<&]/.test(value)) return text(value, max);
  // Block boundaries become spaces so "<p>a</p><p>b</p>" does not read "ab".
  return text(parse(value.replace(/<(br|\/p|\/div|\/li|\/h[1-6])\b[^>]*>/gi, " $&")).textContent, max);
}

/** Absolute http(s) URL, resolving relative forms against the page. */
function absoluteUrl(value: unknown, base: string): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  try {
    // Protocol-relative CDN links (Shopify's //cdn.shopify.com/…) are taken as https.
    const trimmed = value.trim();
    const url = new URL(trimmed.startsWith("//") ? `https:${trimmed}` : trimmed, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function first<T>(...values: Array<T | null | undefined>): T | null {
  for (const v of values) if (v !== null && v !== undefined) return v;
  return null;
}

function acceptLanguage(market?: string): Record<string, string> {
  if (!market || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(market)) return {};
  const tag = market.replace(/_/g, "-");
  const lang = tag.split("-")[0];
  return { "accept-language": lang === tag ? `${tag},*;q=0.5` : `${tag},${lang};q=0.8,*;q=0.5` };
}

function failureFromFetch(err: unknown): ScrapeFailure {
  if (!(err instanceof FetchError)) throw err;
  switch (err.code) {
    case "timeout":
      return new ScrapeFailure("network_error", "The page did not answer in time");
    case "network_error":
      return new ScrapeFailure("network_error", "The page could not be reached");
    case "http_error":
      return new ScrapeFailure("fetch_failed", `The page answered HTTP ${err.status}`);
    case "blocked_address":
      return new ScrapeFailure("fetch_failed", "The address is not allowed");
    case "invalid_url":
      return new ScrapeFailure("fetch_failed", "Only public http and https URLs can be scraped");
    case "too_many_redirects":
      return new ScrapeFailure("fetch_failed", "The page redirected too often");
    case "too_large":
      return new ScrapeFailure("fetch_failed", "The page is too large");
    case "bad_content_type":
      return new ScrapeFailure("not_a_product_page", "The URL is not an HTML page");
  }
}

function decodeHtml(res: GuardedResponse): string {
  // Charset from the header, else from a <meta charset> near the top, else UTF-8.
  const header = res.headers.get("content-type") ?? "";
  const head = res.body.subarray(0, 2048).toString("latin1");
  const label =
    header.match(/charset=["']?([\w-]+)/i)?.[1] ?? head.match(/<meta[^>]+charset=["']?([\w-]+)/i)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(label).decode(res.body);
  } catch {
    return new TextDecoder("utf-8").decode(res.body);
  }
}

// ---------------------------------------------------------------------------
// Shopify

// /products/<handle>, optionally under a locale (/en-us, /de) or a collection.
const SHOPIFY_PATH = /^((?:\/[a-z]{2}(?:-[a-z]{2,4})?)?)(?:\/collections\/[^/]+)?\/products\/([^/.]+)\/?$/i;

export function shopifyJsonUrl(pageUrl: URL): string | null {
  const match = pageUrl.pathname.match(SHOPIFY_PATH);
  if (!match) return null;
  return `${pageUrl.origin}${match[1]}/products/${match[2]}.js`;
}

/** Shopify money in /products/x.js is always amount × 100, whatever the currency's exponent. */
function shopifyMinor(value: unknown, currency: string | null): number | null {
  if (typeof value === "string") return toMinorUnits(value, currency);
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return Math.round((value / 100) * 10 ** currencyExponent(currency));
}

function shopifyProduct(data: unknown, pageUrl: URL, currency: string | null): ScrapedProduct | null {
  if (!isObject(data) || typeof data.title !== "string" || !Array.isArray(data.variants)) return null;
  const variants = data.variants.filter(isObject);
  const wanted = pageUrl.searchParams.get("variant");
  const variant =
    variants.find((v) => wanted !== null && String(v.id) === wanted) ??
    variants.find((v) => v.available === true) ??
    variants[0] ??
    null;
  const price = shopifyMinor(variant?.price ?? data.price, currency);
  const compareAt = shopifyMinor(variant ? variant.compare_at_price : data.compare_at_price, currency);
  const variantImage = isObject(variant?.featured_image) ? variant.featured_image.src : null;
  const image = first(variantImage, data.featured_image, asArray(data.images)[0]);
  const tags = Array.isArray(data.tags)
    ? data.tags.filter((t): t is string => typeof t === "string")
    : typeof data.tags === "string"
      ? data.tags.split(",").map((t) => t.trim()).filter(Boolean)
      : [];
  return {
    ...emptyProduct(pageUrl.toString(), "shopify"),
    title: htmlToText(data.title, MAX_TITLE),
    description: htmlToText(data.description),
    image_url: absoluteUrl(image, pageUrl.toString()),
    price_minor: price,
    currency,
    compare_at_price_minor: compareAt !== null && price !== null && compareAt > price ? compareAt : null,
    brand: text(data.vendor, MAX_TITLE),
    product_type: text(data.type, MAX_TITLE),
    tags,
    variant_id: variant?.id !== undefined && variant.id !== null ? String(variant.id) : null,
  };
}

/** The shop's currency as the storefront HTML states it (the .js JSON has none). */
function shopifyCurrency(root: HTMLElement | null, html: string | null): string | null {
  if (root) {
    const signals = pageSignals(root, "https://invalid.invalid/");
    const fromPage = jsonLdProduct(root, "https://invalid.invalid/", null)?.currency ?? signals.currency;
    if (fromPage) return fromPage;
  }
  const active = html?.match(/Shopify\.currency\s*=\s*\{[^}]*"active"\s*:\s*"([A-Za-z]{3})"/)?.[1];
  return normalizeCurrency(active);
}

// ---------------------------------------------------------------------------
// HTML: JSON-LD, Open Graph, meta

function emptyProduct(url: string, source: ScrapedProduct["source"]): ScrapedProduct {
  return {
    url,
    canonical_url: canonicalUrl(url),
    title: null,
    description: null,
    image_url: null,
    price_minor: null,
    currency: null,
    compare_at_price_minor: null,
    brand: null,
    product_type: null,
    tags: [],
    variant_id: null,
    source,
  };
}

function hasType(node: Record<string, unknown>, names: string[]): boolean {
  return asArray(node["@type"]).some(
    (t) => typeof t === "string" && names.includes(t.replace(/^https?:\/\/schema\.org\//i, "")),
  );
}

/** Every object in a JSON-LD document, depth-first (covers @graph, arrays and nesting). */
function* walk(value: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    for (const v of value) yield* walk(v, depth + 1);
  } else if (isObject(value)) {
    yield value;
    for (const v of Object.values(value)) if (typeof v === "object") yield* walk(v, depth + 1);
  }
}

function parseJsonLd(raw: string): unknown {
  const cleaned = raw.replace(/^\s*<!--/, "").replace(/-->\s*$/, "").trim();
  try {
    return JSON.parse(cleaned);
  } catch {
    // Raw newlines and tabs inside strings are a common authoring error.
    try {
      return JSON.parse(cleaned.replace(/[\r\n\t]+/g, " "));
    } catch {
      return undefined;
    }
  }
}

interface OfferData {
  price: unknown;
  currency: string | null;
  compareAt: unknown;
}

function offerData(offers: unknown): OfferData | null {
  for (const offer of asArray(offers).filter(isObject)) {
    const spec = asArray(offer.priceSpecification).filter(isObject);
    const price = first(offer.price, offer.lowPrice, spec[0]?.price);
    const currency = normalizeCurrency(first(offer.priceCurrency, spec[0]?.priceCurrency));
    if (price !== null) {
      const listPrice = spec.find((s) => typeof s.priceType === "string" && /ListPrice|StrikethroughPrice/i.test(s.priceType));
      return { price, currency, compareAt: listPrice?.price ?? offer.highPrice ?? null };
    }
    // AggregateOffer without lowPrice: its nested offers.
    const nested = offerData(offer.offers);
    if (nested) return { ...nested, currency: nested.currency ?? currency };
  }
  return null;
}

function imageOf(value: unknown, base: string): string | null {
  for (const item of asArray(value)) {
    const candidate = isObject(item) ? first(item.url, item.contentUrl) : item;
    const url = absoluteUrl(candidate, base);
    if (url) return url;
  }
  return null;
}

function nameOf(value: unknown): string | null {
  const v = asArray(value)[0];
  return htmlToText(isObject(v) ? v.name : v, MAX_TITLE);
}

/** The first JSON-LD Product; `fallbackCurrency` (from meta tags) when its offer names none. */
function jsonLdProduct(root: HTMLElement, base: string, fallbackCurrency: string | null): Partial<ScrapedProduct> | null {
  for (const script of root.querySelectorAll("script")) {
    if ((script.getAttribute("type") ?? "").trim().toLowerCase() !== "application/ld+json") continue;
    for (const node of walk(parseJsonLd(script.rawText))) {
      if (!hasType(node, ["Product", "ProductGroup", "IndividualProduct", "ProductModel"])) continue;
      // A ProductGroup's offers usually live on its variants.
      const variants = asArray(node.hasVariant).filter(isObject);
      const offer = offerData(node.offers) ?? variants.map((v) => offerData(v.offers)).find(Boolean) ?? null;
      const currency = offer?.currency ?? fallbackCurrency;
      const price = offer ? toMinorUnits(offer.price, currency) : null;
      const compareAt = offer ? toMinorUnits(offer.compareAt, currency) : null;
      const keywords = node.keywords;
      return {
        title: htmlToText(node.name, MAX_TITLE),
        description: htmlToText(node.description),
        image_url: imageOf(node.image, base) ?? imageOf(variants[0]?.image, base),
        price_minor: price,
        currency: price !== null ? currency : null,
        compare_at_price_minor: compareAt !== null && price !== null && compareAt > price ? compareAt : null,
        brand: nameOf(node.brand) ?? nameOf(node.manufacturer),
        product_type: text(asArray(node.category)[0], MAX_TITLE),
        tags: (typeof keywords === "string" ? keywords.split(",") : asArray(keywords))
          .filter((k): k is string => typeof k === "string")
          .map((k) => k.trim())
          .filter(Boolean),
      };
    }
  }
  return null;
}

interface PageSignals {
  ogProduct: boolean;
  og: Partial<ScrapedProduct>;
  meta: Partial<ScrapedProduct>;
  currency: string | null;
}

/** Open Graph, product meta tags, microdata price tags, <title> and meta description. */
function pageSignals(root: HTMLElement, base: string): PageSignals {
  const tags = new Map<string, string>();
  for (const meta of root.querySelectorAll("meta")) {
    const key = (meta.getAttribute("property") ?? meta.getAttribute("name") ?? meta.getAttribute("itemprop") ?? "").trim().toLowerCase();
    const content = meta.getAttribute("content");
    // The first occurrence wins, as with og:image lists.
    if (key && content && !tags.has(key)) tags.set(key, content);
  }
  const get = (...keys: string[]) => first(...keys.map((k) => tags.get(k)));
  const currency = normalizeCurrency(get("product:price:currency", "og:price:currency", "pricecurrency"));
  const ogPrice = get("product:price:amount", "og:price:amount");
  const og: Partial<ScrapedProduct> = {
    title: text(get("og:title"), MAX_TITLE),
    description: text(get("og:description")),
    image_url: absoluteUrl(get("og:image:secure_url", "og:image", "og:image:url"), base),
    price_minor: toMinorUnits(ogPrice, currency),
    currency: ogPrice !== null ? currency : null,
    brand: text(get("product:brand", "og:brand"), MAX_TITLE),
  };
  const itempropPrice = get("price");
  const meta: Partial<ScrapedProduct> = {
    title: text((root.querySelector("head title") ?? root.querySelector("title"))?.textContent, MAX_TITLE) ?? text(get("twitter:title"), MAX_TITLE),
    description: text(get("description", "twitter:description")),
    image_url: absoluteUrl(get("twitter:image", "twitter:image:src"), base),
    price_minor: toMinorUnits(itempropPrice, currency),
    currency: itempropPrice !== null ? currency : null,
  };
  const ogType = (get("og:type") ?? "").toLowerCase();
  return { ogProduct: ogType === "product" || ogType === "product.item" || ogPrice !== null, og, meta, currency };
}

const PRICE_KEYS = new Set(["price_minor", "currency", "compare_at_price_minor"]);

/** First non-empty value per field; price, currency and compare-at price come together from one layer. */
function merge(base: ScrapedProduct, ...layers: Array<Partial<ScrapedProduct> | null>): ScrapedProduct {
  const out: Record<string, unknown> = { ...base };
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (PRICE_KEYS.has(key) || value === null || value === undefined) continue;
      const current = out[key];
      if (current === null || (Array.isArray(current) && current.length === 0)) out[key] = value;
    }
  }
  // Mixing one layer's amount with another's currency could misstate the price.
  const priced = layers.find((l) => l?.price_minor !== null && l?.price_minor !== undefined);
  if (priced) {
    out.price_minor = priced.price_minor;
    out.currency = priced.currency ?? null;
    out.compare_at_price_minor = priced.compare_at_price_minor ?? null;
  }
  return out as unknown as ScrapedProduct;
}

function productFromHtml(pageUrl: string, finalUrl: string, root: HTMLElement): ScrapedProduct | null {
  const signals = pageSignals(root, finalUrl);
  const jsonLd = jsonLdProduct(root, finalUrl, signals.currency);
  // The source names the best layer the page has.
  const source: ScrapedProduct["source"] = jsonLd ? "json-ld" : signals.ogProduct || signals.og.title ? "open-graph" : "meta";
  const product = merge(emptyProduct(pageUrl, source), jsonLd, signals.og, signals.meta);
  return product.title ? product : null;
}

// ---------------------------------------------------------------------------
// Fetching

async function fetchHtml(url: string, market?: string): Promise<{ res: GuardedResponse; html: string; root: HTMLElement }> {
  const res = await guardedFetch(url, {
    ...HTML_LIMITS,
    headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1", ...acceptLanguage(market) },
    acceptContentType: /^(text\/html|application\/xhtml\+xml)$/,
  });
  const html = decodeHtml(res);
  return { res, html, root: parse(html, { comment: false }) };
}

async function fetchShopifyJson(jsonUrl: string, market?: string): Promise<unknown> {
  const res = await guardedFetch(jsonUrl, {
    ...SHOPIFY_JSON_LIMITS,
    headers: { accept: "application/json", ...acceptLanguage(market) },
    acceptContentType: /^(application|text)\/(json|javascript|x-javascript)$/,
  });
  try {
    return JSON.parse(res.body.toString("utf8"));
  } catch {
    return null;
  }
}

async function scrape(url: string, opts: ScrapeOptions): Promise<ScrapeResult> {
  let pageUrl: URL;
  try {
    pageUrl = new URL(url);
  } catch {
    return { success: false, error: "fetch_failed", message: "Only public http and https URLs can be scraped" };
  }
  const jsonUrl = shopifyJsonUrl(pageUrl);
  // Both requests at once on Shopify-shaped paths: the JSON has the product,
  // the page has the currency (and is the fallback when the JSON is missing).
  const [shopify, page] = await Promise.allSettled([
    jsonUrl ? fetchShopifyJson(jsonUrl, opts.market) : Promise.resolve(null),
    fetchHtml(url, opts.market),
  ]);
  for (const r of [shopify, page]) {
    if (r.status === "rejected" && !(r.reason instanceof FetchError)) throw r.reason;
  }

  const pageOk = page.status === "fulfilled" ? page.value : null;
  if (shopify.status === "fulfilled" && shopify.value) {
    const currency = shopifyCurrency(pageOk?.root ?? null, pageOk?.html ?? null);
    const product = shopifyProduct(shopify.value, pageUrl, currency);
    if (product?.title) return { success: true, product };
  }

  if (page.status === "rejected") {
    const failure = failureFromFetch(page.reason);
    // Shopify JSON and the page fallback both answered with errors. Refused
    // addresses and unreachable hosts keep their own codes.
    const upstreamError = (page.reason as FetchError).code === "http_error" || (page.reason as FetchError).code === "too_large";
    if (jsonUrl && shopify.status === "rejected" && upstreamError) {
      return { success: false, error: "fallback_scrape_failed", message: failure.message };
    }
    return { success: false, error: failure.code, message: failure.message };
  }
  const product = productFromHtml(url, page.value.res.url, page.value.root);
  if (!product) return { success: false, error: "not_a_product_page", message: "No product data found on the page" };
  return { success: true, product };
}

/** Scrapes a product page; only unexpected failures throw (500 internal_error). */
export async function scrapeProduct(url: string, opts: ScrapeOptions = {}): Promise<ScrapeResult> {
  try {
    return await scrape(url, opts);
  } catch (err) {
    log.error("scrape failed unexpectedly", { url, ...errorFields(err) });
    throw new ApiError(500, "internal_error", "Scraping failed unexpectedly");
  }
}

/** `POST /hosted/scrape-preview` body: `{url, market?}`. */
export async function scrapePreview(body: unknown): Promise<ScrapeResult> {
  const input = isObject(body) ? body : {};
  const url = typeof input.url === "string" ? input.url.trim() : "";
  if (!url) throw new ApiError(400, "missing_url", "url is required");
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new ApiError(400, "invalid_url", "url must be an absolute http or https URL");
  }
  const market = typeof input.market === "string" ? input.market : undefined;
  return scrapeProduct(url, { market });
}
