// Product facts read from a fetched page: Shopify's `/products/{handle}.js`,
// JSON-LD `Product`, Open Graph / product meta tags, plain <title> and
// description. Pure and synchronous, so it runs in the scrape workers
// (page-worker.mjs) off the request thread. Page text is read in linear time:
// html-scan instead of a DOM, no regular expression with overlapping
// quantifiers over page text, bounded depth when walking JSON-LD, and
// bounded input sizes (see the limits below).
import { decodeEntities, htmlText, scanHtml } from "../../lib/html-scan";
import { canonicalUrl } from "./canonical-url";
import { currencyCode, shopifyCentsToMinor, toMinor } from "../../lib/money";

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

/** What a scrape worker is given: the fetched bodies, already decoded to text. */
export interface PageInput {
  /** The URL that was asked for. */
  url: string;
  /** The page's URL after redirects; null when the page was not fetched. */
  finalUrl: string | null;
  html: string | null;
  /** The body of `/products/{handle}.js`, when it was fetched. */
  shopifyJson: string | null;
}

export interface PageOutput {
  /** From the Shopify JSON, when it named a product. */
  shopify: ScrapedProduct | null;
  /** From the HTML, when the Shopify JSON gave nothing. */
  page: ScrapedProduct | null;
  /**
   * Whether the product can be bought, as the source that gave the product
   * says (Shopify JSON `available`, JSON-LD offers' `availability`); null
   * when it says nothing. Not part of ScrapedProduct (the API's shape): the
   * scheduled re-read for alerts reads it.
   */
  available?: boolean | null;
}

const MAX_DESCRIPTION = 5000;
const MAX_TITLE = 500;
/** Markup read for a description or title: the result is cut at 5,000 characters anyway. */
const MAX_FRAGMENT = 64 * 1024;
/** How far JSON-LD is walked: objects nested deeper are not looked at. */
export const JSON_LD_MAX_DEPTH = 12;
/** AggregateOffer nesting followed to find a price. */
const MAX_OFFER_DEPTH = 4;

// ---------------------------------------------------------------------------
// Prices

// Currencies and minor units are ~/lib/money's (one exponent table for the
// whole app); this part only turns a page's way of writing an amount into a
// plain decimal for it.

export const normalizeCurrency = currencyCode;

/**
 * A page's amount as a plain decimal ("1299.00"): 19.99, "19.99", "1,299.00",
 * "1.299,00", "19,99", "€ 1 299,00". A lone dot is always the decimal point
 * (schema.org and Open Graph use dot decimals); a lone comma is decimal only
 * when one or two digits follow it. Numbers pass as they are.
 */
export function plainAmount(value: unknown): string | number | null {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== "string" || value.length > 100) return null;
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
  return s;
}

export function toMinorUnits(value: unknown, currency: string | null): number | null {
  return toMinor(plainAmount(value), currency);
}

// ---------------------------------------------------------------------------
// Small helpers

function text(value: unknown, max = MAX_DESCRIPTION): string | null {
  if (typeof value !== "string") return null;
  // Only the start can survive the cut below; a huge value costs no more than that.
  const cleaned = value.slice(0, MAX_FRAGMENT).replace(/\s+/g, " ").trim();
  if (!cleaned) return null;
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned;
}

