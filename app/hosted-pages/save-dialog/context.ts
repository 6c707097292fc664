// What the save dialog knows before it renders anything: the context widget.js
// opened it with (token, product, locale, accent), the screens it can show, and
// the list a shopper saved to last. Browser-only (location, storage).
import { widgetClaims, type WidgetTokenClaims } from "../client";
import type { DialogProduct } from "~/sdk/protocol";

export type Product = DialogProduct;

export interface Context {
  token: string;
  claims: WidgetTokenClaims;
  product: Product;
  locale: string;
  /** The shop's basket colour, when it has one. */
  accent: string | null;
}

/**
 * What the shop page says its visitor allowed beyond the save itself
 * (docs/privacy.md): analytics events, and remembering the last list
 * (preferences). Nothing until the page says so; the opener may change it
 * while the dialog is open (`consent` message).
 */
export const consent = { analytics: false, preferences: false };

export interface ListChoice {
  /** The list's share token (item routes address lists by it). */
  id: string;
  db_id: number;
  name: string;
  productCount: number;
}

/** Where the product sits in the shopper's lists. */
export interface Placement {
  itemId: number;
  list: ListChoice;
}

/** What the saved screen says about the shop recognising the shopper (docs/identity.md, "Consent"). */
export type ShopNotice = "new" | "withdrawn" | "declined" | null;

export type Screen =
  | { name: "loading" }
  | { name: "no-context" }
  | { name: "welcome" }
  | { name: "auth"; mode: "signin" | "signup" }
  | { name: "pick"; placement: Placement }
  | { name: "saved"; placement: Placement; already: boolean }
  | { name: "removed"; listName: string }
  | { name: "failed" };

/** The page action's answer about alerts (routes/dialog.save.tsx): what to offer, and why starting the opt-in failed. */
export interface AlertOfferAnswer {
  /** "none": a guest (no address); else the alert consent's state. */
  offer: "none" | "off" | "pending" | "on";
  error?: string;
}

const CONTEXT_KEY = "wish:dialog";
/** The list a shopper saved to last, per user (first-party storage of APP_URL). */
const LAST_LIST_KEY = "wish:last-list";

/** The dialog's context from the fragment (then removed from the address bar), or from this window's earlier load. */
export function readContext(): Context | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  let raw = hash.get("token")
    ? { token: hash.get("token"), product: hash.get("product"), locale: hash.get("locale"), accent: hash.get("accent"), consent: hash.get("consent") }
    : null;
  if (raw) {
    history.replaceState(null, "", location.pathname);
    sessionStorage.setItem(CONTEXT_KEY, JSON.stringify(raw));
  } else {
    try {
      raw = JSON.parse(sessionStorage.getItem(CONTEXT_KEY) ?? "null");
    } catch {
      raw = null;
    }
  }
  if (!raw?.token) return null;
  setConsent(raw.consent);
  const claims = widgetClaims(raw.token);
  let product: Product | null = null;
  try {
    product = JSON.parse(raw.product ?? "null");
  } catch {
    product = null;
  }
  if (!claims || !product || typeof product.url !== "string") return null;
  return { token: raw.token, claims, product, locale: raw.locale ?? "de-DE", accent: raw.accent ?? null };
}

/** Takes the purposes the shop page names ("analytics,preferences"; none: null or ""); a refused preference forgets the last list. */
export function setConsent(purposes: string | null | undefined): void {
  const named = (purposes ?? "").split(",");
  consent.analytics = named.includes("analytics");
  consent.preferences = named.includes("preferences");
  try {
    if (!consent.preferences) localStorage.removeItem(LAST_LIST_KEY);
    // A reload of this window (the context comes from storage then) keeps the latest answer.
    const stored = JSON.parse(sessionStorage.getItem(CONTEXT_KEY) ?? "null");
    if (stored) sessionStorage.setItem(CONTEXT_KEY, JSON.stringify({ ...stored, consent: purposes ?? null }));
  } catch {
    /* no storage: nothing stored to forget */
  }
}

export function lastListOf(userId: string): number | null {
  if (!consent.preferences) return null;
  try {
    const last = JSON.parse(localStorage.getItem(LAST_LIST_KEY) ?? "null");
    return last?.user === userId && typeof last.list === "number" ? last.list : null;
  } catch {
    return null;
  }
}

export function rememberList(userId: string, list: number): void {
  if (!consent.preferences) return;
  try {
    localStorage.setItem(LAST_LIST_KEY, JSON.stringify({ user: userId, list }));
  } catch {
    /* no storage: the default list next time */
  }
}

/** Shops (partner ids) where the shopper chose "Not on this shop", per user: the dialog grants them nothing until "Stay signed in". */
const DECLINED_KEY = "wish:declined-shops";

export function hasDeclined(userId: string, partnerId: number): boolean {
  return declinedOf(userId).includes(partnerId);
}

export function setDeclined(userId: string, partnerId: number, declined: boolean): void {
  const partners = [...declinedOf(userId).filter((p) => p !== partnerId), ...(declined ? [partnerId] : [])];
  try {
    // Stored only while there is a refusal to honour (docs/privacy.md).
    if (partners.length) localStorage.setItem(DECLINED_KEY, JSON.stringify({ user: userId, partners }));
    else localStorage.removeItem(DECLINED_KEY);
  } catch {
    /* no storage: the next save asks again */
  }
}

function declinedOf(userId: string): number[] {
  try {
    const stored = JSON.parse(localStorage.getItem(DECLINED_KEY) ?? "null");
    return stored?.user === userId && Array.isArray(stored.partners) ? stored.partners.filter((p: unknown) => typeof p === "number") : [];
  } catch {
    return [];
  }
}

/** The picker's counts follow what this dialog did (the lists were read before it). */
export const counted = (lists: ListChoice[], listId: number, by: number) =>
  lists.map((l) => (l.db_id === listId ? { ...l, productCount: Math.max(0, l.productCount + by) } : l));
