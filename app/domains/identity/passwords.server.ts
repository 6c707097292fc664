// Password hashing with scrypt (memory-hard, built into Node).
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { env } from "~/env.server";

// scrypt runs on libuv's threadpool (4 threads), which also serves DNS
// lookups and file access: unbounded, a burst of sign-ins fills it and every
// outbound fetch waits behind the hashes. One hash at a time per process
// leaves the other threads free; further hashes wait here, in order.
export const HASH_CONCURRENCY = 1;

const stats = { inFlight: 0, maxInFlight: 0, computed: 0 };
let slotsTaken = 0;
const waiting: (() => void)[] = [];

/** Hashes computed by this process, and the most that ever ran at once (tests read them). */
export function passwordHashStats(): Readonly<typeof stats> {
  return { ...stats };
}

async function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  // A released slot passes straight to the next waiter, so no newcomer slips in between.
  if (slotsTaken < HASH_CONCURRENCY) slotsTaken++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  stats.inFlight++;
  stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    stats.inFlight--;
    stats.computed++;
    const next = waiting.shift();
    if (next) next();
    else slotsTaken--;
  }
}

// N=2^15, r=8: 32 MiB per hash, roughly 50-100 ms on one core. Only the
// test suite lowers N (PASSWORD_TEST_SCRYPT_N); a hash names its own N.
const PARAMS = { N: env.PASSWORD_TEST_SCRYPT_N, r: 8, p: 1 };
const KEYLEN = 32;
const maxmem = 64 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { ...PARAMS, maxmem });
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem,
  });
  return timingSafeEqual(key, expected);
}

/** A fixed hash to verify against when the user does not exist, so timing does not reveal it. */
export const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$AAAAAAAAAAAAAAAAAAAAAA$${"A".repeat(43)}`;
