// The API shapes of scraping and saving (SPEC 2.6, 7.5) as zod schemas, for
// the route descriptions and the OpenAPI document.
import { z } from "zod";
import { objectBody } from "~/lib/api/schemas";

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

/** Every code a save can answer with beyond its request schema's (save.server.ts, the Free plan's meter). */
export const saveErrors = {
  invalid_url: 400,
  usage_limit_reached: 402,
  invalid_wishlist: 403,
  product_create_failed: 500,
  save_failed: 500,
} as const;

// ------------------------------------------------------------ the save request

/** Optional text: "" and null read as absent; trimmed and cut to `max` characters; anything but a string is 400 `invalid_input`. */
const text = (max: number) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ? v.trim().slice(0, max) || undefined : undefined));

/** An optional non-negative integer (minor units, ids); null reads as absent. */
const count = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .nullish()
  .transform((v) => v ?? undefined);

/** An object of variant and quantity data; null reads as absent. */
const meta = z.record(z.string(), z.unknown()).nullish();

/** SaveProductInput (SPEC 2.6). */
export const saveProductInput = z.object({
  url: z.string().trim().min(1).describe("The product page (required)"),
  imageUrl: text(2048).refine((v) => v === undefined || /^https?:\/\//i.test(v), "must be an absolute http(s) URL"),
  marketCode: text(16)
    .refine((v) => v === undefined || /^[a-z]{2}([-_][A-Za-z]{2})?$/.test(v), "must look like de-DE")
    .transform((v) => v ?? ""),
  metadata: meta.describe("Variant and quantity data; stored only when siteDomain is the widget's origin"),
  partnerMeta: meta.describe("Alias of metadata"),
  title: text(500),
  description: text(5000),
  price: count.describe("Minor units"),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code")
    .nullish()
    .transform((v) => v?.toUpperCase()),
  productId: z.unknown().optional().describe("The shop's own product id (string or number)"),
  rawProductId: z.unknown().optional().describe("Alias of productId"),
  offerId: count,
  siteDomain: text(255),
  sourceLabel: text(100),
  priority: z
    .number()
    .int()
    .min(1)
    .max(4)
    .nullish()
    .transform((v) => v ?? undefined),
});

/**
 * SaveRequest (SPEC 2.6) of `/hosted/save` and `/widget/save`. A body that is
 * no object reads as `{}`; `wishlistId` may come as a numeric string.
 */
export const saveRequestBody = objectBody(
  z.object({
    wishlistId: z
      .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
      .refine((id) => Number.isSafeInteger(id) && id > 0, "must be the list's numeric db_id")
      .describe("The list's numeric db_id, not its share token"),
    product: saveProductInput,
    siteDomain: text(255).describe("The page's host, when product.siteDomain is not given"),
  }),
);
export type SaveRequestBody = z.output<typeof saveRequestBody>;

/** SPEC 7.1 codes of the save request's fields (others are 400 `invalid_input`). */
export const saveRequestCodes = {
  missing: { wishlistId: "missing_wishlist", product: "missing_url", "product.url": "missing_url" },
  invalid: {
    wishlistId: "missing_wishlist",
    product: "missing_url",
    "product.url": "missing_url",
    "product.priority": "invalid_priority",
  },
};
