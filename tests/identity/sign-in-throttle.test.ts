// Password guessing: failed sign-ins are throttled per account and per client
// address (counted in the database), a locked attempt is refused before any
// hashing, and hashing runs one at a time per process so it cannot fill
// libuv's threadpool (which DNS lookups and file access share).
import { createHash } from "node:crypto";
import { promises as dns } from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api, type ApiResponse } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

const password = "a good long password";
const email = (tag = "g") => `${tag}-${Math.random().toString(36).slice(2)}@example.test`;
const accountKey = (address: string) => `e:${createHash("sha256").update(address).digest("hex")}`;
let nextHost = 1;
/** A fresh IPv4 client address (TEST-NET-3), one per call. */
const freshAddress = () => `203.0.113.${nextHost++}`;

let server: TestServer;
let api: Api;

beforeAll(async () => {
  // Behind a trusted proxy (loopback), X-Forwarded-For names the client: each test picks its addresses.
  server = await startServer({ TRUSTED_PROXIES: "loopback" });
  api = await apiFor(server);
});
afterAll(async () => {
  await server?.stop();
});

function signIn(address: string, from: string, pass = "not the password"): Promise<ApiResponse> {
  return api.post("/auth/token?grant_type=password", { body: { email: address, password: pass }, headers: { "x-forwarded-for": from } });
}

async function account(tag?: string): Promise<string> {
  const address = email(tag);
  const res = await api.post("/auth/signup", { body: { email: address, password }, headers: { "x-forwarded-for": freshAddress() } });
  expect(res.status).toBe(200);
  return address;
}

function expectLocked(res: ApiResponse, retryAfter?: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: "over_request_rate_limit", message: expect.stringMatching(/^Too many failed sign-in attempts/) });
  const seconds = Number(res.headers.get("retry-after"));
  if (retryAfter === undefined) expect(seconds).toBeGreaterThan(0);
  // The lock was set a moment ago: Retry-After rounds up what is left of it.
  else expect(seconds).toSatisfy((s: number) => s === retryAfter || s === retryAfter - 1);
}

async function throttleRow(key: string) {
  const [row] = await sql<{ failures: number; lockedUntil: string }>(server.databaseUrl, `SELECT "failures", "lockedUntil" FROM "SignInThrottle" WHERE "key" = ?`, [key]);
  return row ? { failures: Number(row.failures), lockedUntil: Number(row.lockedUntil) } : null;
}

/** Lets a lock run out without waiting for it (the row's time is all the throttle reads). */
const endLock = (key: string) => sql(server.databaseUrl, `UPDATE "SignInThrottle" SET "lockedUntil" = 0 WHERE "key" = ?`, [key]);

describe("one account guessed from one address", () => {
  it("five failures, then 429 over_request_rate_limit for 15 s, for the right password too and from any address", async () => {
    const victim = await account();
    const attacker = freshAddress();
    for (let i = 0; i < 5; i++) {
      const res = await signIn(victim, attacker);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_credentials");
    }
    expectLocked(await signIn(victim, attacker), 15);
    expectLocked(await signIn(victim, attacker, password), 15);
    // Decided: an account lock holds for every address (else guessing from many addresses would not be throttled).
    expectLocked(await signIn(victim, freshAddress(), password), 15);
    // The address itself is not locked: another account from it is checked as usual.
    expect((await signIn(await account(), attacker, password)).status).toBe(200);
    expect(await throttleRow(accountKey(victim))).toMatchObject({ failures: 5 });
  });

  it("each failure after a lock doubles the next one (15 s, 30 s, 60 s); the right password works once it ends, and starts the count again", async () => {
    const victim = await account();
    const attacker = freshAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(victim, attacker)).status).toBe(400);
    expectLocked(await signIn(victim, attacker), 15);
    for (const lock of [30, 60]) {
      await endLock(accountKey(victim));
      expect((await signIn(victim, attacker)).status).toBe(400);
      expectLocked(await signIn(victim, attacker), lock);
    }
    await endLock(accountKey(victim));
    expect((await signIn(victim, freshAddress(), password)).status).toBe(200);
    expect(await throttleRow(accountKey(victim))).toBeNull();
    for (let i = 0; i < 5; i++) expect((await signIn(victim, attacker)).status).toBe(400);
    expectLocked(await signIn(victim, attacker), 15);
  });

  it("a successful sign-in resets the account's count", async () => {
    const owner = await account();
    const from = freshAddress();
    for (let i = 0; i < 4; i++) expect((await signIn(owner, from)).status).toBe(400);
    expect((await signIn(owner, from, password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn(owner, from)).status).toBe(400);
    expectLocked(await signIn(owner, from));
  });

  it("unknown e-mails are counted like accounts, so a lockout tells nothing about who has one", async () => {
    const nobody = email("nobody");
    const from = freshAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(nobody, from)).body.error).toBe("invalid_credentials");
    expectLocked(await signIn(nobody, from), 15);
  });
});

