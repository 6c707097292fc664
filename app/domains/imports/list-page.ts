// Reading a retailer's public wishlist page: which provider a URL belongs
// to, and the items a page lists. Two forms are understood:
// - generic: JSON-LD `ItemList` (itemListElement of ListItem/Product/URL
//   entries) and `Product` entries, also inside `@graph`;
// - amazon: the list markup of Amazon wishlist pages, one `<li data-itemid>`
//   per item with an `itemName_<id>` link to `/dp/<ASIN>`, an image, and the
//   price in `data-price` / the item's `a-offscreen` text.
// The page is read with the single-pass scanner (app/lib/html-scan.ts); no
// DOM, no regular expression over the page. Reading runs in the scrape
// workers (products/page-worker.mjs), which load this file by relative path:
// no `~/` imports here.
import { decodeEntities, scanHtml } from "../../lib/html-scan";
import { normalizeCurrency, toMinorUnits } from "../products/page-extract.server";

export type ListProvider = "generic" | "amazon";

export interface ListItemFacts {
  url: string;
  title: string | null;
  imageUrl: string | null;
  priceMinor: number | null;
  currency: string | null;
}

/** What a page lists: its first `maxItems` distinct items, and how many distinct items it names in all. */
export interface ListPage {
  items: ListItemFacts[];
  found: number;
}

/** The task a scrape worker is given for a list page. */
export interface ListPageInput {
  html: string;
  pageUrl: string;
  provider: ListProvider;
  maxItems: number;
}

/** Keeps the first `max` distinct items (by URL) and counts the distinct ones past them. */
class Collector {
  readonly items: ListItemFacts[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}

  get found(): number {
    return this.seen.size;
  }

  add(item: ListItemFacts): void {
    if (this.seen.has(item.url)) return;
    this.seen.add(item.url);
    if (this.items.length < this.max) this.items.push(item);
  }
}

const MAX_DEPTH = 12;

const AMAZON_HOST = /(^|\.)amazon\.(com|ca|com\.mx|com\.br|co\.uk|de|fr|it|es|nl|se|pl|com\.tr|ae|sa|in|co\.jp|com\.au|sg|eg|com\.be)$/;
const LIST_ID = /^[A-Za-z0-9]{6,20}$/;

export interface ListSource {
  url: URL;
  provider: ListProvider;
  externalListId: string | null;
}

/** The list id in an Amazon list path (`/hz/wishlist/ls/<ID>`, `/registry/wishlist/<ID>`, `/gp/registry/wishlist/<ID>`) or `?lid=`. */
function amazonListId(url: URL): string | null {
  const segments = url.pathname.split("/").filter(Boolean);
  for (let i = 0; i + 1 < segments.length; i++) {
    const [a, b] = [segments[i]!.toLowerCase(), segments[i + 1]!];
    const isListPrefix = (a === "ls" && segments[i - 1]?.toLowerCase() === "wishlist") || (a === "wishlist" && segments[i - 1]?.toLowerCase() === "registry");
    if (isListPrefix && LIST_ID.test(b)) return b;
  }
  const lid = url.searchParams.get("lid");
  return lid && LIST_ID.test(lid) ? lid : null;
}

export const isAmazonHost = (host: string) => AMAZON_HOST.test(host.toLowerCase());

export type ListUrlProblem = "invalid_list_url" | "missing_amazon_list_id";

/**
 * The provider and list id of a list URL, or the SPEC code of what is wrong
 * with it. An Amazon list path on another host (a regional storefront domain,
 * a mirror or test fixture) reads as an Amazon list too.
 */
export function parseListUrl(raw: string): ListSource | ListUrlProblem {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "invalid_list_url";
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname || url.username || url.password) return "invalid_list_url";
  url.hash = "";
  const listId = amazonListId(url);
  if (isAmazonHost(url.hostname)) {
    if (!listId) return "missing_amazon_list_id";
    return { url, provider: "amazon", externalListId: listId };
  }
  if (listId && /\/(wishlist|registry)\//i.test(url.pathname)) return { url, provider: "amazon", externalListId: listId };
  return { url, provider: "generic", externalListId: null };
}

