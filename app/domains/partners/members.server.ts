// Partner bootstrap and portal roles: a portal user creates or
// fetches their partner; owners manage who else may act for it.
// Roles: `owner` (manages members, everything else) and `member` (acts on
// partner routes, reads the member list). A partner always keeps one owner.
import { db, type PartnerUser, type User } from "~/db.server";
import { ApiError, badRequest, forbidden, notFound } from "~/lib/api/errors";
import { z } from "zod";
import { revokeAccessTokensCreatedBy } from "./access-tokens.server";
import { partnerJson } from "./partners.server";
import { lockPartnerRow, lockUserRow } from "./members.sql.server";

import type { PartnerRole } from "./principal";

/** Who calls a members route: a portal user (userId) or a personal access token (userId null). */
export interface MemberCaller {
  partnerId: number | null;
  userId: string | null;
}

type MemberRow = Pick<PartnerUser, "userId" | "role" | "createdAt"> & { user: Pick<User, "email" | "displayName"> };

export function memberJson(row: MemberRow) {
  return {
    user_id: row.userId,
    email: row.user.email,
    display_name: row.user.displayName,
    role: row.role,
    created_at: row.createdAt.toISOString(),
  };
}

const memberSelect = {
  userId: true,
  role: true,
  createdAt: true,
  user: { select: { email: true, displayName: true } },
} as const;

const emailFormat = z.string().email();

/**
 * The caller's partner, created (with the caller as owner) when there is none.
 * Name and e-mail come from the body, else from the user's account. The
 * transaction first writes the user's row, so concurrent bootstraps of one
 * user queue there and the later ones find the first one's partner.
 */
export async function bootstrapPartner(userId: string, input: { name?: string; email?: string }) {
  return db.$transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const link = await tx.partnerUser.findFirst({
      where: { userId },
      orderBy: [{ createdAt: "asc" }, { partnerId: "asc" }],
      include: { partner: true },
    });
    if (link) return { created: false, partner: partnerJson(link.partner), role: link.role as string | null };
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true, displayName: true } });
    const email = (input.email ?? user?.email ?? "").trim().toLowerCase();
    if (!emailFormat.safeParse(email).success) throw badRequest("invalid_email", "A valid email is required (this account has none)");
    const name = (input.name ?? user?.displayName ?? email.split("@")[0]!).trim() || email;
    const partner = await tx.partner.create({ data: { name, email, plan: "free" } });
    await tx.partnerUser.create({ data: { partnerId: partner.id, userId, role: "owner" } });
    return { created: true, partner: partnerJson(partner), role: "owner" as string | null };
  });
}

/** The caller's partner and role (null role for a personal access token); 404 `no_partner` without one. */
export async function partnerMe(caller: MemberCaller) {
  if (caller.partnerId === null) throw notFound("no_partner", "This user is not linked to a partner");
  const partner = await db.partner.findUnique({ where: { id: caller.partnerId } });
  if (!partner) throw notFound("no_partner", "This user is not linked to a partner");
  const link = caller.userId
    ? await db.partnerUser.findUnique({ where: { partnerId_userId: { partnerId: partner.id, userId: caller.userId } } })
    : null;
  return { partner: partnerJson(partner), role: (link?.role ?? null) as string | null };
}

export function parsePartnerId(raw: string | undefined): number {
  const id = raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw badRequest("invalid_partner_id", `${JSON.stringify(raw ?? "")} is not a numeric partner id`);
  return id;
}

/**
 * The caller's role in the partner: checks in SPEC 7.4 order. A personal
 * access token of that partner reads as `member` here, whatever role it acts
 * with on the other partner routes: managing people takes a portal sign-in.
 */
async function callerRole(caller: MemberCaller, partnerId: number): Promise<PartnerRole> {
  if (caller.partnerId === null) throw notFound("no_partner", "This user is not linked to a partner");
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { id: true } });
  if (!partner) throw notFound("not_found", `No partner with id ${partnerId}`);
  if (caller.userId === null) {
    if (caller.partnerId === partnerId) return "member";
    throw forbidden("forbidden", "This token belongs to another partner");
  }
  const link = await db.partnerUser.findUnique({ where: { partnerId_userId: { partnerId, userId: caller.userId } }, select: { role: true } });
  if (!link) throw forbidden("forbidden", "You are not a member of this partner");
  return link.role === "owner" ? "owner" : "member";
}

