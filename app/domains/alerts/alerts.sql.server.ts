// The alerts' statements: the steps of the one transaction that queues an
// alert (alerts.server.ts): its dedup record, the shopper's daily count, and
// (outbox.server.ts enqueueStep) the e-mail itself.
import type { AlertDay, AlertSent, ReminderSent } from "~/db.server";
import { run, statement } from "~/db/sql.server";

// A record with the same dedupKey means this alert went out before: 0 rows, the caller stops.
const RECORD_ALERT = statement(
  "alert_record",
  `INSERT INTO "AlertSent" ("dedupKey", "shopId", "userId", "listItemId", "kind", "priceMinor", "currency", "title", "createdAt", "clickKey", "buyUrl")
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
   ON CONFLICT ("dedupKey") DO NOTHING`,
);

/** Records an alert: 1, or 0 when one with the same dedupKey was recorded before. */
export const recordAlert = (
  a: Pick<AlertSent, "dedupKey" | "shopId" | "userId" | "listItemId" | "kind" | "priceMinor" | "currency" | "title" | "clickKey" | "buyUrl">,
  at: Date,
) => run(RECORD_ALERT, a.dedupKey, a.shopId, a.userId, a.listItemId, a.kind, a.priceMinor, a.currency, a.title, at, a.clickKey, a.buyUrl);

const UNRECORD_ALERT = statement("alert_unrecord", `DELETE FROM "AlertSent" WHERE "dedupKey" = $1`);

/** Takes back a record of this transaction (the shopper's day was full): a later level or day counts anew. */
export const unrecordAlert = (dedupKey: AlertSent["dedupKey"]) => run(UNRECORD_ALERT, dedupKey);

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