describe("many accounts guessed from one address", () => {
  it("twenty failures from an address, then 429 for 60 s, whichever account; other addresses sign in as usual", async () => {
    const attacker = freshAddress();
    for (let i = 0; i < 20; i++) expect((await signIn(email(), attacker)).status).toBe(400);
    expectLocked(await signIn(email(), attacker), 60);
    const owner = await account();
    expectLocked(await signIn(owner, attacker, password), 60);
    expect((await signIn(owner, freshAddress(), password)).status).toBe(200);
    expect(await throttleRow(`a:${attacker}`)).toMatchObject({ failures: 20 });
  });

  it("IPv6 addresses count by /64: rotating through one prefix does not help", async () => {
    const group = (nextHost++).toString(16);
    const prefix = `2001:db8:${group}:1`;
    for (let i = 0; i < 20; i++) expect((await signIn(email(), `${prefix}::${(i + 1).toString(16)}`)).status).toBe(400);
    expectLocked(await signIn(email(), `${prefix}:ffff:ffff:ffff:ffff`), 60);
    // The neighbouring /64 is someone else.
    expect((await signIn(email(), `2001:db8:${group}:2::1`)).status).toBe(400);
    expect(await throttleRow(`a:2001:db8:${group}:1::/64`)).toMatchObject({ failures: 20 });
  });

  it("a success from an address gives that attempt back but does not clear the address's failures", async () => {
    const from = freshAddress();
    const owner = await account();
    for (let i = 0; i < 3; i++) expect((await signIn(email(), from)).status).toBe(400);
    expect((await signIn(owner, from, password)).status).toBe(200);
    expect(await throttleRow(`a:${from}`)).toMatchObject({ failures: 3 });
  });
});

describe("concurrent guesses (two worker processes on one database)", () => {
  let twin: TestServer;
  let twinApi: Api;
  beforeAll(async () => {
    twin = await startServer({ TRUSTED_PROXIES: "loopback", DATABASE_URL: await freshDatabaseUrl() }, { workers: 2 });
    twinApi = await apiFor(twin);
  });
  afterAll(async () => {
    await twin?.stop();
  });

  const guess = (address: string, from: string) =>
    twinApi.post("/auth/token?grant_type=password", { body: { email: address, password: "not the password" }, headers: { "x-forwarded-for": from } });
  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();

  it("thirty guesses at one account at once, each from another address: exactly five are checked, every one counted", async () => {
    const victim = email();
    const responses = await Promise.all(Array.from({ length: 30 }, () => guess(victim, freshAddress())));
    expect(statuses(responses)).toEqual([...Array(5).fill(400), ...Array(25).fill(429)]);
    for (const res of responses.filter((r) => r.status === 429)) expectLocked(res);
    const [row] = await sql<{ failures: number }>(twin.databaseUrl, `SELECT "failures" FROM "SignInThrottle" WHERE "key" = ?`, [accountKey(victim)]);
    expect(Number(row!.failures)).toBe(5);
  });

  it("forty guesses from one address at once, each at another account: exactly twenty are checked, every one counted", async () => {
    const attacker = freshAddress();
    const accounts = Array.from({ length: 40 }, () => email());
    const responses = await Promise.all(accounts.map((address) => guess(address, attacker)));
    expect(statuses(responses)).toEqual([...Array(20).fill(400), ...Array(20).fill(429)]);
    const [row] = await sql<{ failures: number }>(twin.databaseUrl, `SELECT "failures" FROM "SignInThrottle" WHERE "key" = ?`, [`a:${attacker}`]);
    expect(Number(row!.failures)).toBe(20);
    // Refused by the address, nothing was counted against those accounts.
    const counted = await sql<{ key: string }>(twin.databaseUrl, `SELECT "key" FROM "SignInThrottle" WHERE "key" LIKE 'e:%'`);
    const keys = new Set(counted.map((r) => r.key));
    expect(accounts.filter((address) => keys.has(accountKey(address)))).toHaveLength(20);
  });
});

