// Filling the shop's cart URL from basket drawer lines (docs/storefront-protocol.md, Basket drawer step 5).
import { describe, expect, it } from "vitest";
import { cartActionLines, cartPlan, fillCartUrl, shopifyCartItems } from "~/sdk/cart";

const PATTERN = "/cart/add?id={variant_id}&quantity={quantity}";

describe("fillCartUrl", () => {
  it("fills variant and quantity, URL-encoded, every occurrence", () => {
    expect(fillCartUrl(PATTERN, { variantId: 42, quantity: 3 })).toBe("/cart/add?id=42&quantity=3");
    expect(fillCartUrl("https://s.example/c/{variant_id}/{variant_id}?q={quantity}", { variantId: "a b&c", quantity: 1 })).toBe(
      "https://s.example/c/a%20b%26c/a%20b%26c?q=1",
    );
  });

  it("defaults the quantity to 1 when missing or not a positive integer", () => {
    for (const quantity of [undefined, 0, -2, 1.5, Number.NaN]) {
      expect(fillCartUrl(PATTERN, { variantId: 7, quantity })).toBe("/cart/add?id=7&quantity=1");
    }
  });
});

describe("cartPlan", () => {
  it("one line: navigate there, nothing in the background", () => {
    expect(cartPlan(PATTERN, [{ variantId: 1, quantity: 2 }])).toEqual({ requests: [], navigate: "/cart/add?id=1&quantity=2" });
  });

  it("several lines: all but the last in the background, in order; navigate to the last", () => {
    expect(cartPlan(PATTERN, [{ variantId: 1 }, { variantId: "2", quantity: 4 }, { variantId: 3, quantity: 1 }])).toEqual({
      requests: ["/cart/add?id=1&quantity=1", "/cart/add?id=2&quantity=4"],
      navigate: "/cart/add?id=3&quantity=1",
    });
  });

  it("ignores lines without a variant and input that is not a list", () => {
    expect(cartPlan(PATTERN, [{ quantity: 2 }, null, { variantId: "" }, { variantId: {} }, { variantId: 5 }])).toEqual({
      requests: [],
      navigate: "/cart/add?id=5&quantity=1",
    });
    expect(cartPlan(PATTERN, "nope")).toEqual({ requests: [], navigate: null });
    expect(cartPlan(PATTERN, [])).toEqual({ requests: [], navigate: null });
  });
});

describe("Shopify's cart: AJAX cart items and updateCart lines", () => {
  const REF = "12.abcdefghijklmnopqrstuv";
  it("numeric variant ids become items; the reference becomes the _wish_ref property; bad lines and bad references are dropped", () => {
    const items = shopifyCartItems([
      { variantId: "41001", quantity: 2, ref: REF },
      { variantId: 41002 },
      { variantId: "gid://shopify/ProductVariant/9" },
      { variantId: "41003", ref: "not-a-ref" },
      null,
    ]);
    expect(items).toEqual([
      { id: 41001, quantity: 2, properties: { _wish_ref: REF } },
      { id: 41002, quantity: 1 },
      { id: 41003, quantity: 1 },
    ]);
    expect(shopifyCartItems("nope")).toEqual([]);
  });

  it("updateCart lines: variant GIDs, the reference as a line attribute", () => {
    expect(cartActionLines(shopifyCartItems([{ variantId: 5, quantity: 3, ref: REF }, { variantId: 6 }]))).toEqual([
      { merchandiseId: "gid://shopify/ProductVariant/5", quantity: 3, attributes: [{ key: "_wish_ref", value: REF }] },
      { merchandiseId: "gid://shopify/ProductVariant/6", quantity: 1, attributes: [] },
    ]);
  });
});
