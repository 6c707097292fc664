// Product data read from the product page itself, for callers that send only
// a URL. Sources, best first: Shopify's `/products/{handle}.js`, JSON-LD
// `Product`, Open Graph / product meta tags, plain <title> and description.
// Every fetch goes through the guarded fetcher (GUIDE section 8). Reading the
// fetched page is CPU work on hostile input, so it runs in a pool of worker
// threads under a time budget (page-extract.server.ts, page-workers.server.ts):
// one page can never stall other requests. Failures the caller can act on are
// result codes (SPEC 7.5), not HTTP errors.
import { ApiError } from "~/lib/api/errors";
import { scanHtml } from "~/lib/html-scan";
import { errorFields, log } from "~/lib/log.server";
import { FetchError, guardedFetch, type GuardedResponse } from "~/lib/net/guarded-fetch.server";
import { WorkerPoolError } from "~/lib/worker-pool.server";
import type { PageInput, PageOutput } from "./page-extract.server";
import { pageWorkers } from "./page-workers.server";

export { normalizeCurrency, toMinorUnits, type ScrapedProduct } from "./page-extract.server";
import type { ScrapedProduct } from "./page-extract.server";

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
/** Bytes of a page that are read for product facts; the rest of a larger page is ignored. */
export const MAX_PARSED_BYTES = 1024 * 1024;

class ScrapeFailure extends Error {
  constructor(
    readonly code: ScrapeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------
// Helpers

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

/** The charset a <meta> near the top of the page declares, read with the linear scanner. */
function declaredCharset(head: string): string | null {
  let found: string | null = null;
  scanHtml(head, {
    open(name, attrs) {
      if (found || name !== "meta") return;
      found = attrs.get("charset")?.trim() || (attrs.get("content")?.match(/charset=["']?([\w-]+)/i)?.[1] ?? null);
    },
  });
  return found;
}

function decodeHtml(res: GuardedResponse): string {
  // Charset from the header, else from a <meta charset> near the top, else UTF-8.
  const header = res.headers.get("content-type") ?? "";
  const head = res.body.subarray(0, 2048).toString("latin1");
  const label = header.match(/charset=["']?([\w-]+)/i)?.[1] ?? declaredCharset(head) ?? "utf-8";
  const body = res.body.subarray(0, MAX_PARSED_BYTES);
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
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

// ---------------------------------------------------------------------------
// The scrape workers

async function extract(input: PageInput): Promise<PageOutput | ScrapeFailure> {
  try {
    return (await pageWorkers().run({ kind: "product", input })) as PageOutput;
  } catch (err) {
    if (!(err instanceof WorkerPoolError)) throw err;
    log.warn("page not read", { url: input.url, reason: err.code, error: err.message });
    if (err.code === "busy") return new ScrapeFailure("external_error", "The scraper is busy; try again shortly");
    if (err.code === "timeout") return new ScrapeFailure("not_a_product_page", "The page could not be read in time");
    return new ScrapeFailure("not_a_product_page", "The page could not be read");
  }
}

// ---------------------------------------------------------------------------
// Fetching

async function fetchHtml(url: string, market?: string): Promise<{ res: GuardedResponse; html: string }> {
  const res = await guardedFetch(url, {
    ...HTML_LIMITS,
    headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1", ...acceptLanguage(market) },
    acceptContentType: /^(text\/html|application\/xhtml\+xml)$/,
  });
  return { res, html: decodeHtml(res) };
}

async function fetchShopifyJson(jsonUrl: string, market?: string): Promise<string> {
  const res = await guardedFetch(jsonUrl, {
    ...SHOPIFY_JSON_LIMITS,
    headers: { accept: "application/json", ...acceptLanguage(market) },
    acceptContentType: /^(application|text)\/(json|javascript|x-javascript)$/,
  });
  return res.body.toString("utf8");
}

/** A scrape's result, and whether the page says the product can be bought (null: it does not say). */
export interface PageRead {
  result: ScrapeResult;
  available: boolean | null;
}

async function scrape(url: string, opts: ScrapeOptions): Promise<PageRead> {
  const fail = (error: ScrapeErrorCode, message: string): PageRead => ({ result: { success: false, error, message }, available: null });
  let pageUrl: URL;
  try {
    pageUrl = new URL(url);
  } catch {
    return fail("fetch_failed", "Only public http and https URLs can be scraped");
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
  const shopifyJson = shopify.status === "fulfilled" ? shopify.value : null;
  const read =
    shopifyJson !== null || pageOk
      ? await extract({ url, finalUrl: pageOk?.res.url ?? null, html: pageOk?.html ?? null, shopifyJson })
      : null;
  const available = read && !(read instanceof ScrapeFailure) ? (read.available ?? null) : null;
  if (read && !(read instanceof ScrapeFailure) && read.shopify) return { result: { success: true, product: read.shopify }, available };

  if (page.status === "rejected") {
    const failure = failureFromFetch(page.reason);
    // Shopify JSON and the page fallback both answered with errors. Refused
    // addresses and unreachable hosts keep their own codes.
    const upstreamError = (page.reason as FetchError).code === "http_error" || (page.reason as FetchError).code === "too_large";
    if (jsonUrl && shopify.status === "rejected" && upstreamError) {
      return fail("fallback_scrape_failed", failure.message);
    }
    return fail(failure.code, failure.message);
  }
  if (read instanceof ScrapeFailure) return fail(read.code, read.message);
  const product: ScrapedProduct | null = read?.page ?? null;
  if (!product) return fail("not_a_product_page", "No product data found on the page");
  return { result: { success: true, product }, available };
}

/** Scrapes a product page; only unexpected failures throw (500 internal_error). */
export async function scrapeProduct(url: string, opts: ScrapeOptions = {}): Promise<ScrapeResult> {
  return (await readProductPage(url, opts)).result;
}

/** `scrapeProduct` with the page's availability (the scheduled re-read for alerts). */
export async function readProductPage(url: string, opts: ScrapeOptions = {}): Promise<PageRead> {
  try {
    return await scrape(url, opts);
  } catch (err) {
    log.error("scrape failed unexpectedly", { url, ...errorFields(err) });
    throw new ApiError(500, "internal_error", "Scraping failed unexpectedly");
  }
}

/** `POST /hosted/scrape-preview` body `{url, market?}`, as the route's schema read it (url trimmed and non-empty). */
export async function scrapePreview({ url, market }: { url: string; market?: string }): Promise<ScrapeResult> {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new ApiError(400, "invalid_url", "url must be an absolute http or https URL");
  }
  return scrapeProduct(url, { market });
}
