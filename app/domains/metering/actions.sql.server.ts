// The action counters' statements (actions.server.ts): single atomic
// statements, so concurrent requests on any number of instances neither lose
// nor double counts. Steps (Op) run inside the transaction of what they count.
import type { ListItem, Partner, Product, UsageCounter, UsageDedup } from "~/db.server";
import { all, exec, one, run, statement, type Op } from "~/db/sql.server";

const PARTNER_PLAN = statement<Pick<Partner, "plan" | "email" | "name">>(
  "partner_plan",
  `SELECT "plan", "email", "name" FROM "Partner" WHERE "id" = $1`,
);

/** The partner's plan and where its usage e-mails go. */
export const partnerPlan = (partnerId: number) => exec(one(PARTNER_PLAN, partnerId));

// One statement: insert the month's row or add to it, unless capped. The
// WHERE of ON CONFLICT is evaluated on the locked, latest row version.
// With all amounts 0 it only asks, on the locked row, whether the cap is reached.
const COUNT_MONTH = statement<Pick<UsageCounter, "total">>(
  "usage_count_month",
  `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total")
   VALUES ($1, $2, $3, $4, $5, $7)
   ON CONFLICT ("partnerId", "period") DO UPDATE SET
     "saves" = "UsageCounter"."saves" + excluded."saves",
     "shares" = "UsageCounter"."shares" + excluded."shares",
     "listViews" = "UsageCounter"."listViews" + excluded."listViews",
     "total" = "UsageCounter"."total" + excluded."total"
   WHERE "UsageCounter"."total" < $6
   RETURNING "total"`,
);

// The day's row feeds the admin's usage chart.
const COUNT_DAY = statement(
  "usage_count_day",
  `INSERT INTO "UsageDay" ("partnerId", "day", "saves", "shares", "listViews")
   VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT ("partnerId", "day") DO UPDATE SET
     "saves" = "UsageDay"."saves" + excluded."saves",
     "shares" = "UsageDay"."shares" + excluded."shares",
     "listViews" = "UsageDay"."listViews" + excluded."listViews"`,
);

/** Saves, shares and list views to add. */
type Deltas = [saves: number, shares: number, listViews: number];

/** Adds to the month's counter unless its total reached `cap`; the new total, or undefined when capped. */
export const countMonth = (partnerId: number, period: string, [saves, shares, listViews]: Deltas, cap: number, amount: number) =>
  one(COUNT_MONTH, partnerId, period, saves, shares, listViews, cap, amount);

export const countDay = (partnerId: number, day: string, [saves, shares, listViews]: Deltas) =>
  run(COUNT_DAY, partnerId, day, saves, shares, listViews);

// The month's action count (the X-Usage-* headers and `overage`): the one read widget init makes per request.
const MONTH_TOTAL = statement<Pick<UsageCounter, "total">>(
  "usage_month_total",
  `SELECT "total" FROM "UsageCounter" WHERE "partnerId" = $1 AND "period" = $2`,
);

/** The partner's action count of the month (`period`), 0 before its first. */
export async function monthTotal(partnerId: number, period: string): Promise<number> {
  return (await exec(one(MONTH_TOTAL, partnerId, period)))?.total ?? 0;
}

// Claims one counted save of the window: the saver's ($1, capped at $4) and
// the list and product's key ($2, once: two saves racing to add the same item
// count once) in one statement, then the address's (CLAIM_ADDRESS). A cap is
// checked on the locked, latest row, so no bound is ever passed; the address
// is asked only for a save its saver may still make, so one busy account does
// not use up the address's saves.
const CLAIM_SAVER = statement<Pick<UsageDedup, "dedupKey">>(
  "usage_save_claim_saver",
  `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "uses") VALUES ($1, $3, 1), ($2, $3, 1)
   ON CONFLICT ("dedupKey") DO UPDATE SET "uses" = "UsageDedup"."uses" + 1
   WHERE "UsageDedup"."uses" < CASE "UsageDedup"."dedupKey" WHEN $1 THEN $4 ELSE 1 END
   RETURNING "dedupKey"`,
);
const CLAIM_ADDRESS = statement(
  "usage_save_claim_address",
  `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "uses") VALUES ($1, $2, 1)
   ON CONFLICT ("dedupKey") DO UPDATE SET "uses" = "UsageDedup"."uses" + 1
   WHERE "UsageDedup"."uses" < $3`,
);

/** Claims the saver's save ($1, at most `perSaver`) and the list and product's key ($2, once): the keys it claimed. */
export const claimSaverSave = (saverKey: string, itemKey: string, partnerId: number, perSaver: number): Op<Pick<UsageDedup, "dedupKey">[]> =>
  all(CLAIM_SAVER, saverKey, itemKey, partnerId, perSaver);

/**
 * Claims one use of a counted key (at most `cap`): 1 when claimed, 0 when used up. An address's saves
 * and monthly shares (actions.server.ts), and the per-client bound of analytics events.
 */
export const claimUse = (key: string, partnerId: number, cap: number) => run(CLAIM_ADDRESS, key, partnerId, cap);

// The item's own partner, else its product's (the index on wishlistId, addedAt finds the newest).
const LATEST_ITEM_PARTNER = statement<{ itemPartnerId: ListItem["sourcePartnerId"]; productPartnerId: Product["sourcePartnerId"] }>(
  "latest_item_partner",
  `SELECT i."sourcePartnerId" AS "itemPartnerId", p."sourcePartnerId" AS "productPartnerId"
   FROM "ListItem" i JOIN "Product" p ON p."id" = i."productId"
   WHERE i."wishlistId" = $1
   ORDER BY i."addedAt" DESC, i."id" DESC
   LIMIT 1`,
);

/** The sources of the list's most recently added item and its product; undefined for an empty list. */
export const latestItemPartner = (wishlistId: number) => exec(one(LATEST_ITEM_PARTNER, wishlistId));

const INSERT_DEDUP_KEY = statement(
  "usage_dedup_key",
  `INSERT INTO "UsageDedup" ("dedupKey", "partnerId") VALUES ($1, $2) ON CONFLICT ("dedupKey") DO NOTHING`,
);

/** Inserts the dedup key: 1, or 0 when it was there already. */
export const insertDedupKey = (dedupKey: string, partnerId: number) => run(INSERT_DEDUP_KEY, dedupKey, partnerId);