async function requireOwner(caller: MemberCaller, partnerId: number): Promise<void> {
  if ((await callerRole(caller, partnerId)) !== "owner") throw forbidden("forbidden", "Only owners of this partner can manage members");
}

export async function listMembers(caller: MemberCaller, rawPartnerId: string | undefined) {
  const partnerId = parsePartnerId(rawPartnerId);
  await callerRole(caller, partnerId);
  const rows = await db.partnerUser.findMany({ where: { partnerId }, orderBy: { createdAt: "asc" }, select: memberSelect });
  return { members: rows.map(memberJson) };
}

export async function addMember(
  caller: MemberCaller,
  rawPartnerId: string | undefined,
  input: { email?: string; userId?: string; role: PartnerRole },
) {
  const partnerId = parsePartnerId(rawPartnerId);
  await requireOwner(caller, partnerId);
  const user = input.userId
    ? await db.user.findUnique({ where: { id: input.userId }, select: { id: true } })
    : await db.user.findUnique({ where: { email: input.email!.trim().toLowerCase() }, select: { id: true } });
  if (!user) throw notFound("user_not_found", "No user with this id or e-mail address");
  const existing = await db.partnerUser.findUnique({ where: { partnerId_userId: { partnerId, userId: user.id } } });
  if (existing) throw new ApiError(409, "already_member", "This user is already a member of the partner");
  try {
    const row = await db.partnerUser.create({ data: { partnerId, userId: user.id, role: input.role }, select: memberSelect });
    return { member: memberJson(row) };
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") throw new ApiError(409, "already_member", "This user is already a member of the partner");
    throw err;
  }
}

/**
 * Changes a member's role or removes them, in a transaction that first writes
 * the partner row: concurrent changes of one partner's members queue there,
 * so two owners demoting each other cannot leave the partner without one.
 */
async function changeMember(partnerId: number, userId: string, change: { role: PartnerRole } | "delete") {
  return db.$transaction(async (tx) => {
    await lockPartnerRow(tx, partnerId);
    const row = await tx.partnerUser.findUnique({ where: { partnerId_userId: { partnerId, userId } }, select: memberSelect });
    if (!row) throw notFound("not_found", "No such member of this partner");
    const losesOwner = row.role === "owner" && (change === "delete" || change.role !== "owner");
    if (losesOwner) {
      const owners = await tx.partnerUser.count({ where: { partnerId, role: "owner" } });
      if (owners <= 1) throw new ApiError(409, "last_owner", "The last owner of a partner cannot be removed or demoted");
    }
    if (change === "delete") {
      await tx.partnerUser.delete({ where: { partnerId_userId: { partnerId, userId } } });
      // Their access tokens for this partner die with the membership (re-adding them revives none).
      await revokeAccessTokensCreatedBy(tx, userId, { partnerId });
      return { ok: true as const, user_id: userId };
    }
    const updated = await tx.partnerUser.update({ where: { partnerId_userId: { partnerId, userId } }, data: { role: change.role }, select: memberSelect });
    return { member: memberJson(updated) };
  });
}

export async function updateMember(caller: MemberCaller, rawPartnerId: string | undefined, userId: string | undefined, role: PartnerRole) {
  const partnerId = parsePartnerId(rawPartnerId);
  await requireOwner(caller, partnerId);
  return changeMember(partnerId, userId ?? "", { role });
}

/** Owners remove anyone (but the last owner); a member may remove themselves (leave). */
export async function removeMember(caller: MemberCaller, rawPartnerId: string | undefined, userId: string | undefined) {
  const partnerId = parsePartnerId(rawPartnerId);
  const role = await callerRole(caller, partnerId);
  if (role !== "owner" && caller.userId !== userId) throw forbidden("forbidden", "Only owners of this partner can remove other members");
  return changeMember(partnerId, userId ?? "", "delete");
}