function absolute(value: unknown, base: URL): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  try {
    const url = new URL(decodeEntities(value.trim()), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

const clip = (value: string | null | undefined, max: number) => {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text.slice(0, max) : null;
};

// ---------------------------------------------------------------- generic (JSON-LD)

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

function hasType(node: Json, type: string): boolean {
  return asArray(node["@type"]).some((t) => typeof t === "string" && t.toLowerCase() === type.toLowerCase());
}

function imageOf(value: unknown, base: URL): string | null {
  for (const entry of asArray(value)) {
    const url = isObject(entry) ? absolute(entry.url ?? entry.contentUrl, base) : absolute(entry, base);
    if (url) return url;
  }
  return null;
}

function productFacts(node: Json, base: URL): ListItemFacts | null {
  const url = absolute(node.url ?? node["@id"], base);
  if (!url) return null;
  let priceMinor: number | null = null;
  let currency: string | null = null;
  for (const offer of asArray(node.offers)) {
    if (!isObject(offer)) continue;
    currency = normalizeCurrency(offer.priceCurrency);
    priceMinor = toMinorUnits(offer.price ?? offer.lowPrice, currency);
    if (priceMinor !== null) break;
  }
  return {
    url,
    title: clip(typeof node.name === "string" ? decodeEntities(node.name) : null, 500),
    imageUrl: imageOf(node.image, base),
    priceMinor: currency ? priceMinor : null,
    currency: priceMinor !== null ? currency : null,
  };
}

/** Products and list entries of one JSON-LD document, in order. */
function collectJsonLd(node: unknown, base: URL, out: Collector, state: { list: boolean }, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const entry of node) collectJsonLd(entry, base, out, state, depth + 1);
    return;
  }
  if (!isObject(node)) return;
  if (hasType(node, "ItemList")) {
    state.list = true;
    for (const element of asArray(node.itemListElement)) {
      if (typeof element === "string") {
        const url = absolute(element, base);
        if (url) out.add({ url, title: null, imageUrl: null, priceMinor: null, currency: null });
        continue;
      }
      if (!isObject(element)) continue;
      const item = isObject(element.item) ? element.item : typeof element.item === "string" ? { url: element.item, name: element.name } : element;
      const facts = productFacts(item, base);
      if (facts) out.add(facts);
    }
    return;
  }
  if (hasType(node, "Product")) {
    const facts = productFacts(node, base);
    if (facts) out.add(facts);
    return;
  }
  if (node["@graph"] !== undefined) collectJsonLd(node["@graph"], base, out, state, depth + 1);
}

// ---------------------------------------------------------------- amazon (list markup)

