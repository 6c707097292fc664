// Personal access tokens for partner-portal tooling (SPEC section 5 rule 7):
// shown once at creation, stored only as a SHA-256 hash, revocable, expire
// after 365 days by default, scoped to one partner. "Same rights as the portal
// login": a token a portal user created acts with that user's current role in
// the partner, and dies with the membership (removal, leaving, account
// deletion). Tokens no portal user created (operator CLI, embedded admin) act
// as an owner.
import { createHash, randomBytes } from "node:crypto";
import { db, type Prisma } from "~/db.server";
import { badRequest, notFound } from "~/lib/api/errors";
import type { PartnerRole } from "./principal";
import { assertPartnerExists } from "./partners.server";

export const PAT_PREFIX = "wpat_";
export const DEFAULT_PAT_TTL_DAYS = 365;
const MAX_PAT_TTL_DAYS = 3650;

// 256 random bits: a fast hash is enough, unlike for passwords.
export const hashAccessToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * `createdById`: the portal user on whose behalf it is minted (a portal user's
 * own token, or the creator of the access token that mints it); null only for
 * the operator and the embedded admin.
 */
export async function createPersonalAccessToken(
  partnerId: number,
  {
    name = "",
    expiresInDays = DEFAULT_PAT_TTL_DAYS,
    createdById = null,
  }: { name?: string; expiresInDays?: number; createdById?: string | null } = {},
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
      createdById,
    },
  });
  // The only time the token leaves the service.
  return { id: row.id, partner_id: partnerId, name: row.name, token, expires_at: row.expiresAt.toISOString(), created_by: row.createdById };
}

export interface AuthenticatedAccessToken {
  partnerId: number;
  tokenId: number;
  /** The portal user who created it (null: operator or embedded admin). */
  createdById: string | null;
  /** The role it acts with: its creator's role in the partner right now; `owner` without a creator. */
  role: PartnerRole;
}

/**
 * The partner a token speaks for and the role it acts with; null when unknown,
 * revoked, expired, or when its creator is no longer a member of the partner.
 * Read from the database on every call, so a revocation or a removal counts
 * at once on every instance.
 */
export async function authenticatePersonalAccessToken(token: string, now = new Date()): Promise<AuthenticatedAccessToken | null> {
  if (!token.startsWith(PAT_PREFIX)) return null;
  const row = await db.personalAccessToken.findUnique({ where: { tokenHash: hashAccessToken(token) } });
  if (!row || row.revokedAt || row.expiresAt <= now) return null;
  let role: PartnerRole = "owner";
  if (row.createdById !== null) {
    // Removal and account deletion revoke the creator's tokens too; this also
    // covers a membership that went any other way.
    const link = await db.partnerUser.findUnique({
      where: { partnerId_userId: { partnerId: row.partnerId, userId: row.createdById } },
      select: { role: true },
    });
    if (!link) return null;
    role = link.role === "owner" ? "owner" : "member";
  }
  // Throttled to one write a minute per token so busy tooling does not write on every call.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.personalAccessToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { partnerId: row.partnerId, tokenId: row.id, createdById: row.createdById, role };
}

/**
 * Revokes the tokens a portal user created, for one partner (their membership
 * ended) or for all (their account is deleted), in the caller's transaction.
 */
export async function revokeAccessTokensCreatedBy(
  tx: Prisma.TransactionClient,
  userId: string,
  { partnerId, at = new Date() }: { partnerId?: number; at?: Date } = {},
): Promise<number> {
  const { count } = await tx.personalAccessToken.updateMany({
    where: { createdById: userId, revokedAt: null, ...(partnerId === undefined ? {} : { partnerId }) },
    data: { revokedAt: at },
  });
  return count;
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
  createdById: string | null;
}) {
  return {
    id: row.id,
    partner_id: row.partnerId,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_by: row.createdById,
  };
}
