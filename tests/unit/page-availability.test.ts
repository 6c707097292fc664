// Whether a product page says the product can be bought (the scheduled
// re-read's back-in-stock alerts, docs/alerts.md): JSON-LD offers'
// `availability` and Shopify's `available`, read by the pure page reader.
import { describe, expect, it } from "vitest";
import { extractProduct } from "~/domains/products/page-extract.server";

const ld = (product: unknown) =>
  `<!doctype html><html><head><title>T</title><script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", ...(product as object) })}</script></head><body></body></html>`;

const availableOf = (html: string, shopifyJson: string | null = null, url = "https://shop.example/item/1") =>
  extractProduct({ url, finalUrl: url, html, shopifyJson }).available;

const offer = (availability?: string) => ({ "@type": "Offer", price: "10.00", priceCurrency: "EUR", ...(availability ? { availability } : {}) });

describe("availability of a product page", () => {
  it("reads schema.org values with and without the schema.org prefix", () => {
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer("https://schema.org/InStock") }))).toBe(true);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer("http://schema.org/OutOfStock") }))).toBe(false);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer("SoldOut") }))).toBe(false);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer("Discontinued") }))).toBe(false);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer("https://schema.org/PreOrder") }))).toBe(true);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer("LimitedAvailability") }))).toBe(true);
  });

  it("says nothing when the offers say nothing, or there is no JSON-LD product", () => {
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: offer() }))).toBeNull();
    expect(availableOf(`<html><head><title>Only a title</title><meta property="og:title" content="A"></head></html>`)).toBeNull();
  });

  it("any offer available makes the product available: several offers, AggregateOffer, a ProductGroup's variants", () => {
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: [offer("OutOfStock"), offer("InStock")] }))).toBe(true);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: { "@type": "AggregateOffer", offers: [offer("OutOfStock"), offer("OutOfStock")] } }))).toBe(false);
    expect(availableOf(ld({ "@type": "Product", name: "A", offers: { "@type": "AggregateOffer", lowPrice: "5", offers: [offer("OutOfStock"), offer("InStock")] } }))).toBe(true);
    const group = (a: string, b: string) => ({ "@type": "ProductGroup", name: "G", hasVariant: [{ "@type": "Product", offers: offer(a) }, { "@type": "Product", offers: offer(b) }] });
    expect(availableOf(ld(group("OutOfStock", "InStock")))).toBe(true);
    expect(availableOf(ld(group("OutOfStock", "SoldOut")))).toBe(false);
  });

  it("Shopify's product JSON: the chosen variant's `available`", () => {
    const json = JSON.stringify({ title: "S", price: 1000, variants: [{ id: 1, price: 1000, available: false }, { id: 2, price: 1200, available: true }] });
    const url = "https://shop.example/products/s";
    expect(availableOf(ld({ "@type": "Product", name: "S" }), json, url)).toBe(true); // no ?variant=: the first available one
    expect(availableOf(ld({ "@type": "Product", name: "S" }), json, `${url}?variant=1`)).toBe(false);
    const none = JSON.stringify({ title: "S", price: 1000, variants: [{ id: 1, price: 1000, available: false }] });
    expect(availableOf(ld({ "@type": "Product", name: "S" }), none, url)).toBe(false);
  });
});
