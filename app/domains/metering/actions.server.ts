// The one place where wishlist actions (SPEC section 8) are recorded: saves,
// shares (a list made public) and list views. Counters per partner and UTC
// month are written with single atomic statements, so concurrent requests
// on any number of instances neither lose nor double counts; the Free plan's
// cap is enforced by the same statement.
import { createHash } from "node:crypto";
import { db, type Db } from "~/db.server";
import { env } from "~/env.server";
import { ApiError } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { enqueue } from "~/domains/outbox/outbox.server";
import { getPlan, type Plan } from "./plans";
import { currentPeriod } from "./usage";

type ActionKind = "save" | "share" | "list_view";
const COLUMN: Record<ActionKind, "saves" | "shares" | "listViews"> = { save: "saves", share: "shares", list_view: "listViews" };

export const LIST_VIEW_WINDOW_MS = 10 * 60 * 1000;

async function planOf(partnerId: number): Promise<Plan | null> {
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { plan: true } });
  return partner ? (getPlan(partner.plan) ?? null) : null;
}

/**
 * Adds one action to the partner's counter of this month and returns the new
 * total, or null when `cap` is given and the total already reached it (then
 * nothing is counted).
 */
async function increment(
  partnerId: number,
  kind: ActionKind,
  cap: number | null,
  client: Pick<Db, "$queryRaw"> = db,
): Promise<number | null> {
  const { period } = currentPeriod();
  const col = COLUMN[kind];
  const d = { saves: col === "saves" ? 1 : 0, shares: col === "shares" ? 1 : 0, listViews: col === "listViews" ? 1 : 0 };
  // One statement: insert the month's row or add to it, unless capped. The
  // WHERE of ON CONFLICT is evaluated on the locked, latest row version.
  // Uncapped = the column's own maximum (INTEGER); a larger bound overflows PostgreSQL's parameter.
  const ceiling = cap ?? 2_147_483_647;
  const rows = await client.$queryRaw<{ total: number | bigint }[]>`
    INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total")
    VALUES (${partnerId}, ${period}, ${d.saves}, ${d.shares}, ${d.listViews}, 1)
    ON CONFLICT ("partnerId", "period") DO UPDATE SET
      "saves" = "UsageCounter"."saves" + excluded."saves",
      "shares" = "UsageCounter"."shares" + excluded."shares",
      "listViews" = "UsageCounter"."listViews" + excluded."listViews",
      "total" = "UsageCounter"."total" + 1
    WHERE "UsageCounter"."total" < ${ceiling}
    RETURNING "total"`;
  return rows.length ? Number(rows[0]!.total) : null;
}

/** Takes back a reserved save whose item could not be written. */
async function decrementSave(partnerId: number) {
  const { period } = currentPeriod();
  await db.$executeRaw`
    UPDATE "UsageCounter" SET "saves" = "saves" - 1, "total" = "total" - 1
    WHERE "partnerId" = ${partnerId} AND "period" = ${period} AND "saves" > 0`;
}

export function upgradeUrl(): string {
  return `${env.APP_URL.replace(/\/$/, "")}/app/plans`;
}

/**
 * Counts a save for `partnerId` before the item is written. On the Free plan
 * at 100% it throws 402 `usage_limit_reached` and counts nothing. Returns a
 * function that takes the count back if the save then fails.
 */
export async function reserveSave(partnerId: number | null): Promise<() => Promise<void>> {
  if (partnerId === null) return async () => {};
  const plan = await planOf(partnerId);
  if (!plan) return async () => {};
  const cap = plan.hardLimit ? plan.includedActions : null;
  const total = await increment(partnerId, "save", cap);
  if (total === null) {
    throw new ApiError(402, "usage_limit_reached", `The Free plan's ${cap} wishlist actions for this month are used up. Saves resume next month or after an upgrade.`, {
      plan: plan.id,
      actions_limit: cap,
      upgrade_url: upgradeUrl(),
    });
  }
  await notifyThresholds(partnerId, plan, total);
  return () => decrementSave(partnerId).catch((err) => log.error("save count rollback failed", errorFields(err)));
}

