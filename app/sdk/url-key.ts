// How the shop page and the hosted dialog recognise "the same product" in the
// shopper's saved items: origin + path without trailing slash, query sorted,
// visit-tracking parameters dropped. The server canonicalises fully; this is
// only for matching. Plain code: it ships in widget.js.
const TRACKING = /^(utm_|pk_|mtm_|hsa_)|^(gclid|fbclid|msclkid|dclid|gbraid|wbraid|yclid|igshid|mc_cid|mc_eid|_ga|_gl|srsltid)$/i;

export function urlKey(raw: string, base?: string): string {
  try {
    const url = new URL(raw, base);
    const kept = [...url.searchParams].filter(([k]) => !TRACKING.test(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const query = new URLSearchParams(kept).toString();
    return (url.origin + url.pathname).replace(/\/+$/, "") + (query ? "?" + query : "");
  } catch {
    return raw;
  }
}
