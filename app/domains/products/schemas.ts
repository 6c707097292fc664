// The API shapes of scraping and saving (SPEC 2.6, 7.5) as zod schemas, for
// the route descriptions and the OpenAPI document.
import { z } from "zod";

/** What a product page says (page-extract.server.ts ScrapedProduct). */
export const scrapedProductSchema = z.object({
  url: z.string(),
  canonical_url: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  image_url: z.string().nullable().describe("Absolute http(s) URL of the page's product image"),
  price_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  compare_at_price_minor: z.number().int().nullable(),
  brand: z.string().nullable(),
  product_type: z.string().nullable(),
  tags: z.array(z.string()),
  variant_id: z.string().nullable(),
  source: z.enum(["shopify", "json-ld", "open-graph", "meta"]),
});

/** A scrape's outcome: the product, or a result code (SPEC 7.5; not an HTTP error). */
export const scrapeResultSchema = z.union([
  z.object({ success: z.literal(true), product: scrapedProductSchema }),
  z.object({
    success: z.literal(false),
    error: z.enum([
      "not_a_product_page",
      "network_error",
      "fetch_failed",
      "external_error",
      "fallback_scrape_failed",
      "scraper_not_configured",
    ]),
    message: z.string(),
  }),
]);

/** The save response (SPEC 2.6). */
export const saveResultSchema = z.object({ ok: z.literal(true), item_id: z.number().int(), product_id: z.number().int() });

/** Every code a save can answer with (save.server.ts, the Free plan's meter). */
export const saveErrors = {
  missing_wishlist: 400,
  missing_url: 400,
  invalid_url: 400,
  invalid_priority: 400,
  usage_limit_reached: 402,
  invalid_wishlist: 403,
  product_create_failed: 500,
  save_failed: 500,
} as const;
