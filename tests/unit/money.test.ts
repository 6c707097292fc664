// The money module: exponents, decimal amounts to minor units and back, formatting.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { currencyCode, currencyExponent, formatMoney, formatUnitPrice, MAX_MINOR, shopifyCentsToMinor, toAmount, toDecimal, toMinor } from "~/lib/money";

// Intl separates number and symbol with a no-break space.
const nb = (s: string) => s.replace(/ /g, "\u00a0");

describe("currencyExponent", () => {
  it.each([
    ["EUR", 2],
    ["USD", 2],
    ["CHF", 2],
    ["JPY", 0],
    ["KRW", 0],
    ["KWD", 3],
    ["BHD", 3],
    ["CLF", 4],
    // Pinned against CLDR: ISO 4217 and Shopify's price strings carry two decimals.
    ["HUF", 2],
    ["TWD", 2],
    ["IDR", 2],
    ["IQD", 3],
    ["ISK", 0],
    ["CLP", 0],
    ["jpy", 0],
  ])("%s has %d decimals", (code, digits) => {
    expect(currencyExponent(code)).toBe(digits);
  });

  it("is 2 for an unknown, missing or malformed code", () => {
    for (const code of ["ABC", "XXX", null, undefined, "", "EURO", "€", "x".repeat(10_000)]) expect(currencyExponent(code)).toBe(2);
  });

  it("normalises codes", () => {
    expect(currencyCode(" eur ")).toBe("EUR");
    for (const v of ["EURO", "E1R", 42, null, "x".repeat(10_000)]) expect(currencyCode(v)).toBeNull();
  });
});

describe("toMinor", () => {
  it.each([
    ["19.99", "EUR", 1999],
    ["1500", "JPY", 1500],
    ["1500.00", "JPY", 1500],
    ["1,500.00", "JPY", 1500],
    ["1,500.00", "USD", 150000],
    ["12.345", "KWD", 12345],
    ["12.3", "KWD", 12300],
    ["1500.00", "HUF", 150000],
    ["1499.50", "HUF", 149950],
    ["1500", "ISK", 1500],
    ["24.90", "CHF", 2490],
    ["0.5", "EUR", 50],
    [".5", "EUR", 50],
    ["007", "EUR", 700],
    ["19.995", "EUR", 2000],
    ["19.994", "EUR", 1999],
    ["1500.5", "JPY", 1501],
    ["15", "ABC", 1500],
    ["15", null, 1500],
    [19.99, "EUR", 1999],
    [0.1 + 0.2, "USD", 30],
    [1.005, "USD", 101],
    [1500, "JPY", 1500],
    [0, "EUR", 0],
    [1e-9, "EUR", 0],
    ["21474836.47", "EUR", MAX_MINOR],
  ] as const)("%j %s → %d", (value, currency, minor) => {
    expect(toMinor(value, currency)).toBe(minor);
  });

  it("is null for what is not a price, never NaN", () => {
    const bad: unknown[] = [
      "", " ", "free", "1.299,00", "1,50", "-5", "+5", "1e3", "5.", "1.2.3", "1,5000", "0x10",
      "9".repeat(41), "1".repeat(13), "21474836.48", 1e21, -1, Number.NaN, Number.POSITIVE_INFINITY,
      null, undefined, {}, [], true,
    ];
    for (const value of bad) expect(toMinor(value, "EUR"), JSON.stringify(value)).toBeNull();
    expect(toMinor("10", "EURO")).toBeNull();
    expect(toMinor("10", "x".repeat(100_000))).toBeNull();
  });

  it("turns Shopify's storefront cents into the currency's minor units", () => {
    expect(shopifyCentsToMinor(150000, "JPY")).toBe(1500);
    expect(shopifyCentsToMinor(2490, "EUR")).toBe(2490);
    expect(shopifyCentsToMinor(1235, "KWD")).toBe(12350);
    expect(shopifyCentsToMinor(149950, "HUF")).toBe(149950);
    for (const v of [-1, 1.5, "150000", Number.NaN, null]) expect(shopifyCentsToMinor(v, "JPY")).toBeNull();
  });
});

describe("toDecimal and toAmount", () => {
  it.each([
    [2490, "EUR", "24.90"],
    [5, "EUR", "0.05"],
    [0, "EUR", "0.00"],
    [-150, "USD", "-1.50"],
    [1500, "JPY", "1500"],
    [12345, "KWD", "12.345"],
    [45, "KWD", "0.045"],
    [149950, "HUF", "1499.50"],
    [1500, "ISK", "1500"],
  ] as const)("%d %s → %s", (minor, currency, decimal) => {
    expect(toDecimal(minor, currency)).toBe(decimal);
    expect(toMinor(decimal.replace("-", ""), currency)).toBe(Math.abs(minor));
  });

  it("gives numbers for APIs that take them", () => {
    expect(toAmount(2490, "EUR")).toBe(24.9);
    expect(toAmount(1500, "JPY")).toBe(1500);
    expect(toAmount(12345, "KWD")).toBe(12.345);
    for (const v of [1.5, Number.NaN, "10", null, 2 ** 60]) expect(toAmount(v, "EUR")).toBeNull();
  });
});

