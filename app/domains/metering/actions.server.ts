// The one place where wishlist actions (SPEC section 8) are recorded: saves,
// shares (a list made public) and list views. Counters per partner and UTC
// month are written with single atomic statements, so concurrent requests
// on any number of instances neither lose nor double counts; the Free plan's
// cap is enforced by the same statement. The statements are prepared once
// (actions.sql.server.ts): a save counts inside its own transaction, and list
// views count on share-page reads.
import { transaction, type Op } from "~/db/sql.server";
import { env } from "~/env.server";
import { ApiError } from "~/lib/api/errors";
import { addressUnit } from "~/lib/api/client-address";
import { enqueueStep } from "~/domains/outbox/outbox.server";
import type { QueuedMail } from "~/domains/outbox/worker.server";
import type { Lang } from "~/lib/lang";
import { getPlan, type Plan } from "~/domains/plans/plans";
import { currentPeriod } from "./usage";
import { claimSaverSave, claimUse, countDay, countMonth, insertDedupKey, latestItemPartner, partnerPlan } from "./actions.sql.server";

type ActionKind = "save" | "share" | "list_view";

export const LIST_VIEW_WINDOW_MS = 10 * 60 * 1000;

/** Who views a public list (listViewer in list-viewer.server.ts tells from the request). */
export interface ListViewer {
  /** Dedup identity: `u:<userId>`, `c:<cookie id>` or `a:<address>`. */
  key: string;
  /** The address unit the per-address cap applies to (IPv4, or IPv6 /64). */
  address: string;
  /** A new viewer id for the viewer cookie, when the request carried no valid one. */
  newViewerId: { value: string; maxAgeSeconds: number } | null;
}
/**
 * At most this many list_view counts per list, client address (IPv4, or
 * IPv6 /64) and window, whatever viewers it presents: fresh cookies and new
 * anonymous accounts are free to mint, so they cannot be the limit.
 */
export const VIEWS_PER_ADDRESS = 3;

/**
 * Counted saves are bounded per partner, saver and window (SAVES_PER_USER)
 * and per partner, client address and window (SAVES_PER_ADDRESS: anonymous
 * accounts are free to make, so the address bounds their bursts). On plans
 * that pause at their limit, also per month: per partner and saver, per saver
 * and per partner and address (claimMonthShares). Saves beyond any bound
 * still succeed; they are not actions.
 */
export const SAVE_WINDOW_MS = 60 * 60 * 1000;

/** Whose actions are counted: the partner, its plan, and where its usage e-mails go. */
interface Metered {
  id: number;
  plan: Plan;
  email: string;
  name: string;
}

async function meteredPartner(partnerId: number): Promise<Metered | null> {
  const partner = await partnerPlan(partnerId);
  const plan = partner && getPlan(partner.plan);
  return plan ? { id: partnerId, plan, email: partner.email, name: partner.name } : null;
}

/**
 * Adds `amount` (1, or 0 to only check the cap) actions to the partner's
 * counter of this month and returns the new total, or null when `cap` is
 * given and the total already reached it (then nothing is counted). Run it
 * inside the transaction of what it counts.
 */
function* increment(partnerId: number, kind: ActionKind, cap: number | null, amount = 1, now = new Date()): Op<number | null> {
  const { period } = currentPeriod(now);
  const d: [number, number, number] = [kind === "save" ? amount : 0, kind === "share" ? amount : 0, kind === "list_view" ? amount : 0];
  // Uncapped = the column's own maximum (INTEGER); a larger bound overflows PostgreSQL's parameter.
  const counted = yield* countMonth(partnerId, period, d, cap ?? 2_147_483_647, amount);
  if (!counted) return null;
  if (amount > 0) yield* countDay(partnerId, now.toISOString().slice(0, 10), d);
  return counted.total;
}

