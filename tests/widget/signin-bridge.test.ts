// Sign-in bridge: POST /widget/oauth-state, /oauth-complete, /oauth-poll (SPEC 4.1, 7.1).
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
});

// The bridge needs no credentials at all.
const newState = async () => {
  const res = await api.post("/widget/oauth-state", { noApiKey: true });
  expect(res.status).toBe(200);
  return res.body.state as string;
};
const complete = (body: unknown) => api.post("/widget/oauth-complete", { noApiKey: true, body });
const poll = (body: unknown) => api.post("/widget/oauth-poll", { noApiKey: true, body });

async function signedIn() {
  const res = await api.post("/auth/signup", { body: {} });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string; expires_at: number; user: { id: string } };
}

/** The timestamp format Prisma stores on both databases (UTC). */
const dbTime = (date: Date) => date.toISOString().replace("Z", "+00:00");
const backdate = (state: string, minutesAgo: number) =>
  sql(api.server.databaseUrl, `UPDATE "OAuthState" SET "expiresAt" = ? WHERE state = ?`, [
    dbTime(new Date(Date.now() - minutesAgo * 60_000)),
    state,
  ]);
const row = async (state: string) =>
  (await sql<{ sessionData: string | null; consumedAt: unknown }>(
    api.server.databaseUrl,
    `SELECT "sessionData", "consumedAt" FROM "OAuthState" WHERE state = ?`,
    [state],
  ))[0];

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
}

describe("oauth-state", () => {
  it("creates a one-time state of 256 random bits, valid 10 minutes, with or without a body", async () => {
    const before = Date.now();
    const res = await api.post("/widget/oauth-state", { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({ state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_at: expect.any(String) });
    const ttl = Date.parse(res.body.expires_at) - before;
    expect(ttl).toBeGreaterThan(9.9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 5_000);

    const withBody = await api.post("/widget/oauth-state", { noApiKey: true, body: { anything: true } });
    expect(withBody.status).toBe(200);
    expect(withBody.body.state).not.toBe(res.body.state);
  });

  it("deletes states expired more than an hour ago when creating a new one", async () => {
    const old = await newState();
    const recent = await newState();
    await backdate(old, 61);
    await backdate(recent, 5);
    await newState();
    expect(await row(old)).toBeUndefined();
    expect(await row(recent)).toBeDefined();
    expectError(await poll({ state: recent }), 400, "invalid_or_expired_state");
  });
});

describe("the hand-over", () => {
  it("pending until completed, then the session exactly once", async () => {
    const state = await newState();
    const pending = await poll({ state });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ ok: true, status: "pending" });

    const session = await signedIn();
    const done = await complete({ state, session });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true });

    const first = await poll({ state });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body).toMatchObject({
      ok: true,
      status: "complete",
      session: {
        access_token: session.access_token,
        refresh_token: session.refresh_token,
        expires_at: session.expires_at,
        user: { id: session.user.id },
      },
    });
    // The handed-over tokens are the user's, and they work.
    const me = await api.get("/auth/user", { token: first.body.session.access_token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(session.user.id);

    expectError(await poll({ state }), 400, "invalid_or_expired_state");
    expectError(await complete({ state, session }), 400, "invalid_or_expired_state");
  });

  it("keeps only the known session fields", async () => {
    const state = await newState();
    const { access_token, refresh_token } = await signedIn();
    expect((await complete({ state, session: { access_token, refresh_token, extra: "dropped" } })).status).toBe(200);
    const res = await poll({ state });
    expect(res.body.session).toEqual({ access_token, refresh_token });
  });

  it("stores the tokens encrypted and wipes them once read", async () => {
    const state = await newState();
    const session = await signedIn();
    await complete({ state, session });
    const stored = await row(state);
    expect(stored.sessionData).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.sessionData).not.toContain(session.refresh_token);
    expect(stored.sessionData).not.toContain(session.access_token);
    expect(stored.sessionData).not.toContain(session.access_token.split(".")[1]);
    expect(Buffer.from(stored.sessionData!.split(".")[3], "base64url").toString("latin1")).not.toContain(session.refresh_token);
    expect(stored.consumedAt).toBeNull();

    expect((await poll({ state })).body.status).toBe("complete");
    const after = await row(state);
    expect(after.sessionData).toBeNull();
    expect(after.consumedAt).not.toBeNull();
  });

  it("concurrent polls: exactly one gets the session", async () => {
    const state = await newState();
    const session = await signedIn();
    await complete({ state, session });
    const results = await Promise.all(Array.from({ length: 12 }, () => poll({ state })));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0].body.session.refresh_token).toBe(session.refresh_token);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 400, "invalid_or_expired_state");
  });

  it("concurrent completes: exactly one is stored", async () => {
    const state = await newState();
    const sessions = await Promise.all(Array.from({ length: 6 }, () => signedIn()));
    const results = await Promise.all(sessions.map((session) => complete({ state, session })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 400, "invalid_or_expired_state");
    const winner = sessions[results.findIndex((r) => r.status === 200)];
    expect((await poll({ state })).body.session.refresh_token).toBe(winner.refresh_token);
  });
});