describe("formatMoney", () => {
  it.each([
    [2490, "EUR", "de-DE", "24,90 €"],
    [2490, "EUR", "en-US", "€24.90"],
    [123450, "USD", "en-US", "$1,234.50"],
    [1500, "JPY", "en-US", "¥1,500"],
    [1500, "JPY", "de-DE", "1.500 ¥"],
    [12345, "KWD", "en-US", "KWD 12.345"],
    [12345, "KWD", "de-DE", "12,345 KWD"],
    [123450, "CHF", "de-DE", "1.234,50 CHF"],
    [123450, "CHF", "en-US", "CHF 1,234.50"],
    [1500, "ABC", "en-US", "ABC 15.00"],
  ] as const)("%d %s in %s → %s", (minor, currency, locale, text) => {
    expect(formatMoney(minor, currency, locale)).toBe(nb(text));
  });

  it("shows a HUF price at its size, keeping a fraction Intl would round away", () => {
    // ¥, Ft: whole amounts in the locale's form; HUF 1,500.00 is 150000 minor units, never 150,000 Ft.
    expect(formatMoney(150000, "HUF", "de-DE")).toMatch(/^1\.500(,00)?\u00a0HUF$/);
    expect(formatMoney(149950, "HUF", "de-DE")).toBe(nb("1.499,50 HUF"));
  });

  it("without a currency writes the plain number", () => {
    expect(formatMoney(2490, null, "de-DE")).toBe("24,90");
    expect(formatMoney(2490, undefined, "en-US")).toBe("24.90");
  });

  it("is null for input it cannot show, and survives a malformed locale", () => {
    for (const minor of [Number.NaN, 1.5, "2490", null, undefined, 2 ** 60]) expect(formatMoney(minor, "EUR", "en-US")).toBeNull();
    expect(formatMoney(2490, "EURO", "en-US")).toBeNull();
    expect(formatMoney(2490, "x".repeat(100_000), "en-US")).toBeNull();
    expect(formatMoney(2490, "EUR", "not a locale!")).toBe("€24.90");
    expect(formatMoney(2490, "EUR", "x".repeat(100_000))).toBe("€24.90");
  });
});

describe("formatUnitPrice", () => {
  it("shows a fraction of the minor unit, up to two digits past the currency's own", () => {
    expect(formatUnitPrice(2.5, "USD", "en-US")).toBe("$0.025");
    expect(formatUnitPrice(0.5, "USD", "de-DE")).toBe("0,005\u00a0$");
    expect(formatUnitPrice(1, "USD", "en-US")).toBe("$0.01");
    expect(formatUnitPrice(2.5, "JPY", "en-US")).toBe("¥2.5");
    expect(formatUnitPrice(2.5, "KWD", "en-US")).toBe("KWD\u00a00.0025");
  });

  it("is null for a malformed currency or amount", () => {
    expect(formatUnitPrice(1, "", "en-US")).toBeNull();
    expect(formatUnitPrice(1, "EURO", "en-US")).toBeNull();
    expect(formatUnitPrice(Number.NaN, "USD", "en-US")).toBeNull();
  });
});

describe("the theme extension's copies of the exponents", () => {
  // Liquid and the extension's plain scripts cannot import money.ts: they list the codes whose
  // exponent is not 2. Both lists must be exactly money.ts's, over every currency Intl knows.
  const byExponent = (e: number) => Intl.supportedValuesOf("currency").filter((c) => currencyExponent(c) === e).sort();
  const codesIn = (text: string) => (text.match(/\b[A-Z]{3}\b/g) ?? []).sort();
  const extension = (file: string) => readFileSync(path.join(process.cwd(), "extensions/wishlist", file), "utf8");

  it("wish-minor-price.liquid divides exactly the 0-decimal currencies by 100 and multiplies the 3-decimal ones by 10", () => {
    const liquid = extension("snippets/wish-minor-price.liquid");
    const [zero, three] = [...liquid.matchAll(/\{%-? when ([^%]+)-?%\}/g)].map((m) => codesIn(m[1]!));
    expect(zero).toEqual(byExponent(0));
    expect(three).toEqual(byExponent(3));
    expect(byExponent(1).concat(byExponent(4).filter((c) => c !== "CLF"))).toEqual([]);
  });

  it("wish-cards.js lists the same codes", () => {
    const js = extension("assets/wish-cards.js");
    expect(codesIn(/var ZERO = "([^"]+)"/.exec(js)![1]!)).toEqual(byExponent(0));
    expect(codesIn(/var THREE = "([^"]+)"/.exec(js)![1]!)).toEqual(byExponent(3));
  });
});
