// The basket drawer shows and adds each saved product once (docs/storefront-protocol.md, Basket drawer step 4).
import { describe, expect, it } from "vitest";
import { lineOf, uniqueSaved, type Saved } from "~/hosted-pages/basket-lines";

const saved = (item_id: number, url: string | null, variantId: string | null, quantity?: number): Saved => ({
  item_id,
  title: `Item ${item_id}`,
  url,
  imageUrl: null,
  price_minor: null,
  currency: null,
  variantId,
  checkoutMeta: quantity === undefined ? null : { quantity },
});

describe("uniqueSaved", () => {
  it("keeps the first item of a product and variant when the account holds it in two lists", () => {
    const products = [
      saved(1, "https://shop.example/products/kettle", "11", 2),
      saved(2, "https://shop.example/products/lamp", "22"),
      saved(3, "https://shop.example/products/kettle?utm_source=mail", "11"),
    ];
    expect(uniqueSaved(products).map((p) => p.item_id)).toEqual([1, 2]);
    expect(uniqueSaved(products).map(lineOf)).toEqual([
      { variantId: "11", quantity: 2 },
      { variantId: "22", quantity: 1 },
    ]);
  });

  it("keeps two variants of one product, and two products that share a variant id", () => {
    const products = [
      saved(1, "https://shop.example/products/shirt", "1"),
      saved(2, "https://shop.example/products/shirt", "2"),
      saved(3, "https://other.example/products/mug", "1"),
    ];
    expect(uniqueSaved(products).map((p) => p.item_id)).toEqual([1, 2, 3]);
  });

  it("drops an item without a variant when the page is shown with one, and keeps one item of a page without any", () => {
    const products = [
      saved(1, "https://shop.example/products/vase", null),
      saved(2, "https://shop.example/products/vase", "5"),
      saved(3, "https://shop.example/products/book", null),
      saved(4, "https://shop.example/products/book/", null),
      saved(5, null, null),
      saved(6, null, null),
    ];
    expect(uniqueSaved(products).map((p) => p.item_id)).toEqual([2, 3, 5, 6]);
  });
});