/** Text content of an HTML fragment: Shopify descriptions carry markup, and many themes entity-escape JSON-LD strings. */
function htmlToText(value: unknown, max = MAX_DESCRIPTION): string | null {
  if (typeof value !== "string") return null;
  if (!/[<&]/.test(value)) return text(value, max);
  return text(htmlText(value.slice(0, MAX_FRAGMENT)), max);
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



/** Shopify money in /products/x.js is a number of cents (amount × 100, whatever the currency's exponent), sometimes a decimal string. */
function shopifyMinor(value: unknown, currency: string | null): number | null {
  if (typeof value === "string") return toMinorUnits(value, currency);
  return shopifyCentsToMinor(value, currency);
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

/** The chosen variant's `available` in /products/x.js (else the product's). */
function shopifyAvailability(data: unknown, variantId: string | null): boolean | null {
  if (!isObject(data)) return null;
  const variant = asArray(data.variants).filter(isObject).find((v) => variantId !== null && String(v.id) === variantId);
  const said = variant?.available ?? data.available;
  return typeof said === "boolean" ? said : null;
}

/** The shop's currency as the storefront HTML states it (the .js JSON has none). */
function shopifyCurrency(page: PageScan | null, html: string | null): string | null {
  if (page) {
    const signals = pageSignals(page, "https://invalid.invalid/");
    const fromPage = jsonLdProduct(page, "https://invalid.invalid/", null)?.currency ?? signals.currency;
    if (fromPage) return fromPage;
  }
  return html === null ? null : shopifyActiveCurrency(html);
}

const SHOPIFY_CURRENCY = "Shopify.currency";

/**
 * `"active"` of the storefront's `Shopify.currency = {"active":"CAD",…};`.
 * Read with substring searches and JSON.parse of the small object, and only
 * the first few occurrences: a regular expression here was quadratic on a page
 * repeating the pattern.
 */
function shopifyActiveCurrency(html: string): string | null {
  let at = html.indexOf(SHOPIFY_CURRENCY);
  for (let tries = 0; at >= 0 && tries < 3; tries++) {
    let i = at + SHOPIFY_CURRENCY.length;
    while (/\s/.test(html.charAt(i))) i++;
    if (html.charAt(i) === "=") {
      i++;
      while (/\s/.test(html.charAt(i))) i++;
      const end = html.charAt(i) === "{" ? html.indexOf("}", i) : -1;
      if (end > i && end - i < 1000) {
        try {
          const value = JSON.parse(html.slice(i, end + 1)) as unknown;
          if (isObject(value)) return normalizeCurrency(value.active);
        } catch {
          // Not JSON: look at the next occurrence.
        }
      }
    }
    at = html.indexOf(SHOPIFY_CURRENCY, at + SHOPIFY_CURRENCY.length);
  }
  return null;
}

// ---------------------------------------------------------------------------
// HTML: JSON-LD, Open Graph, meta

/** What a page says about itself: meta tags, JSON-LD blocks, title. */
interface PageScan {
  /** Meta `content` by lower-case property, name or itemprop; the first occurrence wins, as with og:image lists. */
  meta: Map<string, string>;
  /** The text of every `<script type="application/ld+json">`. */
  jsonLd: string[];
  /** The first <title> in <head>, else the first anywhere (an SVG's title sits in the body). */
  title: string | null;
}

function scanPage(html: string): PageScan {
  const page: PageScan = { meta: new Map(), jsonLd: [], title: null };
  let inHead = false;
  let anyTitle: string | null = null;
  let headTitle: string | null = null;
  let scriptType = "";
  scanHtml(html, {
    open(name, attrs) {
      if (name === "head") inHead = true;
      else if (name === "body") inHead = false;
      else if (name === "script") scriptType = (attrs.get("type") ?? "").trim().toLowerCase();
      else if (name === "meta") {
        const key = (attrs.get("property") ?? attrs.get("name") ?? attrs.get("itemprop") ?? "").trim().toLowerCase();
        const content = attrs.get("content");
        if (key && content && !page.meta.has(key)) page.meta.set(key, content);
      }
    },
    close(name) {
      if (name === "head") inHead = false;
    },
    rawText(name, content) {
      if (name === "script" && scriptType === "application/ld+json") page.jsonLd.push(content);
      if (name === "title") {
        const title = decodeEntities(content.slice(0, MAX_FRAGMENT));
        anyTitle ??= title;
        if (inHead) headTitle ??= title;
      }
    },
  });
  page.title = headTitle ?? anyTitle;
  return page;
}

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
  if (depth > JSON_LD_MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const v of value) yield* walk(v, depth + 1);
  } else if (isObject(value)) {
    yield value;
    for (const v of Object.values(value)) if (typeof v === "object") yield* walk(v, depth + 1);
  }
}

