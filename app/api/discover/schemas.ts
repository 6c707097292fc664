// Shapes shared by the discover, stores and products routes (zod: validation
// of the query strings and the OpenAPI document's answers).
import { z } from "zod";

export const marketParam = z.string().max(35).optional().describe("Market code (`de-DE`, `en-US`); picks each product's facts");
export const limitParam = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);
export const offsetParam = z.coerce.number().int().min(0).max(10_000).default(0);
export const pageQuery = z.object({ limit: limitParam(100, 20), offset: offsetParam });

/** The optional market of a query: blank is none. */
export const marketOf = (q: { market?: string }) => q.market?.trim() || undefined;

export const productIdParams = z.object({ productId: z.string().describe("Product id (positive integer)") });

export const productCard = z.object({
  id: z.number().int(),
  title: z.string(),
  imageUrl: z.string().nullable(),
  url: z.string().nullable(),
  price_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  compare_at_price_minor: z.number().int().nullable(),
  brand: z.string().nullable(),
  product_type: z.string().nullable(),
  source_domain: z.string().nullable(),
  market: z.string().nullable().describe("Market of the facts shown"),
});

export const rankedProduct = productCard.extend({ saves: z.number().int().describe("Saves in the window") });

export const productDetailResponse = z.object({
  product: productCard.extend({
    tags: z.array(z.unknown()),
    rating: z.number().nullable(),
    review_count: z.number().int().nullable(),
    available: z.boolean().nullable(),
    save_count: z.number().int().describe("Lists holding the product"),
    created_at: z.string(),
    updated_at: z.string(),
    localizations: z.array(
      z.object({
        market: z.string(),
        title: z.string(),
        description: z.string(),
        imageUrl: z.string().nullable(),
        price_minor: z.number().int().nullable(),
        currency: z.string().nullable(),
        compare_at_price_minor: z.number().int().nullable(),
        updated_at: z.string(),
      }),
    ),
  }),
});

export const searchQuery = z.object({
  q: z.string().trim().min(1).max(200).describe("Text to find in product titles (case-insensitive)"),
  market: marketParam,
  limit: limitParam(100, 20),
  offset: offsetParam,
});

export const searchResponse = z.object({
  q: z.string(),
  products: z.array(productCard),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
});

export const productQuery = z.object({ market: marketParam });

export const publicListCard = z.object({
  id: z.string().describe("Share token"),
  name: z.string(),
  description: z.string(),
  image_path: z.string(),
  occasion_slug: z.string(),
  occasion_title: z.string(),
  productCount: z.number().int(),
  owner_username: z.string().nullable(),
  owner_avatar: z.string().nullable(),
  updated_at: z.string(),
});

export const pageFields = { limit: z.number().int(), offset: z.number().int(), has_more: z.boolean() };
