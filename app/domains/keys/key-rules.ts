// The rules of a public key that do not need the database (SPEC 5, 9): when
// it works, and from when a live key needs an allowed domain.

/** Live keys created after this instant must have an allowed domain (SPEC 9). */
export const ALLOWLIST_RULE_DATE = new Date("2026-09-01T00:00:00Z");

/** A key works while active, and a rotated key until its grace period ends. */
export function isKeyUsable(key: { status: string; graceExpiresAt: Date | null }, now = new Date()): boolean {
  return key.status === "active" || (key.status === "rotated" && key.graceExpiresAt !== null && key.graceExpiresAt > now);
}

/** A key's allowed domains as stored (a JSON array; anything else is none). */
export function allowedDomainsOf(row: { allowedDomains: unknown }): string[] {
  return Array.isArray(row.allowedDomains) ? row.allowedDomains.filter((d): d is string => typeof d === "string") : [];
}