function parseJsonLd(raw: string): unknown {
  // A block wrapped in an HTML comment, for very old browsers.
  let cleaned = raw.trim();
  if (cleaned.startsWith("<!--")) cleaned = cleaned.slice(4);
  if (cleaned.endsWith("-->")) cleaned = cleaned.slice(0, -3);
  cleaned = cleaned.trim();
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

// schema.org ItemAvailability values under which the product cannot be bought from its page.
const UNAVAILABLE = new Set(["outofstock", "soldout", "discontinued", "instoreonly"]);

/** Any offer (nested AggregateOffers MAX_OFFER_DEPTH deep) available: true; some stated, none available: false; none stated: null. */
function offerAvailability(offers: unknown, depth = 0): boolean | null {
  if (depth > MAX_OFFER_DEPTH) return null;
  let stated: boolean | null = null;
  for (const offer of asArray(offers).filter(isObject)) {
    const own = typeof offer.availability === "string" ? offer.availability.replace(/^https?:\/\/schema\.org\//i, "").trim().toLowerCase() : "";
    const said = own ? !UNAVAILABLE.has(own) : offerAvailability(offer.offers, depth + 1);
    if (said === true) return true;
    if (said === false) stated = false;
  }
  return stated;
}

/** The first offer with a price; nested AggregateOffers are followed MAX_OFFER_DEPTH levels deep. */
function offerData(offers: unknown, depth = 0): OfferData | null {
  if (depth > MAX_OFFER_DEPTH) return null;
  for (const offer of asArray(offers).filter(isObject)) {
    const spec = asArray(offer.priceSpecification).filter(isObject);
    const price = first(offer.price, offer.lowPrice, spec[0]?.price);
    const currency = normalizeCurrency(first(offer.priceCurrency, spec[0]?.priceCurrency));
    if (price !== null) {
      const listPrice = spec.find((s) => typeof s.priceType === "string" && /ListPrice|StrikethroughPrice/i.test(s.priceType));
      return { price, currency, compareAt: listPrice?.price ?? offer.highPrice ?? null };
    }
    // AggregateOffer without lowPrice: its nested offers.
    const nested = offerData(offer.offers, depth + 1);
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

// One parse of a page's JSON-LD serves its product and its availability.
const productNodes = new WeakMap<PageScan, Record<string, unknown> | null>();

/** The first JSON-LD Product node. */
function jsonLdProductNode(page: PageScan): Record<string, unknown> | null {
  if (productNodes.has(page)) return productNodes.get(page)!;
  let found: Record<string, unknown> | null = null;
  search: for (const block of page.jsonLd) {
    for (const node of walk(parseJsonLd(block))) {
      if (hasType(node, ["Product", "ProductGroup", "IndividualProduct", "ProductModel"])) {
        found = node;
        break search;
      }
    }
  }
  productNodes.set(page, found);
  return found;
}

/** Whether the page's JSON-LD Product (or any variant of a ProductGroup) can be bought; null when its offers do not say. */
function jsonLdAvailability(page: PageScan): boolean | null {
  const node = jsonLdProductNode(page);
  if (!node) return null;
  const own = offerAvailability(node.offers);
  if (own === true) return true;
  const variants = asArray(node.hasVariant).filter(isObject).map((v) => offerAvailability(v.offers));
  if (variants.includes(true)) return true;
  return own === false || variants.includes(false) ? false : null;
}

/** The first JSON-LD Product; `fallbackCurrency` (from meta tags) when its offer names none. */
function jsonLdProduct(page: PageScan, base: string, fallbackCurrency: string | null): Partial<ScrapedProduct> | null {
  const node = jsonLdProductNode(page);
  if (!node) return null;
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

interface PageSignals {
  ogProduct: boolean;
  og: Partial<ScrapedProduct>;
  meta: Partial<ScrapedProduct>;
  currency: string | null;
}

/** Open Graph, product meta tags, microdata price tags, <title> and meta description. */
function pageSignals(page: PageScan, base: string): PageSignals {
  const tags = page.meta;
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
    title: text(page.title, MAX_TITLE) ?? text(get("twitter:title"), MAX_TITLE),
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

function productFromHtml(pageUrl: string, finalUrl: string, page: PageScan): ScrapedProduct | null {
  const signals = pageSignals(page, finalUrl);
  const jsonLd = jsonLdProduct(page, finalUrl, signals.currency);
  // The source names the best layer the page has.
  const source: ScrapedProduct["source"] = jsonLd ? "json-ld" : signals.ogProduct || signals.og.title ? "open-graph" : "meta";
  const product = merge(emptyProduct(pageUrl, source), jsonLd, signals.og, signals.meta);
  return product.title ? product : null;
}

/** Reads the fetched bodies; the Shopify JSON wins when it names a product titled, else the HTML. */
export function extractProduct(input: PageInput): PageOutput {
  const pageUrl = new URL(input.url);
  let scanned: PageScan | null | undefined;
  const page = () => (scanned ??= input.html === null ? null : scanPage(input.html));
  if (input.shopifyJson !== null) {
    let data: unknown = null;
    try {
      data = JSON.parse(input.shopifyJson);
    } catch {
      data = null;
    }
    const shopify = data === null ? null : shopifyProduct(data, pageUrl, shopifyCurrency(page(), input.html));
    if (shopify?.title) return { shopify, page: null, available: shopifyAvailability(data, shopify.variant_id) };
  }
  const scan = page();
  const product = scan && input.finalUrl ? productFromHtml(input.url, input.finalUrl, scan) : null;
  return { shopify: null, page: product, available: product && scan ? jsonLdAvailability(scan) : null };
}
