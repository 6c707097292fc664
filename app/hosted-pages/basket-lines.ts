// What the basket drawer shows and puts in the cart: each saved product once,
// even when the account holds it in two lists (two shops' saves, a merge), so
// "Add all" never adds a product twice. Browser and server alike (no I/O).
import { urlKey } from "~/sdk/url-key";

export interface Saved {
  item_id: number;
  title: string | null;
  url: string | null;
  imageUrl: string | null;
  price_minor: number | null;
  currency: string | null;
  variantId: string | null;
  checkoutMeta: Record<string, unknown> | null;
  wish_ref?: string;
}

export interface CartLine {
  variantId: string;
  quantity: number;
  /** The item's signed reference; the shop page's cart URL passes it on as a line-item property. */
  ref?: string;
}

/** The checkout line of a saved product: its variant and quantity (default 1), or null without a variant. */
export function lineOf(p: Saved): CartLine | null {
  const meta = p.checkoutMeta ?? {};
  const variant = p.variantId ?? meta.variantId ?? meta.variant_id;
  if (variant === undefined || variant === null || variant === "") return null;
  const quantity = Number(meta.quantity);
  return {
    variantId: String(variant),
    quantity: Number.isInteger(quantity) && quantity > 0 && quantity <= 999 ? quantity : 1,
    ...(p.wish_ref ? { ref: p.wish_ref } : {}),
  };
}

/**
 * The saved products with each product once, in their order: the first item
 * of a product page and variant, and of a page without a variant the first
 * item unless an item of that page with a variant is shown already.
 */
export function uniqueSaved(products: Saved[]): Saved[] {
  const pageOf = (p: Saved) => (p.url ? urlKey(p.url) : `item:${p.item_id}`);
  const withVariant = new Set(products.filter((p) => lineOf(p)).map(pageOf));
  const seen = new Set<string>();
  return products.filter((p) => {
    const variant = lineOf(p)?.variantId;
    if (variant === undefined && withVariant.has(pageOf(p))) return false;
    const key = `${pageOf(p)} ${variant ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
