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
import { exec, transaction } from "~/db/sql.server";
import { ApiError } from "~/lib/api/errors";
import { addressUnit } from "~/lib/api/client-address";
import { ACCOUNT_SCHEDULE, ADDRESS_SCHEDULE, type LockoutSchedule } from "./lockout";
import { admitAccount, admitAddress, lockedUntil, resetAccount, takeBackAddress } from "./sign-in-throttle.sql.server";

export { ACCOUNT_SCHEDULE, ADDRESS_SCHEDULE, lockMs, type LockoutSchedule } from "./lockout";

/** Rows whose last failure is older than this are past both reset windows: the prune job deletes them. */
export const THROTTLE_ROWS_KEPT_MS = Math.max(ACCOUNT_SCHEDULE.resetMs, ADDRESS_SCHEDULE.resetMs);

const scheduleText = (s: LockoutSchedule) =>
  `${s.free} free failures in a row, then a lock of ${s.firstLockMs / 1000} s doubling with each further failure up to ${s.maxLockMs / 60_000} min`;

/** The throttle in a sentence, for the route's description in the OpenAPI document. */
export const THROTTLE_DESCRIPTION =
  `Failed password sign-ins are throttled per account (${scheduleText(ACCOUNT_SCHEDULE)}; a successful sign-in starts it again) ` +
  `and per client address, IPv6 by /64 (${scheduleText(ADDRESS_SCHEDULE)}). An attempt while either is locked is refused ` +
  "without checking the password: 429 `over_request_rate_limit` with `Retry-After` (seconds), also for the right password.";

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
        if (client && !(yield* admitAddress(client, now))) throw new Locked();
        if (!(yield* admitAccount(account, now))) throw new Locked();
      })(),
    );
  } catch (err) {
    if (!(err instanceof Locked)) throw err;
    const until = await exec(lockedUntil(account, client ?? account));
    const seconds = Math.max(1, Math.ceil(((until ?? now) - now) / 1000));
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
          yield* resetAccount(account);
          if (client) yield* takeBackAddress(client);
        })(),
      ),
  };
}
