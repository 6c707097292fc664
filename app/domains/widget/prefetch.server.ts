// `POST /widget/prefetch`: the SDK asks for a product's canonical URL and
// page data before the shopper opens the dialog.
import { badRequest } from "~/lib/api/errors";
import { canonicalUrl } from "~/domains/products/canonical-url";
import { scrapeProduct } from "~/domains/products/scraper.server";

/** `{url, market?}` as the route's schema read it (url trimmed and non-empty). */
export async function prefetch({ url, market }: { url: string; market?: string }) {
  const canonical = canonicalUrl(url);
  if (!canonical) throw badRequest("invalid_input", "url must be an absolute http(s) URL");
  return { ok: true, canonical_url: canonical, result: await scrapeProduct(canonical, { market }) };
}
