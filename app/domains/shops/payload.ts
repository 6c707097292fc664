// Lenient readers for Shopify webhook payloads: a field of the wrong type
// reads as missing, so an odd payload is processed as far as it makes sense
// and never crashes a request.

export type Fields = Record<string, unknown>;

export const record = (value: unknown): Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : {};

export const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Trimmed non-empty string of at most `max` characters, else null. */
export function text(value: unknown, max = 1000): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

/** A Shopify numeric id (number, digit string or `gid://shopify/<Type>/<n>`) as a digit string, else null. */
export function shopifyId(value: unknown): string | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? String(value) : null;
  if (typeof value !== "string") return null;
  const match = /^(?:gid:\/\/shopify\/\w+\/)?(\d{1,20})$/.exec(value.trim());
  return match ? match[1]! : null;
}

/** ISO 4217 code in upper case, else null. */
export function currencyCode(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z]{3}$/.test(value.trim()) ? value.trim().toUpperCase() : null;
}

/** Digits after the decimal point of a currency (JPY 0, EUR 2, KWD 3); 2 when unknown. */
export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Shopify's decimal price string ("19.99") in minor units of `currency`; null when not a price. */
export function minorUnits(value: unknown, currency: string): number | null {
  const raw = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,12}(?:\.\d{1,6})?$/.test(raw)) return null;
  const minor = Math.round(Number(raw) * 10 ** fractionDigits(currency));
  // The catalogue's price columns are 32-bit integers.
  return Number.isSafeInteger(minor) && minor <= 2_147_483_647 ? minor : null;
}

/** Minor units of `currency` as a decimal number (2490 EUR → 24.9, 1500 JPY → 1500). */
export function decimalAmount(minor: number, currency: string): number {
  return minor / 10 ** fractionDigits(currency);
}
