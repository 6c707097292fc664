// Filling the shop's cart URL pattern from the basket drawer's lines
// (docs/storefront-protocol.md, Basket drawer step 5). Pure, unit-tested.

export interface CartLine {
  variantId: string | number;
  quantity?: number;
  /** The list item's signed reference (`wish_ref` of the saved product). */
  ref?: string;
}

const REF = /^\d{1,10}\.[\w-]{22}$/;

const quantityOf = (q: unknown) => (typeof q === "number" && Number.isInteger(q) && q > 0 ? q : 1);

/**
 * `cartUrl` with `{variant_id}`, `{quantity}` and `{wish_ref}` filled
 * (URL-encoded); quantity defaults to 1. A line's reference also goes onto a
 * Shopify `/cart/add` URL without `{wish_ref}` as `properties[_wish_ref]`, the
 * line-item property the shop's orders webhook reads.
 */
export function fillCartUrl(pattern: string, line: CartLine): string {
  const ref = typeof line.ref === "string" && REF.test(line.ref) ? line.ref : "";
  const url = pattern
    .split("{variant_id}")
    .join(encodeURIComponent(String(line.variantId)))
    .split("{quantity}")
    .join(String(quantityOf(line.quantity)))
    .split("{wish_ref}")
    .join(encodeURIComponent(ref));
  if (!ref || pattern.includes("{wish_ref}") || !/\/cart\/add(?:\.js)?(?:[?#]|$)/.test(url)) return url;
  const [beforeHash, hash] = url.split("#", 2) as [string, string | undefined];
  const joiner = beforeHash.includes("?") ? "&" : "?";
  return `${beforeHash}${joiner}${encodeURIComponent("properties[_wish_ref]")}=${encodeURIComponent(ref)}${hash !== undefined ? `#${hash}` : ""}`;
}

/** What the page does for `lines`: request all but the last URL in the background, then navigate to the last. */
export function cartPlan(pattern: string, lines: unknown): { requests: string[]; navigate: string | null } {
  const valid = (Array.isArray(lines) ? lines : []).filter(
    (l): l is CartLine =>
      !!l && (typeof l.variantId === "string" ? l.variantId !== "" : typeof l.variantId === "number"),
  );
  const urls = valid.map((line) => fillCartUrl(pattern, line));
  return { requests: urls.slice(0, -1), navigate: urls.length ? urls[urls.length - 1]! : null };
}

// ---- Shopify's own cart (the app embed's drawer): the theme's storefront cart
// actions, else the AJAX cart. Both carry the reference as the `_wish_ref`
// line-item property (a leading underscore hides it from the shopper).

export interface ShopifyCartItem {
  id: number;
  quantity: number;
  properties?: { _wish_ref: string };
}

/** The drawer's lines as AJAX cart items (`POST /cart/add.js {items}`); lines without a numeric variant id are dropped. */
export function shopifyCartItems(lines: unknown): ShopifyCartItem[] {
  return (Array.isArray(lines) ? lines : []).flatMap((l: CartLine | null) => {
    const id = Number(l?.variantId);
    if (!l || !Number.isSafeInteger(id) || id <= 0) return [];
    const item: ShopifyCartItem = { id, quantity: quantityOf(l.quantity) };
    if (typeof l.ref === "string" && REF.test(l.ref)) item.properties = { _wish_ref: l.ref };
    return [item];
  });
}

/** The same items as the `updateCart` storefront action takes them (Storefront API cart lines). */
export function cartActionLines(items: ShopifyCartItem[]) {
  return items.map((i) => ({
    merchandiseId: "gid://shopify/ProductVariant/" + i.id,
    quantity: i.quantity,
    attributes: i.properties ? [{ key: "_wish_ref", value: i.properties._wish_ref }] : [],
  }));
}
