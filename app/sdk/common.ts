// Shared by the shop-page scripts (widget.ts, basket-integration.ts): tag
// attributes, API calls, the widget session id and message checks
// (docs/storefront-protocol.md). Plain DOM, no framework: every byte here
// ships to every shop page.

const SID_KEY = "wish:sid";

export interface WidgetError extends Error {
  code: string;
  status?: number;
  trial_expired?: boolean;
}

export function widgetError(code: string, message?: string, extra?: Record<string, unknown>): WidgetError {
  const err = new Error(message || code) as WidgetError;
  err.name = "WidgetError";
  err.code = code;
  return Object.assign(err, extra);
}

// Captured while the script runs: document.currentScript is null afterwards.
const ownScript = document.currentScript;

/** `data-wish-<name>` from the script's own tag, else from `<html>`. */
export function tagAttr(name: string): string | undefined {
  const attr = "data-wish-" + name;
  return ownScript?.getAttribute(attr) || document.documentElement.getAttribute(attr) || undefined;
}

/**
 * A value the server substitutes for its placeholder when it serves /sdk/v1/*.js
 * (app/domains/shop-scripts/shop-scripts.server.ts). The theme app extension's
 * copies of the same build come from Shopify's CDN with the placeholder intact:
 * they read `data-wish-<attr>` of their tag (written by the Liquid from the
 * app's shop metafields) instead. The test looks for the placeholder's prefix
 * only, which the server's substitution leaves alone.
 */
const served = (value: string, attr: string) => (value.indexOf("__WISH_") ? value : tagAttr(attr) || "");

/** The app's address: APP_URL (/sdk/v1), else the tag's data-wish-app-url (extension asset). */
export const APP_URL = served("__WISH_APP_URL__", "app-url");
/** The anon key (SPEC 5 rule 1: public by design): substituted (/sdk/v1), else the tag's data-wish-anon-key. */
const ANON_KEY = served("__WISH_ANON_KEY__", "anon-key");

export const stripSlash = (url: string) => url.replace(/\/+$/, "");
export const originOf = (url: string) => new URL(url, location.href).origin;

export interface Call {
  method?: string;
  body?: unknown;
  /** Authorization: Bearer … (public key or user access token). */
  bearer?: string;
  widgetToken?: string;
}

/** A JSON API call; rejects with the server's error code (or `network_error`). */
export async function call<T>(apiBase: string, path: string, opts: Call = {}): Promise<T> {
  const headers: Record<string, string> = { apikey: ANON_KEY };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.bearer) headers.authorization = "Bearer " + opts.bearer;
  if (opts.widgetToken) headers["x-widget-token"] = opts.widgetToken;
  let res: Response;
  try {
    res = await fetch(stripSlash(apiBase) + "/api/v1" + path, {
      method: opts.method || "GET",
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: "omit",
    });
  } catch (e) {
    throw widgetError("network_error", (e as Error).message);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const { error, message, ...rest } = data || {};
    throw widgetError(typeof error === "string" ? error : "http_" + res.status, message, { ...rest, status: res.status });
  }
  return data as T;
}

// localStorage can throw (disabled storage, sandboxed frames): the widget then works without a stored sid.
export function getSid(): string | null {
  try {
    return localStorage.getItem(SID_KEY);
  } catch {
    return null;
  }
}

const CHANGED_KEY = "wish:changed";
/** How long after a save or removal of this browser's own its heart state is read with `fresh=1`. */
const FRESH_AFTER_CHANGE_MS = 60_000;

/**
 * A save or removal happened in this browser: for a while heart state is asked
 * for with `fresh=1`, so a service reading it from a read replica answers from
 * its primary and the change shows (docs/operations.md "With a read replica").
 * On the shop's other pages too (localStorage) only where the visitor allowed
 * preferences; else on this page only (consent.ts: nothing stored without it).
 */
let changedAt = 0;
export function noteChange(remember: boolean): void {
  changedAt = Date.now();
  if (remember) rememberChange(true);
}