const ASIN = /\/(?:dp|gp\/product)\/([A-Z0-9]{10})(?:[/?]|$)/;
const CURRENCY_SIGNS: Array<[string, string]> = [
  ["US$", "USD"],
  ["CA$", "CAD"],
  ["A$", "AUD"],
  ["R$", "BRL"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["¥", "JPY"],
  ["₹", "INR"],
  ["$", "USD"],
];

function currencyOfText(text: string): string | null {
  for (const [sign, code] of CURRENCY_SIGNS) if (text.includes(sign)) return code;
  const code = /\b([A-Z]{3})\b/.exec(text)?.[1];
  return code ?? null;
}

interface AmazonItem {
  asin: string | null;
  href: string | null;
  title: string | null;
  titleText: string[];
  imageUrl: string | null;
  dataPrice: string | null;
  priceText: string[];
}

function amazonItems(html: string, base: URL, out: Collector): void {
  const items: AmazonItem[] = [];
  let current: AmazonItem | null = null;
  let inName = false;
  let inPrice = 0; // depth of spans inside an itemPrice_ span
  let inOffscreen = false;
  scanHtml(html, {
    open(name, attrs) {
      if (name === "li" && attrs.has("data-itemid")) {
        current = { asin: null, href: null, title: null, titleText: [], imageUrl: null, dataPrice: attrs.get("data-price") ?? null, priceText: [] };
        items.push(current);
        return;
      }
      if (!current) return;
      const id = attrs.get("id") ?? "";
      if (name === "a" && (id.startsWith("itemName_") || (!current.href && ASIN.test(attrs.get("href") ?? "")))) {
        const href = attrs.get("href") ?? "";
        const asin = ASIN.exec(href)?.[1] ?? null;
        if (asin) {
          current.asin = asin;
          current.href = href;
        }
        if (id.startsWith("itemName_")) {
          current.title = attrs.get("title") ?? null;
          inName = true;
        }
      } else if (name === "img" && !current.imageUrl) {
        current.imageUrl = absolute(attrs.get("src"), base);
      } else if (name === "span") {
        if (id.startsWith("itemPrice_")) inPrice = 1;
        else if (inPrice > 0) {
          inPrice++;
          if ((attrs.get("class") ?? "").split(/\s+/).includes("a-offscreen")) inOffscreen = true;
        }
      }
    },
    close(name) {
      if (name === "a") inName = false;
      if (name === "span" && inPrice > 0) {
        inPrice--;
        inOffscreen = false;
      }
      if (name === "li") current = null;
    },
    text(raw) {
      if (!current) return;
      if (inName) current.titleText.push(decodeEntities(raw));
      if (inOffscreen) current.priceText.push(decodeEntities(raw));
    },
  });
  for (const item of items) {
    if (!item.asin) continue;
    const priceText = item.priceText.join("").trim();
    const currency = priceText ? currencyOfText(priceText) : null;
    const amount = item.dataPrice && /^\d/.test(item.dataPrice) ? item.dataPrice : priceText || null;
    const priceMinor = currency && amount ? toMinorUnits(amount, currency) : null;
    out.add({
      url: new URL(`/dp/${item.asin}`, base).toString(),
      title: clip(item.title ?? item.titleText.join(""), 500),
      imageUrl: item.imageUrl,
      priceMinor,
      currency: priceMinor !== null ? currency : null,
    });
  }
}

// ---------------------------------------------------------------- the page

/**
 * The first `maxItems` distinct items of a list page and the count of all it
 * lists; null when the page is not a list this service reads (no Amazon list
 * markup, no JSON-LD list or product). CPU work on a hostile page: callers
 * run it in the scrape workers, under their time budget.
 */
export function readListPage({ html, pageUrl, provider, maxItems }: ListPageInput): ListPage | null {
  const base = new URL(pageUrl);
  const out = new Collector(maxItems);
  if (provider === "amazon") {
    amazonItems(html, base, out);
    // An Amazon list page is recognised by its list container even when empty.
    return out.found > 0 || hasAmazonListMarkup(html) ? { items: out.items, found: out.found } : null;
  }
  const state = { list: false };
  // `open` of a script comes just before its `rawText`.
  let jsonLd = false;
  scanHtml(html, {
    open(name, attrs) {
      if (name === "script") jsonLd = (attrs.get("type") ?? "").trim().toLowerCase() === "application/ld+json";
    },
    rawText(name, content) {
      if (name !== "script" || !jsonLd) return;
      let doc: unknown;
      try {
        doc = JSON.parse(content);
      } catch {
        return;
      }
      collectJsonLd(doc, base, out, state);
    },
  });
  if (out.found === 0 && !state.list) return null;
  return { items: out.items, found: out.found };
}

function hasAmazonListMarkup(html: string): boolean {
  let found = false;
  scanHtml(html, {
    open(_name, attrs) {
      const id = attrs.get("id") ?? "";
      if (id === "g-items" || id === "wl-item-view") found = true;
    },
  });
  return found;
}
