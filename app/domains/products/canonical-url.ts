// The canonical form of a product URL: products are upserted by it, so the
// same product reached through different campaign links is one product.

// Parameters that only track the visit. Parameters that select a product or
// variant (variant, sku, id, color, size, …) are kept.
const TRACKING_PARAMS = new Set([
  "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid", "twclid", "ttclid", "li_fat_id",
  "igshid", "mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id",
  "wickedid", "srsltid", "ref_", "spm", "_pos", "_sid", "_ss", "_fid", "_psq", "epik", "s_kwcid", "ef_id",
  // Our own signed list-item reference on share-page links (lists/wish-ref.server.ts).
  "wish_ref",
]);
const TRACKING_PREFIXES = ["utm_", "pk_", "mtm_", "hsa_"];

function isTracking(name: string): boolean {
  const key = name.toLowerCase();
  return TRACKING_PARAMS.has(key) || TRACKING_PREFIXES.some((p) => key.startsWith(p));
}

/** Canonical URL, or null when the input is not an absolute http(s) URL. */
export function canonicalUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname) return null;
  // URL already lowercases scheme and host and drops default ports.
  url.hostname = url.hostname.replace(/\.$/, "");
  url.hash = "";
  url.username = "";
  url.password = "";
  const kept = [...url.searchParams.entries()].filter(([name]) => !isTracking(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = new URLSearchParams(kept).toString();
  if (url.pathname.length > 1 && url.pathname.endsWith("/")) url.pathname = url.pathname.replace(/\/+$/, "");
  return url.toString();
}
