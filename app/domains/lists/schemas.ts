// The API shapes of lists, items and collaborators (SPEC 2.1–2.4, 4.2, 4.3)
// as zod schemas, for the route descriptions and the OpenAPI document. They
// describe what serialize.ts and collaborators.server.ts build.
import { z } from "zod";

const isoDate = z.string().describe("ISO 8601 date-time");

/** The path parameter of every list route: the list's share token. */
export const tokenParams = z.object({ token: z.string().describe("The list's share token (`id` of HostedList)") });
/** `{token, itemId}`: an item (`item_id`) of the list. */
export const itemParams = tokenParams.extend({ itemId: z.string().describe("The item's integer `item_id`") });

/** `market` (de-DE) wins over `lang` (de) for localized titles, descriptions and prices. */
export const localeQuery = z.object({
  market: z.string().optional().describe("Market like de-DE: picks the product's localization and price"),
  lang: z.string().optional().describe("Language like de, when no market is given"),
});

/** HostedList (SPEC 2.1): the owner's or editor's view. */
export const hostedListSchema = z.object({
  id: z.string().describe("Share token"),
  db_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  image_path: z.string().describe("Image URL, or empty"),
  share_public: z.boolean(),
  occasion_slug: z.string(),
  productCount: z.number().int(),
  collaboratorCount: z.number().int(),
  is_shared: z.boolean(),
  role: z.enum(["owner", "editor", "viewer"]),
  owner_id: z.string(),
  owner_name: z.string(),
  owner_avatar: z.string().nullable(),
  updated_at: isoDate,
});

/** HostedListDetail (SPEC 2.2): the public view of a shared list. */
export const hostedListDetailSchema = z.object({
  id: z.string().describe("Share token"),
  internal_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  image_path: z.string(),
  share_public: z.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
  occasion_slug: z.string(),
  occasion_title: z.string(),
  productCount: z.number().int(),
  owner_username: z.string(),
  owner_avatar: z.string().nullable(),
  owner_is_premium: z.boolean(),
});

/** HostedProduct (SPEC 2.3): an item of a list. */
export const hostedProductSchema = z.object({
  id: z.number().int().describe("Product id"),
  wishlist_id: z.number().int(),
  item_id: z.number().int(),
  purchased: z.boolean(),
  title: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  affiliateUrl: z.string().nullable(),
  price_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  source_label: z.string().nullable(),
  priority: z.number().int().nullable(),
  rating: z.number().nullable(),
  review_count: z.number().int().nullable(),
  brand: z.string().nullable(),
  added_at: isoDate,
});

/** SavedProduct (SPEC 2.4): an item as the shopper's saved products show it. */
export const savedProductSchema = z.object({
  id: z.number().int(),
  wishlist_id: z.number().int(),
  item_id: z.number().int(),
  source_partner_id: z.number().int().nullable(),
  source_shop_id: z.number().int().nullable(),
  source_domain: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  image_url: z.string().nullable(),
  affiliateUrl: z.string().nullable(),
  url: z.string().nullable(),
  price_minor: z.number().int().nullable(),
  price: z.number().int().nullable(),
  currency: z.string().nullable(),
  compare_at_price_minor: z.number().int().nullable(),
  brand: z.string().nullable(),
  product_type: z.string().nullable(),
  tags: z.array(z.unknown()).nullable(),
  checkoutMeta: z.unknown().nullable(),
  variantId: z.string().nullable(),
});

/** A collaborator (editor) of a list. */
export const collaboratorSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  role: z.literal("editor"),
  added_at: isoDate,
});

export const occasionSchema = z.object({
  slug: z.string(),
  title: z.string().describe("In the requested language (German for de, English otherwise)"),
  titles: z.object({ de: z.string(), en: z.string() }),
});

/** `{products: HostedProduct[]}`. */
export const productsSchema = z.object({ products: z.array(hostedProductSchema) });
/** `{ok: true, item: HostedProduct}`. */
export const itemResultSchema = z.object({ ok: z.literal(true), item: hostedProductSchema });
/** `{ok: true, deleted: <id>}`. */
export const deletedIdSchema = z.object({ ok: z.literal(true), deleted: z.number().int() });
export const okSchema = z.object({ ok: z.literal(true) });

/** What every route of a list by share token can answer (listWithRole in access.server.ts). */
export const listAccessErrors = { missing_token: 400, not_found: 404, forbidden: 403 } as const;
/** The same for an item of the list (parseItemId in access.server.ts). */
export const itemAccessErrors = { ...listAccessErrors, missing_item_id: 400 } as const;
