// Public keys (`pk_test_…`, `pk_live_…`) and their lifecycle (SPEC section 5
// rules 3-6): create, rotate, revoke, delete, edit the allow-list. Every
// partner-facing function takes the partner id and treats another partner's
// key exactly like a missing one (404), so ids reveal nothing.
import { randomBytes } from "node:crypto";
import { db } from "~/db.server";
import { ApiError, badRequest, notFound } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { assertPartnerExists } from "~/domains/partners/partners.server";
import { localCounts } from "~/domains/metering/request-counter.server";
import { noteKeyStatus } from "./key-status.server";
import { invalidateKeyConfig } from "./key-config.server";
import { allowedDomainsOf } from "./key-rules";

export type KeyEnvironment = "test" | "live";
export const KEY_ENVIRONMENTS: readonly KeyEnvironment[] = ["test", "live"];
/** Enough for any real shop; keeps init's origin check cheap. */
export const MAX_ALLOWED_DOMAINS = 100;
/** How long the old value of a rotated key keeps working (SPEC section 5 rule 6). */
export const ROTATION_GRACE_MS = 15 * 60_000;

interface ApiKeyRow {
  id: number;
  partnerId: number;
  key: string;
  environment: string;
  status: string;
  allowedDomains: unknown;
  requestPlan: string;
  createdAt: Date;
  revokedAt: Date | null;
  rotatedToId: number | null;
  graceExpiresAt: Date | null;
  lastUsedAt: Date | null;
}

export function generateKeyValue(environment: KeyEnvironment): string {
  return `pk_${environment}_${randomBytes(24).toString("base64url")}`;
}

/** SPEC 5 rule 6 calls production keys `prod`; they are stored (and prefixed) as `live`. */
export function parseEnvironment(value: string): KeyEnvironment {
  if (value === "prod") return "live";
  if (!(KEY_ENVIRONMENTS as string[]).includes(value)) {
    throw badRequest("invalid_environment", "environment must be test or prod (live is accepted as its other name)");
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
export function apiKeyJson(row: ApiKeyRow) {
  return {
    id: row.id,
    key: row.key,
    environment: row.environment,
    status: row.status,
    allowed_domains: allowedDomainsOf(row),
    created_at: row.createdAt.toISOString(),
    // The key's own plan; "trial" means it follows the partner's plan (see plans/plans.ts).
    request_plan: row.requestPlan,
    rotated_to_id: row.rotatedToId,
    grace_expires_at: row.graceExpiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
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

/** The key or 404 `api_key_not_found` (operator scope: any partner's key). */
export async function getApiKey(id: number) {
  const row = Number.isSafeInteger(id) ? await db.apiKey.findUnique({ where: { id } }) : null;
  if (!row) throw notFound("api_key_not_found", `No key with id ${id}`);
  return row;
}

/** The partner's key; another partner's key is reported as missing, never as forbidden. */
export async function getPartnerApiKey(partnerId: number, id: number) {
  const row = Number.isSafeInteger(id) ? await db.apiKey.findFirst({ where: { id, partnerId } }) : null;
  if (!row) throw notFound("api_key_not_found", `No key with id ${id}`);
  return row;
}

/** All keys of the partner, oldest first (rotated and revoked ones included until deleted). */
export async function listApiKeys(partnerId: number) {
  await assertPartnerExists(partnerId);
  return db.apiKey.findMany({ where: { partnerId }, orderBy: { id: "asc" } });
}

/** Revocation is immediate and idempotent (the first revokedAt is kept). */
export async function revokeApiKey(partnerId: number, id: number) {
  const row = await getPartnerApiKey(partnerId, id);
  if (row.status === "revoked") return row;
  const revoked = await db.apiKey.update({ where: { id }, data: { status: "revoked", revokedAt: new Date() } });
  await Promise.all([noteKeyStatus(id, revoked), invalidateKeyConfig(partnerId)]);
  return revoked;
}

/**
 * Replaces an active key by a new value with the same environment,
 * allow-list and request plan. The old value keeps working for
 * ROTATION_GRACE_MS so deployed pages can switch over; 409 `key_not_active`
 * for rotated or revoked keys.
 */
export async function rotateApiKey(partnerId: number, id: number, now: Date = new Date()) {
  const old = await getPartnerApiKey(partnerId, id);
  const notActive = () =>
    new ApiError(409, "key_not_active", `Key ${id} is ${old.status}; only an active key can be rotated`);
  if (old.status !== "active") throw notActive();
  const environment = parseEnvironment(old.environment);
  const result = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        partnerId,
        key: generateKeyValue(environment),
        environment,
        allowedDomains: allowedDomainsOf(old),
        requestPlan: old.requestPlan,
      },
    });
    // Conditional on still being active: of two concurrent rotations only one
    // wins; the loser's transaction (and its new key) is rolled back.
    const { count } = await tx.apiKey.updateMany({
      where: { id, partnerId, status: "active" },
      data: { status: "rotated", rotatedToId: created.id, graceExpiresAt: new Date(now.getTime() + ROTATION_GRACE_MS) },
    });
    if (count !== 1) throw notActive();
    const rotated = await tx.apiKey.findUniqueOrThrow({ where: { id } });
    return { key: created, rotated };
  });
  await Promise.all([noteKeyStatus(id, result.rotated), invalidateKeyConfig(partnerId)]);
  return result;
}

