// How failed sign-ins lock a key (sign-in-throttle.server.ts): the schedules
// and the lock after each failure, which the throttle's statements also
// write out as SQL (sign-in-throttle.sql.server.ts).

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

/** The lock after the `failures`-th failure in a row. */
export function lockMs(schedule: LockoutSchedule, failures: number): number {
  if (failures < schedule.free) return 0;
  return Math.min(schedule.maxLockMs, schedule.firstLockMs * 2 ** (failures - schedule.free));
}

