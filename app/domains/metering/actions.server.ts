// The one place where wishlist actions (SPEC section 8) are recorded: saves,
// shares (a list made public) and list views. Counters per partner and UTC
// month are written with single atomic statements, so concurrent requests
// on any number of instances neither lose nor double counts; the Free plan's
// cap is enforced by the same statement.
import { db, type Db } from "~/db.server";
import { env } from "~/env.server";
import { ApiError } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { enqueue } from "~/domains/outbox/outbox.server";
import { getPlan, type Plan } from "./plans";
import { currentPeriod } from "./usage";
import type { ListViewer } from "./list-viewer.server";

type ActionKind = "save" | "share" | "list_view";
const COLUMN: Record<ActionKind, "saves" | "shares" | "listViews"> = { save: "saves", share: "shares", list_view: "listViews" };

export const LIST_VIEW_WINDOW_MS = 10 * 60 * 1000;
/**
 * At most this many list_view counts per list, client address (IPv4, or
 * IPv6 /64) and window, whatever viewers it presents: fresh cookies and new
 * anonymous accounts are free to mint, so they cannot be the limit.
 */
export const VIEWS_PER_ADDRESS = 3;

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
  if (!rows.length) return null;
  // The day's row feeds the admin's usage chart; it follows the counted action (same transaction for saves).
  const day = new Date().toISOString().slice(0, 10);
  await client.$queryRaw`
    INSERT INTO "UsageDay" ("partnerId", "day", "saves", "shares", "listViews")
    VALUES (${partnerId}, ${day}, ${d.saves}, ${d.shares}, ${d.listViews})
    ON CONFLICT ("partnerId", "day") DO UPDATE SET
      "saves" = "UsageDay"."saves" + excluded."saves",
      "shares" = "UsageDay"."shares" + excluded."shares",
      "listViews" = "UsageDay"."listViews" + excluded."listViews"
    RETURNING "day"`;
  return Number(rows[0]!.total);
}

export function upgradeUrl(): string {
  return `${env.APP_URL.replace(/\/$/, "")}/app/plans`;
}

/**
 * The meter of one save for `partnerId` (null: nothing to count). `count` runs
 * inside the save's transaction, so the count and the item commit or vanish
 * together; on the Free plan at 100% it throws 402 `usage_limit_reached` and
 * the transaction writes nothing. `notify` runs after the commit.
 */
export async function saveMeter(partnerId: number | null) {
  if (partnerId === null) return null;
  const plan = await planOf(partnerId);
  if (!plan) return null;
  const cap = plan.hardLimit ? plan.includedActions : null;
  return {
    async count(tx: Pick<Db, "$queryRaw">): Promise<number> {
      const total = await increment(partnerId, "save", cap, tx);
      if (total === null) {
        throw new ApiError(402, "usage_limit_reached", `The Free plan's ${cap} wishlist actions for this month are used up. Saves resume next month or after an upgrade.`, {
          plan: plan.id,
          actions_limit: cap,
          upgrade_url: upgradeUrl(),
        });
      }
      return total;
    },
    notify: (total: number) => notifyThresholds(partnerId, plan, total),
  };
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

/**
 * Counts an action once per dedup key: the key's row is inserted in the same
 * transaction as the count. With `slotKeys`, the action also needs one of
 * those keys still free (a per-address cap); otherwise nothing is counted.
 */
async function countOnce(kind: "share" | "list_view", wishlistId: number, dedupKey: string, slotKeys: string[] = []) {
  const partnerId = await attributedPartner(wishlistId);
  if (partnerId === null) return;
  const plan = await planOf(partnerId);
  if (!plan) return;
  const total = await db.$transaction(async (tx) => {
    const insertKey = (key: string) => tx.$executeRaw`
      INSERT INTO "UsageDedup" ("dedupKey", "partnerId") VALUES (${key}, ${partnerId})
      ON CONFLICT ("dedupKey") DO NOTHING`;
    if ((await insertKey(dedupKey)) === 0) return null;
    if (slotKeys.length) {
      let claimed = false;
      for (const slot of slotKeys) if ((claimed = (await insertKey(slot)) > 0)) break;
      if (!claimed) return null;
    }
    return increment(partnerId, kind, null, tx);
  });
  if (total !== null) await notifyThresholds(partnerId, plan, total);
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** A list was made public: one share per list and UTC day. */
export async function recordShare(wishlistId: number, now = new Date()): Promise<void> {
  await countOnce("share", wishlistId, `share:${wishlistId}:${utcDay(now)}`);
}

// Views this instance already handled in the current window (counted, or
// refused by the per-address cap): a repeat costs no database work.
let handledWindow = -1;
const handledViews = new Set<string>();

/**
 * A public list was viewed: one per list, viewer and 10-minute window (fixed
 * windows), and at most VIEWS_PER_ADDRESS per list, address and window.
 * `viewer` comes from listViewer (list-viewer.server.ts); null (a bot) counts nothing.
 */
export async function recordListView(wishlistId: number, viewer: ListViewer | null, now = new Date()): Promise<void> {
  if (!viewer) return;
  const window = Math.floor(now.getTime() / LIST_VIEW_WINDOW_MS);
  if (window !== handledWindow || handledViews.size >= 100_000) {
    handledWindow = window;
    handledViews.clear();
  }
  const dedupKey = `view:${wishlistId}:${viewer.key}:${window}`;
  if (handledViews.has(dedupKey)) return;
  const slots = Array.from({ length: VIEWS_PER_ADDRESS }, (_, i) => `viewaddr:${wishlistId}:${viewer.address}:${window}:${i + 1}`);
  await countOnce("list_view", wishlistId, dedupKey, slots);
  handledViews.add(dedupKey);
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
