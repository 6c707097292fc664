// The per-client bound of analytics events (analytics.server.ts): one atomic
// statement per window, checked on the locked, latest row, so concurrent
// events on any number of instances never pass it. The keys live in
// UsageDedup and are pruned with the usage keys (after two days).
import { exec, run, statement } from "~/db/sql.server";

const CLAIM_EVENT = statement(
  "analytics_claim_event",
  `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "uses") VALUES ($1, $2, 1)
   ON CONFLICT ("dedupKey") DO UPDATE SET "uses" = "UsageDedup"."uses" + 1
   WHERE "UsageDedup"."uses" < $3`,
);

/** Claims one event of the window `key` (at most `cap`): true when claimed, false when used up. */
export const claimEvent = async (key: string, partnerId: number, cap: number) => (await exec(run(CLAIM_EVENT, key, partnerId, cap))) > 0;
