// Waiting for state another process reaches (a server, a worker, a browser):
// one polling helper for the whole suite instead of fixed sleeps.

export interface UntilOptions {
  /** Give up after this long (default 15 s: only a failing wait takes it). */
  timeoutMs?: number;
  /** Pause between reads (default 50 ms). */
  everyMs?: number;
}

/**
 * Reads `read` until `done` holds for its value and resolves with that value;
 * rejects naming `what` and the last value read when `timeoutMs` passes.
 */
export async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean = Boolean,
  { timeoutMs = 15_000, everyMs = 50 }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await sleep(everyMs);
  }
}

/** How long `wait` took, in ms (for waits whose duration is what a test checks, such as propagation budgets). */
export async function timed(wait: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await wait();
  return Date.now() - started;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The suite's only deliberate pause, for where the absence of something is what a test checks (a window
 * that must pass before "nothing more happened" means anything, a peer given the chance to act) or for
 * pacing a sampling loop. `reason` says which, for the reader and for a failure's trace. Anything that
 * can be observed is waited for with `until` or `expect.poll` instead.
 */
export const pause = (ms: number, reason: string) => {
  void reason;
  return sleep(ms);
};

/** Until this machine's clock (which the servers share) is past `since` (default now): a later timestamp than any written before. */
export const clockPast = (since = Date.now()) => until("the clock moved on", () => Date.now(), (now) => now > since, { everyMs: 1 });
