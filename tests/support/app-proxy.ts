// Requests as Shopify's app proxy forwards them (shopify.dev/docs/apps/build/
// online-store/app-proxies/authenticate-app-proxies): the storefront's query
// plus `shop`, `logged_in_customer_id` (blank for a guest), `path_prefix` and
// `timestamp`, signed with the app secret: parameters sorted by name, each
// written `key=value` with a repeated key's values joined by commas, all
// concatenated without separators, HMAC-SHA256, hex. That is what
// @shopify/shopify-api's `validateHmac({signator: "appProxy"})` recomputes.
import { createHmac } from "node:crypto";

export const PATH_PREFIX = "/apps/wishlist";

export interface ProxyParams {
  shop: string;
  /** Omitted: a guest (Shopify sends the parameter blank). */
  customerId?: string;
  /** Unix seconds; now by default. */
  timestamp?: number;
  /** The storefront's own query parameters, repeated keys as arrays. */
  extra?: Record<string, string | string[]>;
}

/** Shopify's signature of the forwarded parameters (without `signature`). */
export function proxySignature(params: Array<[string, string]>, secret: string): string {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const message = [...grouped.keys()]
    .sort((a, b) => a.localeCompare(b))
    .map((key) => `${key}=${grouped.get(key)!.join(",")}`)
    .join("");
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** The forwarded query string, signed with `secret`. */
export function signedProxyQuery(p: ProxyParams, secret: string): URLSearchParams {
  const params: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(p.extra ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) params.push([key, v]);
  }
  params.push(
    ["shop", p.shop],
    ["logged_in_customer_id", p.customerId ?? ""],
    ["path_prefix", PATH_PREFIX],
    ["timestamp", String(p.timestamp ?? Math.floor(Date.now() / 1000))],
  );
  const query = new URLSearchParams(params);
  query.set("signature", proxySignature(params, secret));
  return query;
}