describe("hashing (in this process, on the domain functions)", () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = server.databaseUrl;
    Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_URL: server.url, LOG_LEVEL: "warn" });
  });

  it("at most one scrypt runs at a time, and a DNS lookup does not wait behind the queued ones", async () => {
    const { DUMMY_HASH, HASH_CONCURRENCY, passwordHashStats, verifyPassword } = await import("~/domains/identity/passwords.server");
    expect(HASH_CONCURRENCY).toBe(1);
    // More hashes than libuv has threads: unbounded, they would fill the threadpool and queue the lookup behind them.
    const count = Number(process.env.UV_THREADPOOL_SIZE ?? 4) + 6;
    const before = passwordHashStats();
    let finished = 0;
    const hashes = Array.from({ length: count }, () => verifyPassword("guess", DUMMY_HASH).then(() => finished++));
    await dns.lookup("localhost");
    const finishedAtLookup = finished;
    await Promise.all(hashes);
    const after = passwordHashStats();
    expect(after.computed - before.computed).toBe(count);
    expect(after.maxInFlight).toBe(1);
    // Ordering, not time: the lookup got a thread while at most the one running hash could finish.
    expect(finishedAtLookup).toBeLessThanOrEqual(HASH_CONCURRENCY);
  });

  it("attempts past the threshold are refused without hashing", async () => {
    const { passwordGrant } = await import("~/domains/identity/identity.server");
    const { passwordHashStats } = await import("~/domains/identity/passwords.server");
    const victim = email();
    const before = passwordHashStats().computed;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 25 }, () => passwordGrant({ email: victim, password: "not the password" }, freshAddress())),
    );
    const codes = outcomes.map((o) => (o.status === "rejected" ? (o.reason as { code: string }).code : "ok")).sort();
    expect(codes).toEqual([...Array(5).fill("invalid_credentials"), ...Array(20).fill("over_request_rate_limit")]);
    expect(passwordHashStats().computed - before).toBe(5);
    expect(passwordHashStats().maxInFlight).toBe(1);
  });

  it("the prune job deletes rows a day past their last failure, and only those", async () => {
    const { pruneSignInThrottle } = await import("~/flows/pruning.server");
    const now = Date.now();
    await sql(databaseUrl, `INSERT INTO "SignInThrottle" ("key", "failures", "lastFailureAt", "lockedUntil") VALUES (?, 3, ?, ?), (?, 3, ?, ?)`, [
      "e:old",
      now - 86_400_000 - 1000,
      now - 86_400_000 - 1000,
      "e:recent",
      now - 86_400_000 + 60_000,
      now - 86_400_000 + 60_000,
    ]);
    expect(await pruneSignInThrottle(now)).toBeGreaterThanOrEqual(1);
    const keys = (await sql<{ key: string }>(databaseUrl, `SELECT "key" FROM "SignInThrottle" WHERE "key" IN ('e:old', 'e:recent')`)).map((r) => r.key);
    expect(keys).toEqual(["e:recent"]);
  });
});
