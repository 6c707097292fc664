// Throttles password guessing (the password grant): failed sign-ins in a row
// are counted per account (the e-mail, whether or not it has an account, so
// a lockout reveals nothing) and per client address unit (IPv4 address or
// IPv6 /64), in the database, so the count holds across workers and
// instances. Past a few free failures each further one locks the key for a
// window that doubles up to a cap; an attempt while either key is locked is
// refused before the password is hashed.
//
// An attempt is counted *before* the hash (and taken back when the password
// was right): checking first and counting after would let a burst of
// concurrent guesses all pass the check. Counting is one conditional upsert
// per key, which also refuses while the key is locked, so under any
// concurrency at most `free` attempts of one key get hashed before its first
// lock. Both keys are admitted in one transaction, address first (one lock
// order, no deadlocks): a refusal by the account does not use up the address.
import { createHash } from "node:crypto";
import { exec, one, run, statement, transaction } from "~/db/sql.server";
import { ApiError } from "~/lib/api/errors";
import { addressUnit } from "~/lib/api/client-address";

export interface LockoutSchedule {
  /** Failures in a row that lock nothing. */
  free: number;
  /** The lock after the `free`-th failure; each further failure doubles it. */
  firstLockMs: number;
  maxLockMs: number;
  /** A key whose last failure is older than this starts again from zero (and is pruned). */
  resetMs: number;
}

/**
 * Per account: short, so someone guessing at a victim's account cannot keep
 * the owner out for long (at most 15 minutes after each of the attacker's
 * guesses), yet about 100 guesses a day at the most.
 */
export const ACCOUNT_SCHEDULE: LockoutSchedule = { free: 5, firstLockMs: 15_000, maxLockMs: 15 * 60_000, resetMs: 86_400_000 };
/**
 * Per address unit: more free failures (offices and carrier NATs share an
 * address), then longer locks; a success does not reset it, so owning one
 * account does not buy guesses at others.
 */
export const ADDRESS_SCHEDULE: LockoutSchedule = { free: 20, firstLockMs: 60_000, maxLockMs: 60 * 60_000, resetMs: 86_400_000 };

/** Rows whose last failure is older than this are past both reset windows: the prune job deletes them. */
export const THROTTLE_ROWS_KEPT_MS = Math.max(ACCOUNT_SCHEDULE.resetMs, ADDRESS_SCHEDULE.resetMs);

const scheduleText = (s: LockoutSchedule) =>
  `${s.free} free failures in a row, then a lock of ${s.firstLockMs / 1000} s doubling with each further failure up to ${s.maxLockMs / 60_000} min`;

/** The throttle in a sentence, for the route's description in the OpenAPI document. */
export const THROTTLE_DESCRIPTION =
  `Failed password sign-ins are throttled per account (${scheduleText(ACCOUNT_SCHEDULE)}; a successful sign-in starts it again) ` +
  `and per client address, IPv6 by /64 (${scheduleText(ADDRESS_SCHEDULE)}). An attempt while either is locked is refused ` +
  "without checking the password: 429 `over_request_rate_limit` with `Retry-After` (seconds), also for the right password.";

/** The lock after the `failures`-th failure in a row. */
export function lockMs(schedule: LockoutSchedule, failures: number): number {
  if (failures < schedule.free) return 0;
  return Math.min(schedule.maxLockMs, schedule.firstLockMs * 2 ** (failures - schedule.free));
}

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
  return statement<{ failures: number }>(
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
const LOCKED_UNTIL = statement<{ lockedUntil: number }>(
  "sign_in_locked_until",
  `SELECT MAX("lockedUntil") AS "lockedUntil" FROM "SignInThrottle" WHERE "key" IN ($1, $2)`,
);
const RESET = statement("sign_in_reset", `DELETE FROM "SignInThrottle" WHERE "key" = $1`);
// The lock this attempt set stays: it is at most the first step, and only once the address is past its free failures.
const TAKE_BACK = statement(
  "sign_in_take_back",
  `UPDATE "SignInThrottle" SET "failures" = "failures" - 1 WHERE "key" = $1 AND "failures" > 0`,
);

export const accountKey = (email: string) => `e:${createHash("sha256").update(email).digest("hex")}`;
export const addressKey = (address: string) => `a:${addressUnit(address)}`;

/** An attempt that was admitted: settle it once the password was checked. */
export interface SignInAttempt {
  /** The password was right: the account starts again from zero, and the address gets this attempt back. */
  succeeded(): Promise<void>;
}

class Locked extends Error {}

/**
 * Counts a sign-in attempt for the account and the client's address (null
 * when unknown: only the account is counted), or refuses it with 429
 * `over_request_rate_limit` while either is locked.
 */
export async function admitSignIn(email: string, address: string | null, now = Date.now()): Promise<SignInAttempt> {
  const account = accountKey(email);
  const client = address ? addressKey(address) : null;
  try {
    await transaction(
      (function* () {
        if (client && !(yield* one(ADMIT_ADDRESS, client, now, now - ADDRESS_SCHEDULE.resetMs))) throw new Locked();
        if (!(yield* one(ADMIT_ACCOUNT, account, now, now - ACCOUNT_SCHEDULE.resetMs))) throw new Locked();
      })(),
    );
  } catch (err) {
    if (!(err instanceof Locked)) throw err;
    const row = await exec(one(LOCKED_UNTIL, account, client ?? account));
    const seconds = Math.max(1, Math.ceil(((row?.lockedUntil ?? now) - now) / 1000));
    throw new ApiError(
      429,
      "over_request_rate_limit",
      `Too many failed sign-in attempts: try again in ${seconds} seconds`,
      {},
      { "Retry-After": String(seconds) },
    );
  }
  return {
    succeeded: () =>
      exec(
        (function* () {
          yield* run(RESET, account);
          if (client) yield* run(TAKE_BACK, client);
        })(),
      ),
  };
}
