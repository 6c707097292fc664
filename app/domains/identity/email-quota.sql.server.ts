// The e-mail quota's one statement (email-quota.server.ts): a conditional
// upsert counts an e-mail unless the key's day is full, so concurrent
// requests cannot all pass a check made before the count.
import { run, statement } from "~/db/sql.server";

const COUNT = statement(
  "email_quota_count",
  `INSERT INTO "EmailQuota" ("key", "day", "count") VALUES ($1, $2, 1)
   ON CONFLICT ("key", "day") DO UPDATE SET "count" = "EmailQuota"."count" + 1 WHERE "EmailQuota"."count" < $3`,
);

/** Counts one e-mail for the key and day: 1, or 0 when `cap` were counted already. */
export const countEmail = (key: string, day: string, cap: number) => run(COUNT, key, day, cap);
