// POST /hosted/scrape-preview (no auth): product data for a URL, not saved.
import { scrapePreview } from "~/domains/products/scraper.server";
import { endpoint, route } from "~/api/endpoint.server";
import { scrapeResultSchema } from "~/domains/products/schemas";
import { objectBody, lenientString } from "~/lib/api/schemas";
import { z } from "zod";

// A url that is absent, blank or no string is 400 missing_url; a market that is no string is ignored.
const previewBody = objectBody(
  z.object({
    url: z.string().trim().min(1).describe("An absolute http(s) URL"),
    market: lenientString().describe("Locale like de-DE, sent as Accept-Language"),
  }),
);

export const loader = endpoint({
  POST: route(
    "none",
    {
      summary: "Read a product page's facts without saving anything",
      description: "Failures to read the page are result codes in the body (`success: false`), not HTTP errors (SPEC 7.5).",
      body: previewBody,
      codes: { missing: { url: "missing_url" }, invalid: { url: "missing_url" } },
      response: scrapeResultSchema,
      errors: { invalid_url: 400, internal_error: 500 },
    },
    ({ body }) => scrapePreview(body),
  ),
});
export const action = loader;
