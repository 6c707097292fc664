// The app's customer account API as the Wishlist page calls it: every request
// carries a fresh session token (`shopify.sessionToken.get()` caches and
// renews it). Its one import is the app's money module, which imports
// nothing itself (the Shopify CLI bundles it in; the app's tests drive this module too).
import { formatMoney } from "../../../app/lib/money.ts";

export interface WishlistProduct {
  item_id: number;
  title: string | null;
  imageUrl: string | null;
  url: string | null;
  price_minor: number | null;
  currency: string | null;
  /** Shopify add-to-cart link carrying the item's signed reference; null without a variant. */
  cart_url: string | null;
}

export interface Wishlist {
  shop: { domain: string; name: string | null };
  products: WishlistProduct[];
}

/** An answer other than 2xx: the API's error code (`unauthorized`, `not_found`, …). */
export class WishlistApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

export function wishlistApi(appUrl: string, sessionToken: () => Promise<string>, fetcher: typeof fetch = fetch) {
  const base = `${appUrl.replace(/\/$/, "")}/api/v1/customer-account`;
  async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${await sessionToken()}` };
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetcher(`${base}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const data = (await res.json().catch(() => null)) as { error?: unknown } | null;
    if (!res.ok) throw new WishlistApiError(res.status, typeof data?.error === "string" ? data.error : "request_failed");
    return data as T;
  }
  return {
    list: (lang: string) => call<Wishlist>(`/items?lang=${encodeURIComponent(lang)}`),
    remove: (itemId: number) => call<{ ok: true; deleted: number }>(`/items/${itemId}`, { method: "DELETE" }),
    share: (lang: "de" | "en") => call<{ ok: true; share_url: string }>("/share", { method: "POST", body: { lang } }),
  };
}

/** A price in minor units of its currency's own exponent as the customer's locale writes it (JPY 1500 → ¥1,500, KWD 12345 → KWD 12.345). */
export function formatPrice(minor: number | null, currency: string | null, locale: string): string | null {
  if (minor === null || !currency) return null;
  return formatMoney(minor, currency, locale);
}
