// Filling the shop's cart URL pattern from the basket drawer's lines
// (docs/storefront-protocol.md, Basket drawer step 5). Pure, unit-tested.

export interface CartLine {
  variantId: string | number;
  quantity?: number;
}

const quantityOf = (q: unknown) => (typeof q === "number" && Number.isInteger(q) && q > 0 ? q : 1);

/** `cartUrl` with `{variant_id}` and `{quantity}` filled (URL-encoded); quantity defaults to 1. */
export function fillCartUrl(pattern: string, line: CartLine): string {
  return pattern
    .split("{variant_id}")
    .join(encodeURIComponent(String(line.variantId)))
    .split("{quantity}")
    .join(String(quantityOf(line.quantity)));
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