describe("errors", () => {
  it("400 missing_state without a state", async () => {
    const session = await signedIn();
    for (const body of [undefined, {}, { state: "" }, { state: 42 }, { session }, '"just a string"', "[]"]) {
      expectError(await complete(body), 400, "missing_state");
      expectError(await poll(body), 400, "missing_state");
    }
  });

  it("400 invalid_session_data for a missing or malformed session, or a token that is not a user token", async () => {
    const state = await newState();
    const session = await signedIn();
    const partner = await p.partner();
    const key = await p.key(partner.id);
    const init = await api.post("/widget/init", {
      headers: { authorization: `Bearer ${key.key}` },
      body: { origin: "https://shop.example.com" },
    });
    expect(init.status).toBe(200);
    const bad = [
      undefined,
      "tokens",
      [],
      {},
      { access_token: session.access_token },
      { refresh_token: session.refresh_token },
      { access_token: 1, refresh_token: session.refresh_token },
      { access_token: session.access_token, refresh_token: ["x"] },
      { access_token: session.access_token, refresh_token: session.refresh_token, user: "me" },
      { access_token: "not-a-jwt", refresh_token: session.refresh_token },
      // A widget token is signed by the same key but is no user token.
      { access_token: init.body.token, refresh_token: session.refresh_token },
      // Tampered signature.
      { access_token: session.access_token.slice(0, -4) + "AAAA", refresh_token: session.refresh_token },
    ];
    for (const s of bad) expectError(await complete({ state, session: s }), 400, "invalid_session_data");
    // None of them used the state up.
    expect((await poll({ state })).body).toEqual({ ok: true, status: "pending" });
    expect((await complete({ state, session })).status).toBe(200);
  });

  it("400 invalid_or_expired_state for unknown and expired states", async () => {
    const session = await signedIn();
    const unknown = "A".repeat(43);
    expectError(await complete({ state: unknown, session }), 400, "invalid_or_expired_state");
    expectError(await poll({ state: unknown }), 400, "invalid_or_expired_state");
    expectError(await poll({ state: "x".repeat(5000) }), 400, "invalid_or_expired_state");

    const expired = await newState();
    await backdate(expired, 1);
    expectError(await poll({ state: expired }), 400, "invalid_or_expired_state");
    expectError(await complete({ state: expired, session }), 400, "invalid_or_expired_state");

    // Completed in time but collected too late.
    const late = await newState();
    expect((await complete({ state: late, session })).status).toBe(200);
    await backdate(late, 1);
    expectError(await poll({ state: late }), 400, "invalid_or_expired_state");
  });

  it("500 internal_error when the stored session cannot be read", async () => {
    const state = await newState();
    await complete({ state, session: await signedIn() });
    // Ciphertext copied from another state does not decrypt here (bound to its state).
    const other = await newState();
    await complete({ state: other, session: await signedIn() });
    const { sessionData } = await row(other);
    await sql(api.server.databaseUrl, `UPDATE "OAuthState" SET "sessionData" = ? WHERE state = ?`, [sessionData, state]);
    const res = await poll({ state });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "internal_error", message: expect.any(String) });
  });
});
