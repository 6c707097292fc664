// The sign-in throttle's statements (sign-in-throttle.server.ts): one
// conditional upsert per key admits an attempt, so concurrent guesses cannot
// all pass a check made before the count.
import type { SignInThrottle } from "~/db.server";
import { one, run, statement, type Decoded, type Op } from "~/db/sql.server";
import { ACCOUNT_SCHEDULE, ADDRESS_SCHEDULE, lockMs, type LockoutSchedule } from "./lockout";

/**
 * When a key is locked until after its `n`-th failure (the integer SQL
 * expression `n`), as SQL: a CASE over the few steps before the cap. No lock
 * is 0, not "now": a concurrent attempt that read the clock a moment earlier
 * must not find the key locked by a free failure.
 */
function lockedUntilSql(schedule: LockoutSchedule, n: string, now: string): string {
  const steps: string[] = [`WHEN ${n} < ${schedule.free} THEN 0`];
  for (let failures = schedule.free; lockMs(schedule, failures) < schedule.maxLockMs; failures++) {
    steps.push(`WHEN ${n} = ${failures} THEN ${now} + ${lockMs(schedule, failures)}`);
  }
  return `CASE ${steps.join(" ")} ELSE ${now} + ${schedule.maxLockMs} END`;
}

// $1 key, $2 now (ms), $3 now − resetMs. Counts the attempt unless the key is
// locked; no row comes back when it is. A stale row starts again at one.
const admitStatement = (name: string, schedule: LockoutSchedule) => {
  const now = "CAST($2 AS BIGINT)";
  const stale = `"SignInThrottle"."lastFailureAt" < CAST($3 AS BIGINT)`;
  return statement<Pick<SignInThrottle, "failures">>(
    name,
    `INSERT INTO "SignInThrottle" ("key", "failures", "lastFailureAt", "lockedUntil")
     VALUES ($1, 1, ${now}, ${lockedUntilSql(schedule, "1", now)})
     ON CONFLICT ("key") DO UPDATE SET
       "failures" = CASE WHEN ${stale} THEN 1 ELSE "SignInThrottle"."failures" + 1 END,
       "lastFailureAt" = ${now},
       "lockedUntil" = CASE WHEN ${stale} THEN ${lockedUntilSql(schedule, "1", now)}
         ELSE ${lockedUntilSql(schedule, `"SignInThrottle"."failures" + 1`, now)} END
     WHERE "SignInThrottle"."lockedUntil" <= ${now}
     RETURNING "failures"`,
  );
};
const ADMIT_ACCOUNT = admitStatement("sign_in_admit_account", ACCOUNT_SCHEDULE);
const ADMIT_ADDRESS = admitStatement("sign_in_admit_address", ADDRESS_SCHEDULE);
const LOCKED_UNTIL = statement<{ lockedUntil: Decoded<SignInThrottle>["lockedUntil"] | null }>(
  "sign_in_locked_until",
  `SELECT MAX("lockedUntil") AS "lockedUntil" FROM "SignInThrottle" WHERE "key" IN ($1, $2)`,
);
const RESET = statement("sign_in_reset", `DELETE FROM "SignInThrottle" WHERE "key" = $1`);
// The lock this attempt set stays: it is at most the first step, and only once the address is past its free failures.
const TAKE_BACK = statement(
  "sign_in_take_back",
  `UPDATE "SignInThrottle" SET "failures" = "failures" - 1 WHERE "key" = $1 AND "failures" > 0`,
);


/** Counts an attempt of the account key unless it is locked; undefined when it is. A transaction step. */
export const admitAccount = (key: string, now: number) => one(ADMIT_ACCOUNT, key, now, now - ACCOUNT_SCHEDULE.resetMs);
/** Counts an attempt of the address key unless it is locked; undefined when it is. A transaction step. */
export const admitAddress = (key: string, now: number) => one(ADMIT_ADDRESS, key, now, now - ADDRESS_SCHEDULE.resetMs);

/** When the later of the two keys' locks ends (ms), null when neither has a row. */
export function* lockedUntil(accountKey: string, addressKey: string): Op<number | null> {
  return (yield* one(LOCKED_UNTIL, accountKey, addressKey))?.lockedUntil ?? null;
}

export const resetAccount = (key: string) => run(RESET, key);
export const takeBackAddress = (key: string) => run(TAKE_BACK, key);
