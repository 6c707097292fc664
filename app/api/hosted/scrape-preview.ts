// POST /hosted/scrape-preview (no auth): product data for a URL, not saved.
import { scrapePreview } from "~/domains/products/scraper.server";
import { endpoint, route } from "~/api/endpoint.server";
import { scrapeResultSchema } from "~/domains/products/schemas";

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Read a product page's facts without saving anything",
      description: "Failures to read the page are result codes in the body (`success: false`), not HTTP errors (SPEC 7.5).",
      response: scrapeResultSchema,
      errors: { missing_url: 400, invalid_url: 400, internal_error: 500 },
    },
    ({ body }) => scrapePreview(body),
  ),
});
export const action = loader;
