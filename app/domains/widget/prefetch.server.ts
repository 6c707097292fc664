// `POST /widget/prefetch`: the SDK asks for a product's canonical URL and
// page data before the shopper opens the dialog.
import { fields } from "~/lib/api/input";
import { badRequest } from "~/lib/api/errors";
import { canonicalUrl } from "~/domains/products/canonical-url";
import { scrapeProduct } from "~/domains/products/scraper.server";

export async function prefetch(body: unknown) {
  const input = fields(body);
  const url = typeof input.url === "string" ? input.url.trim() : "";
  if (!url) throw badRequest("invalid_input", "url is required");
  const canonical = canonicalUrl(url);
  if (!canonical) throw badRequest("invalid_input", "url must be an absolute http(s) URL");
  const market = typeof input.market === "string" ? input.market : undefined;
  return { ok: true, canonical_url: canonical, result: await scrapeProduct(canonical, { market }) };
}
