// Public keys (`pk_test_…`, `pk_live_…`) and their allow-lists (SPEC section 5
// rules 3-6). Rotation, deletion and editing the allow-list build on
// generateKeyValue, normalizeAllowList and getApiKey.
import { randomBytes } from "node:crypto";
import { db } from "~/db.server";
import { badRequest, notFound } from "~/lib/api/errors";
import { assertPartnerExists } from "~/domains/partners/partners.server";

export type KeyEnvironment = "test" | "live";
export const KEY_ENVIRONMENTS: readonly KeyEnvironment[] = ["test", "live"];
/** Enough for any real shop; keeps init's origin check cheap. */
export const MAX_ALLOWED_DOMAINS = 100;

interface ApiKeyRow {
  id: number;
  partnerId: number;
  key: string;
  environment: string;
  status: string;
  allowedDomains: unknown;
  createdAt: Date;
}

export function generateKeyValue(environment: KeyEnvironment): string {
  return `pk_${environment}_${randomBytes(24).toString("base64url")}`;
}

export function parseEnvironment(value: string): KeyEnvironment {
  if (!(KEY_ENVIRONMENTS as string[]).includes(value)) {
    throw badRequest("invalid_environment", "environment must be test or live");
  }
  return value as KeyEnvironment;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * One allow-list entry as stored: a host name without scheme, path or port,
 * lowercase (international names in punycode), optionally prefixed by `*.`
 * for any subdomain. At least two labels and a non-numeric top-level label,
 * so bare words and IP addresses are rejected (localhost is always allowed
 * at init anyway). Anything else is 400 `invalid_domain`.
 */
export function normalizeDomain(entry: string): string {
  const invalid = (why: string) =>
    badRequest("invalid_domain", `${JSON.stringify(entry)} is not a valid allowed domain: ${why}`);
  const value = entry.trim().toLowerCase();
  if (!value) throw invalid("empty");
  if (/\s/.test(value)) throw invalid("contains spaces");
  if (value.includes("://")) throw invalid("give the host without scheme");
  if (/[/?#@\\]/.test(value)) throw invalid("give the host only, without path, query or credentials");
  const wildcard = value.startsWith("*.");
  const host = wildcard ? value.slice(2) : value;
  if (host.includes("*")) throw invalid("a wildcard is only allowed as a leading `*.`");
  if (host.includes(":")) throw invalid("give the host without port");
  // Letters (international names allowed), digits, dots and hyphens only.
  if (!/^[\p{L}\p{M}\p{N}.-]+$/u.test(host)) throw invalid("not a host name");
  let ascii: string;
  try {
    ascii = new URL(`http://${host}`).hostname;
  } catch {
    throw invalid("not a host name");
  }
  const labels = ascii.split(".");
  if (ascii.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw invalid("not a host name");
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) throw invalid("IP addresses are not allowed");
  return wildcard ? `*.${ascii}` : ascii;
}

/** Normalized, de-duplicated allow-list, order kept. */
export function normalizeAllowList(entries: readonly string[]): string[] {
  const normalized = [...new Set(entries.map(normalizeDomain))];
  if (normalized.length > MAX_ALLOWED_DOMAINS) {
    throw badRequest("invalid_domain", `at most ${MAX_ALLOWED_DOMAINS} allowed domains per key`);
  }
  return normalized;
}

/** The stored Json column as a string array (tolerates anything else as empty). */
export function allowedDomainsOf(row: { allowedDomains: unknown }): string[] {
  return Array.isArray(row.allowedDomains) ? row.allowedDomains.filter((d): d is string => typeof d === "string") : [];
}

export function apiKeyJson(row: ApiKeyRow) {
  return {
    id: row.id,
    key: row.key,
    environment: row.environment,
    status: row.status,
    allowed_domains: allowedDomainsOf(row),
    created_at: row.createdAt.toISOString(),
  };
}

export async function createApiKey(
  partnerId: number,
  input: { environment: string; allowedDomains?: readonly string[]; createdAt?: Date },
) {
  const environment = parseEnvironment(input.environment);
  const allowedDomains = normalizeAllowList(input.allowedDomains ?? []);
  await assertPartnerExists(partnerId);
  // No allow-list check here: the 2026-09-01 rule is enforced at init (403 allowlist_required).
  return db.apiKey.create({
    data: {
      partnerId,
      key: generateKeyValue(environment),
      environment,
      allowedDomains,
      // Back-dating exists for the CLI, so time-dependent rules can be exercised.
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    },
  });
}

/** The key or 404 `api_key_not_found`. */
export async function getApiKey(id: number) {
  const row = Number.isSafeInteger(id) ? await db.apiKey.findUnique({ where: { id } }) : null;
  if (!row) throw notFound("api_key_not_found", `No key with id ${id}`);
  return row;
}

/** Revocation is immediate and idempotent (the first revokedAt is kept). */
export async function revokeApiKey(id: number) {
  const row = await getApiKey(id);
  if (row.status === "revoked") return row;
  return db.apiKey.update({ where: { id }, data: { status: "revoked", revokedAt: new Date() } });
}