/** The partner that supplied the most recently added item of the list (SPEC 8: attribution). */
export async function attributedPartner(wishlistId: number): Promise<number | null> {
  const latest = await db.listItem.findFirst({
    where: { wishlistId },
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
    select: { sourcePartnerId: true, product: { select: { sourcePartnerId: true } } },
  });
  return latest ? (latest.sourcePartnerId ?? latest.product.sourcePartnerId) : null;
}

/** Counts an action once per dedup key: the key's row is inserted in the same transaction as the count. */
async function countOnce(kind: "share" | "list_view", wishlistId: number, dedupKey: string) {
  const partnerId = await attributedPartner(wishlistId);
  if (partnerId === null) return;
  const plan = await planOf(partnerId);
  if (!plan) return;
  const total = await db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO "UsageDedup" ("dedupKey", "partnerId") VALUES (${dedupKey}, ${partnerId})
      ON CONFLICT ("dedupKey") DO NOTHING`;
    return inserted === 0 ? null : increment(partnerId, kind, null, tx);
  });
  if (total !== null) await notifyThresholds(partnerId, plan, total);
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** A list was made public: one share per list and UTC day. */
export async function recordShare(wishlistId: number, now = new Date()): Promise<void> {
  await countOnce("share", wishlistId, `share:${wishlistId}:${utcDay(now)}`);
}

/** A public list was viewed: one per list, viewer and 10-minute window (fixed windows). */
export async function recordListView(wishlistId: number, viewerKey: string, now = new Date()): Promise<void> {
  const window = Math.floor(now.getTime() / LIST_VIEW_WINDOW_MS);
  await countOnce("list_view", wishlistId, `view:${wishlistId}:${viewerKey}:${window}`);
}

/** Who is viewing: the user when a token names one, else a hash of address and browser. */
export function viewerKey(request: Request, userId: string | null): string {
  if (userId) return `u:${userId}`;
  const address = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? "";
  const agent = request.headers.get("user-agent") ?? "";
  return `a:${createHash("sha256").update(`${address}|${agent}`).digest("base64url").slice(0, 22)}`;
}

// ---------------------------------------------------------------- notifications

export const THRESHOLDS = [80, 100] as const;
// Thresholds this process already queued, so it asks the database only once.
const notified = new Set<string>();

/**
 * At 80% and 100% of a finite limit, one e-mail per partner, period and
 * threshold: the outbox's unique dedup key makes it exactly once across
 * instances and concurrent requests.
 */
async function notifyThresholds(partnerId: number, plan: Plan, total: number): Promise<void> {
  const limit = plan.includedActions;
  if (limit === null) return;
  const { period } = currentPeriod();
  for (const threshold of THRESHOLDS) {
    if (total * 100 < limit * threshold) continue;
    const key = `usage:${partnerId}:${period}:${threshold}`;
    if (notified.has(key)) continue;
    try {
      const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { email: true, name: true } });
      if (!partner) return;
      await enqueue({
        kind: "email",
        topic: `usage.threshold.${threshold}`,
        dedupKey: key,
        payload: usageEmail(partner, plan, threshold, total, limit, period),
      });
      notified.add(key);
    } catch (err) {
      // Never fail the action because of its notification.
      log.error("usage notification failed", { partnerId, threshold, ...errorFields(err) });
    }
  }
}

function usageEmail(partner: { email: string; name: string }, plan: Plan, threshold: number, total: number, limit: number, period: string) {
  const reached = threshold >= 100;
  const consequence = plan.hardLimit
    ? "Saves are paused until next month unless you upgrade."
    : `Further actions are billed at ${plan.overagePerActionMinor} ct each.`;
  return {
    to: partner.email,
    subject: reached
      ? `${partner.name}: your ${plan.name} plan's wishlist actions are used up`
      : `${partner.name}: ${threshold}% of your ${plan.name} plan's wishlist actions used`,
    text: [
      `Hello ${partner.name},`,
      "",
      `In ${period} your shop has used ${total} of the ${limit} wishlist actions included in the ${plan.name} plan (${threshold}%).`,
      reached ? consequence : "You can upgrade any time to get more actions.",
      "",
      `Plans: ${upgradeUrl()}`,
    ].join("\n"),
  };
}
