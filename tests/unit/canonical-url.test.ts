import { describe, expect, it } from "vitest";
import { canonicalUrl } from "~/domains/products/canonical-url";

describe("canonicalUrl", () => {
  it("removes tracking parameters and keeps product-selecting ones", () => {
    expect(
      canonicalUrl("https://Shop.Example.com/products/mug?utm_source=news&variant=42&gclid=abc&fbclid=x&mc_cid=1&_ga=2&color=red#reviews"),
    ).toBe("https://shop.example.com/products/mug?color=red&variant=42");
  });

  it("gives the same URL for the same product behind different campaign links", () => {
    const a = canonicalUrl("https://shop.example.com/products/mug/?utm_campaign=a&msclkid=1");
    const b = canonicalUrl("HTTPS://SHOP.EXAMPLE.COM:443/products/mug?utm_medium=b");
    expect(a).toBe(b);
  });

  it("sorts what is kept, drops credentials, fragments and default ports", () => {
    expect(canonicalUrl("http://user:pw@shop.example.com:80/p?b=2&a=1#x")).toBe("http://shop.example.com/p?a=1&b=2");
  });

  it.each(["", "not a url", "ftp://shop.example.com/x", "javascript:alert(1)", "/relative/path"])(
    "rejects %j",
    (input) => expect(canonicalUrl(input)).toBeNull(),
  );
});