/** Who saves: the account, and the client address unit (IPv4, or IPv6 /64) it saves from. */
export interface Saver {
  userId: string;
  address: string;
  /** Set when the saver is a shop page's shopper credential: the partner it is scoped to. */
  partnerScope?: number;
}

/** The address unit of the request's client (as list views use it); "0.0.0.0" when the server does not know it. */
export const saverAddress = (clientAddress: string | null) => addressUnit(clientAddress ?? "0.0.0.0");

export function upgradeUrl(): string {
  return `${env.APP_URL}/app/plans`;
}

/**
 * The meter of one save for `partnerId` (null: nothing to count). `count` is
 * a step of the save's transaction, after the item's upsert, so the count and
 * the item commit or vanish together. A save is an action only when it added
 * the item (`added`: re-saving what the list holds changes nothing) and the
 * saver and its address each have a save of the hour left (SAVES_PER_USER,
 * SAVES_PER_ADDRESS); it returns the new total, else null. On the Free plan
 * at 100% every save through the partner throws 402 `usage_limit_reached`
 * and the transaction writes nothing. A count that reaches 80% or 100% queues
 * the usage e-mail in the same transaction; `committed` is called after the
 * commit.
 */
export async function saveMeter(partnerId: number | null) {
  if (partnerId === null) return null;
  const partner = await meteredPartner(partnerId);
  if (!partner) return null;
  const { plan } = partner;
  const cap = plan.hardLimit ? plan.includedActions : null;
  const queued: string[] = [];
  return {
    *count(saver: Saver, item: { listId: number; productId: number; added: boolean }): Op<number | null> {
      queued.length = 0;
      const now = new Date();
      let counted = false;
      if (item.added) {
        const window = Math.floor(now.getTime() / SAVE_WINDOW_MS);
        const claimed = yield* claimSaverSave(
          `saveuser:${partnerId}:${saver.userId}:${window}`,
          `saveitem:${item.listId}:${item.productId}:${window}`,
          partnerId,
          env.SAVES_PER_USER,
        );
        counted =
          claimed.length === 2 &&
          (yield* claimUse(`saveaddr:${partnerId}:${saver.address}:${window}`, partnerId, env.SAVES_PER_ADDRESS)) > 0;
        // A plan that pauses at its limit must not be paused by a few sources: each shopper of the
        // partner, each shopper over all such partners and each address has a share of the month.
        if (counted && cap !== null) counted = yield* claimMonthShares(partnerId, saver, currentPeriod(now).period);
      }
      // Not an action: nothing to count, and only a capped plan has to be asked whether it is paused.
      if (!counted && cap === null) return null;
      const total = yield* increment(partnerId, "save", cap, counted ? 1 : 0, now);
      if (total === null) {
        throw new ApiError(402, "usage_limit_reached", `The Free plan's ${cap} wishlist actions for this month are used up. Saves resume next month or after an upgrade.`, {
          plan: plan.id,
          actions_limit: cap,
          upgrade_url: upgradeUrl(),
        });
      }
      if (!counted) return null;
      yield* queueThresholdEmails(partner, total, queued);
      return total;
    },
    committed: () => rememberQueued(queued),
  };
}

/**
 * Claims one of the month's counted saves of the partner and shopper
 * (SAVES_PER_SHOPPER_MONTH), of the shopper over every paused-at-limit
 * partner (SAVES_PER_ACCOUNT_MONTH) and of the partner and address
 * (SAVES_PER_ADDRESS_MONTH), in that order: true when all three had one
 * left. Keys start with `month:` so pruning keeps them past the month.
 */
function* claimMonthShares(partnerId: number, saver: Saver, period: string): Op<boolean> {
  return (
    (yield* claimUse(`month:savepair:${partnerId}:${saver.userId}:${period}`, partnerId, env.SAVES_PER_SHOPPER_MONTH)) > 0 &&
    (yield* claimUse(`month:saveacct:${saver.userId}:${period}`, partnerId, env.SAVES_PER_ACCOUNT_MONTH)) > 0 &&
    (yield* claimUse(`month:saveaddr:${partnerId}:${saver.address}:${period}`, partnerId, env.SAVES_PER_ADDRESS_MONTH)) > 0
  );
}

