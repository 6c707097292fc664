// Request and response shapes shared by the shop routes (not a route module itself).
import { z } from "zod";

export const handleParams = z.object({ handle: z.string().describe("The shop's handle") });

const limit = (fallback: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback).describe(`Page size, 1-${max} (default ${fallback})`);

export const locale = {
  market: z.string().max(20).optional().describe("Market (e.g. de-DE) whose title and price to show"),
  lang: z.string().max(10).optional().describe("Language when no market is given"),
};

/** `limit` (default 24, max 100) and the opaque `cursor` of the previous page's `next_cursor`. */
export const pageQuery = {
  limit: limit(24, 100),
  cursor: z.string().max(40).optional().describe("`next_cursor` of the previous page"),
};

export const productsQuery = z.object({ ...pageQuery, ...locale, category: z.string().max(200).optional().describe("A product type (see /categories)") });
export const searchQuery = z.object({ ...pageQuery, ...locale, q: z.string().trim().min(1).max(200).describe("Search words") });
export const listProductsQuery = z.object({ ...pageQuery, ...locale });
export const followingQuery = z.object(pageQuery);
export const trendingQuery = z.object({ ...locale, limit: limit(12, 50) });
export const localeQuery = z.object(locale);

export const shopPageSchema = z.object({
  handle: z.string(),
  name: z.string(),
  description: z.string(),
  domain: z.string(),
  primary_domain: z.string().nullable(),
  url: z.string().describe("The shop's public page"),
  follower_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const product = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  url: z.string().nullable(),
  price_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  compare_at_price_minor: z.number().int().nullable(),
  brand: z.string().nullable(),
  product_type: z.string().nullable(),
  available: z.boolean().nullable(),
  created_at: z.string(),
});

export const productPage = z.object({ products: z.array(product), next_cursor: z.string().nullable() });

export const shopList = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  featured: z.boolean(),
  position: z.number().int(),
  product_count: z.number().int(),
  updated_at: z.string(),
});

export const followerCounts = z.object({ total: z.number().int(), last_7_days: z.number().int(), last_30_days: z.number().int() });
export const followState = z.object({ following: z.boolean(), follower_count: z.number().int() });

export const adminShop = z.object({
  id: z.number().int(),
  domain: z.string(),
  name: z.string().nullable(),
  handle: z.string(),
  published: z.boolean(),
  description: z.string(),
  url: z.string(),
  updated_at: z.string(),
});
export const adminList = shopList.extend({ product_ids: z.array(z.number().int()) });
export const shopIdParams = z.object({ id: z.string().describe("The platform shop's numeric id") });
