// The API shapes of lists and items (SPEC 2.1–2.3), from database rows.
// Localized values follow the caller's market/lang with sensible fallbacks.
import type { ListItem, Product, ProductLocalization, User, Wishlist } from "~/db.server";
import { safeImageUrl } from "~/lib/api/schemas";
import { localeLanguage, pickLocalization, pickPrice, type Locale, type Localization } from "~/domains/products/localization";

/** Prisma's `select` of these columns. */
export const selectOf = <const K extends string>(columns: readonly K[]) =>
  Object.fromEntries(columns.map((c) => [c, true])) as { [C in K]: true };

// The columns HostedProduct is made from, whichever path reads the item: the
// list's items statement (items.sql.server.ts) selects exactly these, Prisma
// reads (itemInclude) at least these. A new field is added here and in the
// serializer, nowhere else.
export const ITEM_COLUMNS = [
  "id",
  "wishlistId",
  "purchased",
  "priority",
  "sourceLabel",
  "priceOverrideMinor",
  "currencyOverride",
  // The saver's own facts: shown before the catalogue's (save.server.ts).
  "ownTitle",
  "ownDescription",
  "ownImageUrl",
  "ownPriceMinor",
  "ownCurrency",
  "addedAt",
] as const satisfies readonly (keyof ListItem)[];
export const ITEM_PRODUCT_COLUMNS = ["id", "canonicalUrl", "brand", "rating", "reviewCount"] as const satisfies readonly (keyof Product)[];
export const LOCALIZATION_COLUMNS = [
  "market",
  "title",
  "description",
  "imageUrl",
  "originalImageUrl",
  "priceMinor",
  "currency",
  "compareAtPriceMinor",
] as const satisfies readonly (keyof ProductLocalization)[];

/** German for `de`, English otherwise. */
export function occasionTitle(occasion: { titleDe: string; titleEn: string } | null, locale: Locale): string {
  if (!occasion) return "";
  return localeLanguage(locale) === "de" ? occasion.titleDe : occasion.titleEn;
}

export type OwnerRow = Pick<User, "id" | "displayName" | "username" | "avatarUrl" | "isPremium">;

/**
 * The name others see (share pages, previews, collaborators): the one the
 * shopper chose, or "" (the pages then say "A wishlist"). Never derived from
 * the e-mail address (docs/identity.md "Account basics").
 */
export function ownerName(owner: OwnerRow): string {
  return owner.displayName ?? owner.username ?? "";
}

export type ListRow = Pick<Wishlist, "id" | "shareToken" | "name" | "description" | "imagePath" | "sharePublic" | "occasionSlug" | "createdAt" | "updatedAt"> & { owner: OwnerRow };

/** HostedList (SPEC 2.1), the owner/editor view. */
export function hostedList(list: ListRow, role: string, counts: { products: number; collaborators: number }) {
  return {
    id: list.shareToken,
    db_id: list.id,
    name: list.name,
    description: list.description,
    image_path: safeImageUrl(list.imagePath) ?? "",
    share_public: list.sharePublic,
    occasion_slug: list.occasionSlug,
    productCount: counts.products,
    collaboratorCount: counts.collaborators,
    // Shared = reachable by someone besides the owner: public link or collaborators.
    is_shared: list.sharePublic || counts.collaborators > 0,
    role,
    owner_id: list.owner.id,
    owner_name: ownerName(list.owner),
    owner_avatar: list.owner.avatarUrl,
    updated_at: list.updatedAt.toISOString(),
  };
}

/** HostedListDetail (SPEC 2.2), the public view: nothing about the owner beyond name, avatar, premium flag. */
export function hostedListDetail(
  list: ListRow,
  productCount: number,
  occasion: { titleDe: string; titleEn: string } | null,
  locale: Locale,
) {
  return {
    id: list.shareToken,
    internal_id: list.id,
    name: list.name,
    description: list.description,
    image_path: safeImageUrl(list.imagePath) ?? "",
    share_public: list.sharePublic,
    created_at: list.createdAt.toISOString(),
    updated_at: list.updatedAt.toISOString(),
    occasion_slug: list.occasionSlug,
    occasion_title: occasionTitle(occasion, locale),
    productCount,
    owner_username: ownerName(list.owner),
    owner_avatar: list.owner.avatarUrl,
    owner_is_premium: list.owner.isPremium,
  };
}

export type ItemRow = Pick<ListItem, (typeof ITEM_COLUMNS)[number]> & {
  product: Pick<Product, (typeof ITEM_PRODUCT_COLUMNS)[number]> & { localizations: Localization[] };
};

/** HostedProduct (SPEC 2.3). */
export function hostedProduct(item: ItemRow, locale: Locale) {
  const entries = item.product.localizations;
  const loc = pickLocalization(entries, locale);
  const price = pickPrice(entries, loc);
  return {
    id: item.product.id,
    wishlist_id: item.wishlistId,
    item_id: item.id,
    purchased: item.purchased,
    title: item.ownTitle || loc?.title || "",
    description: item.ownDescription || loc?.description || "",
    // Only http(s) or the service's media paths reach a page, whatever was stored or scraped.
    imageUrl: safeImageUrl(item.ownImageUrl ?? loc?.imageUrl ?? loc?.originalImageUrl),
    affiliateUrl: item.product.canonicalUrl,
    // The owner's override, else the saver's own price, else the catalogue's.
    price_minor: item.priceOverrideMinor ?? item.ownPriceMinor ?? price.priceMinor,
    currency:
      item.priceOverrideMinor != null
        ? (item.currencyOverride ?? item.ownCurrency ?? price.currency)
        : item.ownPriceMinor != null
          ? (item.ownCurrency ?? price.currency)
          : price.currency,
    source_label: item.sourceLabel,
    priority: item.priority,
    rating: item.product.rating,
    review_count: item.product.reviewCount,
    brand: item.product.brand,
    added_at: item.addedAt.toISOString(),
  };
}

export interface SavedItemRow extends ItemRow {
  checkoutMeta: unknown;
  variantId: string | null;
  sourcePartnerId: number | null;
  sourceShopId: number | null;
  sourceDomain: string | null;
  product: ItemRow["product"] & { productType: string | null; tags: unknown };
}

/** SavedProduct (SPEC 2.4); unset values are null. */
export function savedProduct(item: SavedItemRow, locale: Locale) {
  const base = hostedProduct(item, locale);
  const loc = pickLocalization(item.product.localizations, locale);
  return {
    id: base.id,
    wishlist_id: base.wishlist_id,
    item_id: base.item_id,
    source_partner_id: item.sourcePartnerId,
    source_shop_id: item.sourceShopId,
    source_domain: item.sourceDomain,
    title: base.title || null,
    description: base.description || null,
    imageUrl: base.imageUrl,
    image_url: base.imageUrl,
    affiliateUrl: base.affiliateUrl,
    url: item.product.canonicalUrl,
    price_minor: base.price_minor,
    price: base.price_minor,
    currency: base.currency,
    compare_at_price_minor: loc?.compareAtPriceMinor ?? null,
    brand: item.product.brand,
    product_type: item.product.productType,
    tags: Array.isArray(item.product.tags) ? item.product.tags : null,
    checkoutMeta: item.checkoutMeta ?? null,
    variantId: item.variantId,
  };
}
