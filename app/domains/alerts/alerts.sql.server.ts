// The alerts' statements: the steps of the one transaction that queues an
// alert (alerts.server.ts): its dedup record, the shopper's daily count, and
// (outbox.server.ts enqueueStep) the e-mail itself.
import type { AlertDay, AlertSent, ReminderSent } from "~/db.server";
import { all, run, statement, type Param, type Statement } from "~/db/sql.server";

const UNRECORD_ALERT = statement("alert_unrecord", `DELETE FROM "AlertSent" WHERE "dedupKey" = $1`);

/** Takes back a record of this transaction (the shopper's day was full): a later level or day counts anew. */
export const unrecordAlert = (dedupKey: AlertSent["dedupKey"]) => run(UNRECORD_ALERT, dedupKey);

// ---------------------------------------------------------------- many at once (a fan-out's batch)

/** Rows per multi-row statement: well under both databases' parameter limits (SQLite 32,766). */
export const ROWS_PER_STATEMENT = 100;

/** One statement per row count, declared on first use (a batch's last chunk is shorter). */
function sized<Row>(cache: Map<number, Statement<Row>>, name: string, rows: number, text: (rows: number) => string): Statement<Row> {
  let found = cache.get(rows);
  if (!found) cache.set(rows, (found = statement<Row>(`${name}_${rows}`, text(rows))));
  return found;
}

const placeholders = (rows: number, perRow: number, first = 1) =>
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: perRow }, (_, c) => `$${first + r * perRow + c}`).join(", ")})`).join(", ");

const recordMany = new Map<number, Statement<Pick<AlertSent, "dedupKey">>>();

/**
 * Records alerts, up to ROWS_PER_STATEMENT in one statement: the dedupKeys
 * recorded now (those recorded before are left out: told before at this level).
 */
export function* recordAlerts(
  alerts: Array<Pick<AlertSent, "dedupKey" | "shopId" | "userId" | "listItemId" | "kind" | "priceMinor" | "currency" | "title" | "clickKey" | "buyUrl">>,
  at: Date,
) {
  const recorded: string[] = [];
  for (let i = 0; i < alerts.length; i += ROWS_PER_STATEMENT) {
    const chunk = alerts.slice(i, i + ROWS_PER_STATEMENT);
    const stmt = sized(recordMany, "alert_record_many", chunk.length, (n) =>
      `INSERT INTO "AlertSent" ("dedupKey", "shopId", "userId", "listItemId", "kind", "priceMinor", "currency", "title", "createdAt", "clickKey", "buyUrl")
       VALUES ${placeholders(n, 11)}
       ON CONFLICT ("dedupKey") DO NOTHING
       RETURNING "dedupKey"`,
    );
    const params: Param[] = chunk.flatMap((a) => [a.dedupKey, a.shopId, a.userId, a.listItemId, a.kind, a.priceMinor, a.currency, a.title, at, a.clickKey, a.buyUrl]);
    for (const row of yield* all(stmt, ...params)) recorded.push(row.dedupKey);
  }
  return recorded;
}

const countMany = new Map<number, Statement<Pick<AlertDay, "userId">>>();

/**
 * Counts one e-mail for each shopper and the day, up to ROWS_PER_STATEMENT in
 * one statement: the shoppers counted (those with `cap` counted already are
 * left out). Shoppers must be distinct; in id order, two batches at once take
 * the rows' locks in the same order.
 */
export function* countAlertDays(userIds: string[], day: AlertDay["day"], cap: number) {
  const counted: string[] = [];
  for (let i = 0; i < userIds.length; i += ROWS_PER_STATEMENT) {
    const chunk = userIds.slice(i, i + ROWS_PER_STATEMENT);
    const stmt = sized(countMany, "alert_count_days", chunk.length, (n) =>
      `INSERT INTO "AlertDay" ("userId", "day", "count")
       VALUES ${Array.from({ length: n }, (_, r) => `($${r + 3}, $1, 1)`).join(", ")}
       ON CONFLICT ("userId", "day") DO UPDATE SET "count" = "AlertDay"."count" + 1 WHERE "AlertDay"."count" < $2
       RETURNING "userId"`,
    );
    for (const row of yield* all(stmt, day, cap, ...chunk)) counted.push(row.userId);
  }
  return counted;
}

// One statement, so two deliveries at once cannot both take the last place of the day.
const COUNT_DAY = statement(
  "alert_count_day",
  `INSERT INTO "AlertDay" ("userId", "day", "count") VALUES ($1, $2, 1)
   ON CONFLICT ("userId", "day") DO UPDATE SET "count" = "AlertDay"."count" + 1 WHERE "AlertDay"."count" < $3`,
);

/** Counts one e-mail for the shopper and day: 1, or 0 when `cap` were counted already. */
export const countAlertDay = (userId: AlertDay["userId"], day: AlertDay["day"], cap: number) => run(COUNT_DAY, userId, day, cap);

// A record with the same dedupKey means this digest was queued before (another instance, an earlier pass): 0 rows.
const RECORD_REMINDER = statement(
  "reminder_record",
  `INSERT INTO "ReminderSent" ("dedupKey", "shopId", "userId", "items", "createdAt")
   VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT ("dedupKey") DO NOTHING`,
);

/** Records a reminder digest: 1, or 0 when one with the same dedupKey was recorded before. */
export const recordReminder = (r: Pick<ReminderSent, "dedupKey" | "shopId" | "userId" | "items">, at: Date) =>
  run(RECORD_REMINDER, r.dedupKey, r.shopId, r.userId, r.items, at);

// Taken in the digest's transaction: a pass that read the shop before its settings were deleted
// (shop/redact, reminders turned off) records nothing after. An update, not a read, so on PostgreSQL
// the row stays locked until the digest commits and a deletion of the settings waits for it.
const HOLD_REMINDERS = statement("reminders_hold", `UPDATE "AlertSettings" SET "reminderDays" = "reminderDays" WHERE "shopId" = $1 AND "reminderDays" > 0`);

/** Whether the shop still sends reminders: 1, or 0 when its settings are gone or reminders are off. */
export const holdReminders = (shopId: number) => run(HOLD_REMINDERS, shopId);