/**
 * Deletes a key that is revoked or was never used (SPEC section 5 rule 6);
 * 409 `key_in_use` otherwise, so a live integration cannot lose its key by
 * accident (revoke first). "Used" means a recorded use, a request counter
 * row, or requests this instance counted but has not flushed yet.
 */
export async function deleteApiKey(partnerId: number, id: number) {
  const row = await getPartnerApiKey(partnerId, id);
  if (row.status !== "revoked") {
    const counted = await db.apiKeyRequestCounter.count({ where: { apiKeyId: id } });
    if (row.lastUsedAt || counted > 0 || localCounts(id).month > 0) {
      throw new ApiError(409, "key_in_use", `Key ${id} has been used; revoke it before deleting it`);
    }
  }
  await db.$transaction([
    // Counters have no foreign key, and a predecessor should not point at a missing key.
    db.apiKeyRequestCounter.deleteMany({ where: { apiKeyId: id } }),
    db.apiKey.updateMany({ where: { rotatedToId: id }, data: { rotatedToId: null } }),
    db.apiKey.deleteMany({ where: { id, partnerId } }),
  ]);
  // Tokens of a deleted key stop at once everywhere, even where the revocation went unseen.
  await Promise.all([noteKeyStatus(id, { status: "deleted", graceExpiresAt: null }), invalidateKeyConfig(partnerId)]);
  return { ok: true as const, deleted: id };
}

/** Replaces the allow-list (normalized; 400 `invalid_domain`). An empty list is allowed. */
export async function setAllowList(partnerId: number, id: number, domains: readonly string[]) {
  const allowedDomains = normalizeAllowList(domains);
  await getPartnerApiKey(partnerId, id);
  const updated = await db.apiKey.update({ where: { id }, data: { allowedDomains } });
  await invalidateKeyConfig(partnerId);
  return updated;
}

const TOUCH_INTERVAL_MS = 60_000;
/** Key id → when this process last wrote its lastUsedAt. */
const lastTouched = new Map<number, number>();

/**
 * Records that a key was used, at most once a minute per key and process,
 * so busy keys do not cost a write per request. Never throws: it is
 * bookkeeping and must not fail the request that uses the key.
 */
export async function touchKeyUsed(id: number, now: Date = new Date()): Promise<void> {
  const last = lastTouched.get(id);
  if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS) return;
  if (lastTouched.size >= 10_000) lastTouched.clear();
  // Set before the write so concurrent requests of the same key do not all write.
  lastTouched.set(id, now.getTime());
  try {
    await db.apiKey.updateMany({ where: { id }, data: { lastUsedAt: now } });
  } catch (err) {
    lastTouched.delete(id);
    log.error("recording key use failed", { apiKeyId: id, ...errorFields(err) });
  }
}