/** Keeps this page's last change for the shop's other pages (preferences allowed), or forgets it (withdrawn). */
export function rememberChange(allowed: boolean): void {
  try {
    if (!allowed) localStorage.removeItem(CHANGED_KEY);
    else if (changedAt) localStorage.setItem(CHANGED_KEY, String(changedAt));
  } catch {
    /* no storage: the service's own read-your-writes rule still covers its instance */
  }
}

export function changedRecently(): boolean {
  let at = changedAt;
  try {
    at = Math.max(at, Number(localStorage.getItem(CHANGED_KEY)) || 0);
  } catch {
    /* no storage: this page's own change only */
  }
  return at > 0 && Date.now() - at < FRESH_AFTER_CHANGE_MS;
}

function setSid(sid: string): void {
  try {
    localStorage.setItem(SID_KEY, sid);
  } catch {
    /* no storage: the sid lives for this page only */
  }
}

export interface InitResult {
  token: string;
  sid: string;
  basketConfig: unknown;
  /** With `saved`: the sid's shopper credential (null: none) and its saved products when init answered. */
  session?: { access_token: string; expires_at: number } | null;
  saved?: Array<{ url: string | null; item_id: number }>;
}

/**
 * `POST /widget/init` for this page's origin, reusing and storing the widget session id.
 * `saved`: the answer also carries the page's saved state (one request for a page's hearts).
 */
export async function initWidget(apiBase: string, key: string, saved?: boolean): Promise<InitResult> {
  const sid = getSid();
  const res = await call<InitResult>(apiBase, "/widget/init", {
    method: "POST",
    bearer: key,
    // JSON.stringify leaves out undefined values: the body is {origin} without a sid.
    body: { origin: location.origin, sid: sid || undefined, saved },
  });
  if (!res || typeof res.token !== "string") throw widgetError("init_no_token", "Init returned no widget token");
  if (res.sid && res.sid !== sid) setSid(res.sid);
  return res;
}

export interface ShopperCredential {
  token: string;
  /** Unix time (s) it expires. */
  expiresAt: number;
}

/** A `session` of the API's answers as the credential the scripts hold (null for none). */
export const credentialOf = (s?: { access_token: string; expires_at: number } | null): ShopperCredential | null =>
  s ? { token: s.access_token, expiresAt: s.expires_at } : null;

/**
 * The partner-scoped shopper credential for this sid, or null when the
 * shopper has not saved here (docs/storefront-protocol.md). Never the
 * shopper's account session: it works only for this shop's saved products.
 */
export async function restoreShopper(apiBase: string, init: InitResult): Promise<ShopperCredential | null> {
  const res = await call<{ session: { access_token: string; expires_at: number } | null }>(apiBase, "/widget/session-restore", {
    method: "POST",
    widgetToken: init.token,
    body: { sid: init.sid },
  });
  return credentialOf(res.session);
}

/** A `{source: "wish"}` message from `source` on the app's origin, else null. */
export function wishMessage(ev: MessageEvent, appOrigin: string, source: unknown): { type?: string; [k: string]: unknown } | null {
  const data = ev.data;
  if (ev.origin !== appOrigin || !source || ev.source !== source) return null;
  return data && typeof data === "object" && data.source === "wish" ? data : null;
}

/** Calls fn for every element matching `selector` now and whenever one is added (one observer, no polling). */
export function eachElement(selector: string, fn: (el: HTMLElement) => void): void {
  const seen = new WeakSet<HTMLElement>();
  const visit = (el: HTMLElement) => {
    if (seen.has(el)) return;
    seen.add(el);
    fn(el);
  };
  const scan = (root: ParentNode) => {
    if (root instanceof HTMLElement && root.matches(selector)) visit(root);
    root.querySelectorAll<HTMLElement>(selector).forEach(visit);
  };
  const start = () => {
    scan(document);
    new MutationObserver((records) => {
      for (const r of records) r.addedNodes.forEach((n) => n instanceof HTMLElement && scan(n));
    }).observe(document.documentElement, { childList: true, subtree: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}

/** German for `de*` locales, English otherwise. */
export const isGerman = (locale: string) => /^de/i.test(locale);