/** The partner that supplied the most recently added item of the list (SPEC 8: attribution). */
export async function attributedPartner(wishlistId: number): Promise<number | null> {
  const latest = await latestItemPartner(wishlistId);
  return latest ? (latest.itemPartnerId ?? latest.productPartnerId) : null;
}

/**
 * Counts an action once per dedup key: the key's row is inserted in the same
 * transaction as the count. With `slotKeys`, the action also needs one of
 * those keys still free (a per-address cap); otherwise nothing is counted.
 */
async function countOnce(kind: "share" | "list_view", wishlistId: number, dedupKey: string, slotKeys: string[] = []) {
  const partnerId = await attributedPartner(wishlistId);
  if (partnerId === null) return;
  const partner = await meteredPartner(partnerId);
  if (!partner) return;
  const queued: string[] = [];
  await transaction(
    (function* (): Op<void> {
      if ((yield* insertDedupKey(dedupKey, partnerId)) === 0) return;
      if (slotKeys.length) {
        let claimed = false;
        for (const slot of slotKeys) if ((claimed = (yield* insertDedupKey(slot, partnerId)) > 0)) break;
        if (!claimed) return;
      }
      const total = yield* increment(partnerId, kind, null);
      if (total !== null) yield* queueThresholdEmails(partner, total, queued);
    })(),
  );
  rememberQueued(queued);
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
// Thresholds whose e-mail is committed, so this process asks the database only once.
const notified = new Set<string>();

/**
 * At 80% and 100% of a finite limit, one e-mail per partner, period and
 * threshold, queued in the transaction of the count that reaches it: the
 * count and its e-mail commit together or not at all (a failed queue rolls
 * back the count, so the next action reaches the threshold again). The
 * outbox's unique dedup key makes it exactly once across instances and
 * concurrent requests. `queued` collects the keys for rememberQueued.
 */
function* queueThresholdEmails(partner: Metered, total: number, queued: string[]): Op<void> {
  const limit = partner.plan.includedActions;
  if (limit === null) return;
  const { period } = currentPeriod();
  for (const threshold of THRESHOLDS) {
    if (total * 100 < limit * threshold) continue;
    const key = `usage:${partner.id}:${period}:${threshold}`;
    if (notified.has(key)) continue;
    yield* enqueueStep({
      kind: "email",
      topic: `usage.threshold.${threshold}`,
      dedupKey: key,
      payload: usageEmail(partner, partner.plan, threshold, total, limit, period),
    });
    queued.push(key);
  }
}

/** After the commit: the queued thresholds need no more asking in this process. */
function rememberQueued(queued: string[]): void {
  for (const key of queued) notified.add(key);
}

/** The model of a usage e-mail (app/pages/emails/usage.tsx). Partners get English: they have no language of their own. */
export interface UsageMailModel {
  template: "usage";
  lang: Lang;
  partnerName: string;
  planName: string;
  threshold: number;
  total: number;
  limit: number;
  period: string;
  /** Saves pause at the limit (Free); otherwise further actions are billed at overagePerActionMinor US cents each. */
  hardLimit: boolean;
  overagePerActionMinor: number | null;
  plansUrl: string;
}

function usageEmail(partner: { email: string; name: string }, plan: Plan, threshold: number, total: number, limit: number, period: string): QueuedMail {
  const model: UsageMailModel = {
    template: "usage",
    lang: "en",
    partnerName: partner.name,
    planName: plan.name,
    threshold,
    total,
    limit,
    period,
    hardLimit: plan.hardLimit,
    overagePerActionMinor: plan.overagePerActionMinor,
    plansUrl: upgradeUrl(),
  };
  return { to: partner.email, model };
}
