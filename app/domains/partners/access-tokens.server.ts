// Personal access tokens for partner-portal tooling (SPEC section 5 rule 7):
// shown once at creation, stored only as a SHA-256 hash, revocable, expire
// after 365 days by default, scoped to one partner.
import { createHash, randomBytes } from "node:crypto";
import { db } from "~/db.server";
import { badRequest, notFound } from "~/lib/api/errors";
import { assertPartnerExists } from "./partners.server";

export const PAT_PREFIX = "wpat_";
export const DEFAULT_PAT_TTL_DAYS = 365;
const MAX_PAT_TTL_DAYS = 3650;

// 256 random bits: a fast hash is enough, unlike for passwords.
export const hashAccessToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createPersonalAccessToken(
  partnerId: number,
  { name = "", expiresInDays = DEFAULT_PAT_TTL_DAYS }: { name?: string; expiresInDays?: number } = {},
) {
  if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > MAX_PAT_TTL_DAYS) {
    throw badRequest("invalid_input", `expires_in_days must be an integer from 1 to ${MAX_PAT_TTL_DAYS}`);
  }
  await assertPartnerExists(partnerId);
  const token = PAT_PREFIX + randomBytes(32).toString("base64url");
  const row = await db.personalAccessToken.create({
    data: {
      partnerId,
      name: name.trim(),
      tokenHash: hashAccessToken(token),
      expiresAt: new Date(Date.now() + expiresInDays * 86_400_000),
    },
  });
  // The only time the token leaves the service.
  return { id: row.id, partner_id: partnerId, name: row.name, token, expires_at: row.expiresAt.toISOString() };
}

/** The partner a token speaks for; null when unknown, revoked or expired. */
export async function authenticatePersonalAccessToken(
  token: string,
  now = new Date(),
): Promise<{ partnerId: number; tokenId: number } | null> {
  if (!token.startsWith(PAT_PREFIX)) return null;
  const row = await db.personalAccessToken.findUnique({ where: { tokenHash: hashAccessToken(token) } });
  if (!row || row.revokedAt || row.expiresAt <= now) return null;
  // Throttled to one write a minute per token so busy tooling does not write on every call.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.personalAccessToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { partnerId: row.partnerId, tokenId: row.id };
}

/** Revokes one of the partner's tokens; 404 when it is not theirs. Idempotent. */
export async function revokePersonalAccessToken(partnerId: number, id: number) {
  const row = await db.personalAccessToken.findFirst({ where: { id, partnerId } });
  if (!row) throw notFound("token_not_found", `No access token with id ${id} for partner ${partnerId}`);
  const revoked = row.revokedAt
    ? row
    : await db.personalAccessToken.update({ where: { id }, data: { revokedAt: new Date() } });
  return personalAccessTokenJson(revoked);
}

/** Metadata only: the token itself is never stored. */
export function personalAccessTokenJson(row: {
  id: number;
  partnerId: number;
  name: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}) {
  return {
    id: row.id,
    partner_id: row.partnerId,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
