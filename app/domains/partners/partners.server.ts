// Partners (shops and other integrators): the account that owns keys,
// platform shops, basket configurations and the monthly action meter.
import { z } from "zod";
import { db, type Partner } from "~/db.server";
import { badRequest, notFound } from "~/lib/api/errors";
import { isPlanId, PLAN_IDS, type PlanId } from "~/domains/plans/plans";

type PartnerRow = Pick<Partner, "id" | "name" | "email" | "plan" | "planChangedAt" | "createdAt">;

export function partnerJson(partner: PartnerRow) {
  return {
    partner_id: partner.id,
    name: partner.name,
    email: partner.email,
    plan: partner.plan,
    plan_changed_at: partner.planChangedAt.toISOString(),
    created_at: partner.createdAt.toISOString(),
  };
}

export function parsePlan(plan: string): PlanId {
  if (!isPlanId(plan)) throw badRequest("invalid_plan", `plan must be one of ${PLAN_IDS.join(", ")}`);
  return plan;
}

const emailFormat = z.string().email();

export async function createPartner(input: { name: string; email: string; plan?: string }) {
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  if (!name) throw badRequest("invalid_input", "name is required");
  if (!emailFormat.safeParse(email).success) throw badRequest("invalid_email", "email is not a valid address");
  const plan = parsePlan(input.plan ?? "free");
  return db.partner.create({ data: { name, email, plan } });
}

/** The partner or 404 `partner_not_found`. */
export async function getPartner(partnerId: number) {
  const partner = Number.isSafeInteger(partnerId) ? await db.partner.findUnique({ where: { id: partnerId } }) : null;
  if (!partner) throw notFound("partner_not_found", `No partner with id ${partnerId}`);
  return partner;
}

/** Throws 404 `partner_not_found` unless the partner exists. */
export async function assertPartnerExists(partnerId: number): Promise<void> {
  await getPartner(partnerId);
}

/** Records a new plan; its keys' cached configuration is dropped by the caller (app/flows/partner-plan.server.ts). */
export async function setPartnerPlan(partnerId: number, plan: string) {
  const planId = parsePlan(plan);
  const partner = await getPartner(partnerId);
  // planChangedAt marks real changes only; setting the same plan again is a no-op.
  if (partner.plan === planId) return partner;
  return db.partner.update({ where: { id: partnerId }, data: { plan: planId, planChangedAt: new Date() } });
}

/** The partner a portal user belongs to (their first), or null. */
export async function partnerOfUser(userId: string): Promise<number | null> {
  return (await partnerLinkOfUser(userId))?.partnerId ?? null;
}

/** The partner a portal user acts for (their first) and their role in it, or null. */
export async function partnerLinkOfUser(userId: string): Promise<{ partnerId: number; role: "owner" | "member" } | null> {
  const link = await db.partnerUser.findFirst({ where: { userId }, orderBy: { createdAt: "asc" }, select: { partnerId: true, role: true } });
  return link ? { partnerId: link.partnerId, role: link.role === "owner" ? "owner" : "member" } : null;
}

/**
 * Links a portal user to a partner, so the user's token acts for it on
 * partner routes. Idempotent: linking again keeps the original link.
 */
export async function addPartnerUser(partnerId: number, userId: string, role = "owner") {
  await assertPartnerExists(partnerId);
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw notFound("user_not_found", `No user with id ${userId}`);
  const link = await db.partnerUser.upsert({
    where: { partnerId_userId: { partnerId, userId } },
    create: { partnerId, userId, role },
    update: {},
  });
  return { partner_id: link.partnerId, user_id: link.userId, role: link.role, created_at: link.createdAt.toISOString() };
}

/** The partner's access tokens (metadata rows; the tokens themselves are never stored), newest first. */
export async function listPartnerAccessTokens(partnerId: number) {
  await assertPartnerExists(partnerId);
  return db.personalAccessToken.findMany({ where: { partnerId }, orderBy: { id: "desc" } });
}
