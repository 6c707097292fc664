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

/** A timestamp field (`updated_at`: ISO 8601 with offset), else null. */
export function timestamp(value: unknown): Date | null {
  if (typeof value !== "string" || value.length > 64) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

// Currencies and amounts: ~/lib/money (toMinor reads Shopify's decimal price strings).
export { currencyCode } from "~/lib/money";
