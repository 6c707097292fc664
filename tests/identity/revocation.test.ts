// Revocation is immediate: a revoked key's widget tokens and a revoked
// sign-in session's access tokens stop working on every instance and worker
// from the next request, whichever process revoked them (the CLI included),
// and the hot path pays no database read for knowing that.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, wish, type Api } from "../support/api.ts";
import { freshDatabaseUrl, kind } from "../support/database.ts";
import { provisioner } from "../support/provision.ts";
import { logSettled, startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { pause, until } from "../support/wait.ts";

const ORIGIN = "https://revoke.example.com";
const APP_URL = "https://wish.example";
const PROPAGATION_BUDGET_MS = 5_000; // poll every 1 s; generous for a loaded machine

let databaseUrl: string;
let a: TestServer;
let b: TestServer;
let apiA: Api;
let apiB: Api;
let p: Awaited<ReturnType<typeof provisioner>>;
const extra: TestServer[] = [];

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  // Two instances on one database, as behind a load balancer (one APP_URL: one token issuer).
  a = await startServer({ DATABASE_URL: databaseUrl, APP_URL });
  b = await startServer({ DATABASE_URL: databaseUrl, APP_URL });
  [apiA, apiB] = [await apiFor(a), await apiFor(b)];
  p = await provisioner(a);
});
afterAll(async () => {
  await Promise.all([a, b, ...extra].map((s) => s?.stop()));
});

async function partnerWithPat() {
  const partner = await p.partner("starter");
  const { createPersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
  const pat = await createPersonalAccessToken(partner.id, { name: "tooling" });
  return { partner, pat: pat.token as string };
}

async function widgetToken(api: Api, publicKey: string) {
  const init = await api.post("/widget/init", { token: publicKey, body: { origin: ORIGIN } });
  expect(init.status, init.text).toBe(200);
  return init.body.token as string;
}

/** A hot widget read: widget token + user token. */
/** Repeats `call` until it answers `status`, within the propagation budget. */
const answers = (call: () => Promise<{ status: number }>, status: number) =>
  until(`answers ${status}`, call, (res) => res.status === status, { timeoutMs: PROPAGATION_BUDGET_MS, everyMs: 100 });

const widgetRead = (api: Api, token: string, user: { accessToken: string }) =>
  api.get("/widget/saved-products", { token: user.accessToken, headers: { "x-widget-token": token, origin: ORIGIN } });

interface FreshInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A request on a fresh connection each time, so the cluster hands consecutive ones to different workers. */
function freshRequest(server: TestServer, api: Api, path: string, init: FreshInit = {}) {
  return new Promise<{ status: number; body: Record<string, unknown> | null }>((resolve, reject) => {
    const req = http.request(
      `${server.baseUrl}${path}`,
      { method: init.method ?? "GET", agent: false, headers: { apikey: api.anonKey, "content-type": "application/json", ...init.headers } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on("error", reject);
    req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
  });
}

/** The worker processes whose request lines appear in `output` (one pid per worker). */
const workersServing = (server: TestServer, output = server.output()) =>
  new Set(output.split("\n").filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l).pid)).size;

describe("widget tokens of a revoked key", () => {
  it("get 403 forbidden at once on the revoking instance and within seconds on the other", async () => {
    const { partner, pat } = await partnerWithPat();
    const key = await p.key(partner.id);
    const user = await apiA.anonymousUser();
    const token = await widgetToken(apiA, key.key);
    expect((await widgetRead(apiA, token, user)).status).toBe(200);
    expect((await widgetRead(apiB, token, user)).status).toBe(200);

    const revoked = await apiB.post(`/partner/keys/${key.id}/revoke`, { token: pat });
    expect(revoked.status, revoked.text).toBe(200);
    const onB = await widgetRead(apiB, token, user);
    expect(onB.status).toBe(403);
    expect(onB.body.error).toBe("forbidden");
    await answers(() => widgetRead(apiA, token, user), 403);
    const onA = await widgetRead(apiA, token, user);
    expect(onA.body).toMatchObject({ error: "forbidden" });
    // Every widget-token route, not only reads.
    const save = await apiA.post("/widget/save", {
      token: user.accessToken,
      headers: { "x-widget-token": token, origin: ORIGIN },
      body: { product: { url: `${ORIGIN}/products/x`, title: "X" } },
    });
    expect(save.status).toBe(403);
    expect((await apiA.post("/widget/session-restore", { headers: { "x-widget-token": token, origin: ORIGIN }, body: { sid: "s".repeat(20) } })).status).toBe(403);
  });

  it("also when the key was revoked outside any instance (operator tooling writing the database)", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    const user = await apiA.anonymousUser();
    const token = await widgetToken(apiB, key.key);
    expect((await widgetRead(apiA, token, user)).status).toBe(200);
    const { revokeApiKey } = await import("~/domains/keys/keys.server");
    await revokeApiKey(partner.id, key.id);
    await answers(() => widgetRead(apiA, token, user), 403);
    await answers(() => widgetRead(apiB, token, user), 403);
  });

  it("a rotated key's tokens keep working through the grace period and stop when it ends", async () => {
    const { partner, pat } = await partnerWithPat();
    const key = await p.key(partner.id);
    const user = await apiA.anonymousUser();
    const oldToken = await widgetToken(apiA, key.key);
    const rotated = await apiB.post(`/partner/keys/${key.id}/rotate`, { token: pat });
    expect(rotated.status, rotated.text).toBe(200);
    // Both instances learn of the rotation (nothing outside them shows when), then the grace period holds.
    await pause(2_500, "both instances have had the rotation's change signal and a poll (every 1 s): a refusal would show now");
    for (const api of [apiA, apiB]) expect((await widgetRead(api, oldToken, user)).status).toBe(200);
    // The old value still mints tokens during the grace period, and they work too.
    const graceToken = await widgetToken(apiA, key.key);
    expect((await widgetRead(apiB, graceToken, user)).status).toBe(200);
    const newToken = await widgetToken(apiB, rotated.body.key.key);
    expect((await widgetRead(apiA, newToken, user)).status).toBe(200);

    // The grace period ends (moved into the past instead of waiting 15 minutes).
    // (The timestamp format Prisma stores on both databases, UTC.)
    const dbTime = new Date(Date.now() - 1000).toISOString().replace("Z", "+00:00");
    await sql(databaseUrl, `UPDATE "ApiKey" SET "graceExpiresAt" = ? WHERE id = ?`, [dbTime, key.id]);
    for (const api of [apiA, apiB]) {
      await answers(() => widgetRead(api, oldToken, user), 403);
      expect((await widgetRead(api, graceToken, user)).status).toBe(403);
      expect((await widgetRead(api, newToken, user)).status).toBe(200);
    }
  });
});

describe("access tokens of a revoked sign-in session", () => {
  async function portalUser(partnerId: number, api: Api) {
    const email = `portal-${randomBytes(4).toString("hex")}@shop.example`;
    const signup = await api.post("/auth/signup", { body: { email, password: "portal password 1" } });
    expect(signup.status, signup.text).toBe(200);
    const { addPartnerUser } = await import("~/domains/partners/partners.server");
    await addPartnerUser(partnerId, signup.body.user.id);
    return { accessToken: signup.body.access_token as string, refreshToken: signup.body.refresh_token as string, userId: signup.body.user.id as string };
  }

  /** Every credential-minting or ownership-changing call this user token can make, on `api`. */
  async function mintingCalls(api: Api, accessToken: string, keyId: number, anonToken: string) {
    return {
      pat: await api.post("/partner/access-tokens", { token: accessToken, body: { name: "stolen" } }),
      key: await api.post("/partner/keys", { token: accessToken, body: { environment: "test" } }),
      rotate: await api.post(`/partner/keys/${keyId}/rotate`, { token: accessToken }),
      domains: await api.put(`/partner/keys/${keyId}/allowed-domains`, { token: accessToken, body: { allowed_domains: ["evil.example"] } }),
      revoke: await api.post(`/partner/keys/${keyId}/revoke`, { token: accessToken }),
      delete: await api.delete(`/partner/keys/${keyId}`, { token: accessToken }),
      migrate: await api.post("/hosted/migrate-anonymous-to-provider", { token: accessToken, body: { anonymous_access_token: anonToken } }),
    };
  }

  function expectAllUnauthorized(results: Record<string, { status: number; body: any; text: string }>) {
    for (const [name, res] of Object.entries(results)) {
      expect(res.status, `${name}: ${res.text}`).toBe(401);
      expect(res.body.error, name).toBe("unauthorized");
    }
  }

  it("after logout on one instance, the old token mints nothing on either instance (401 unauthorized)", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    const portal = await portalUser(partner.id, apiA);
    const anon = await apiA.anonymousUser();
    // Live: it works (a PAT is minted).
    expect((await apiA.post("/partner/access-tokens", { token: portal.accessToken, body: { name: "ok" } })).status).toBe(201);

    expect((await apiB.post("/auth/logout", { token: portal.accessToken })).status).toBe(204);
    // Minting routes read the session: no window at all, on either instance.
    expectAllUnauthorized(await mintingCalls(apiA, portal.accessToken, key.id, anon.accessToken));
    expectAllUnauthorized(await mintingCalls(apiB, portal.accessToken, key.id, anon.accessToken));
    // Nothing was minted or changed.
    const [{ n }] = await sql<{ n: number }>(databaseUrl, `SELECT COUNT(*) AS n FROM "PersonalAccessToken" WHERE "partnerId" = ?`, [partner.id]);
    expect(Number(n)).toBe(2); // partnerWithPat's and the one minted while live
    const [row] = await sql<{ status: string }>(databaseUrl, `SELECT status FROM "ApiKey" WHERE id = ?`, [key.id]);
    expect(row!.status).toBe("active");
    // Every other user route follows within seconds (in-memory view).
    await answers(() => apiA.post("/hosted/lists", { token: portal.accessToken }), 401);
    expect((await apiB.post("/hosted/lists", { token: portal.accessToken })).status).toBe(401);
  });

  it("after refresh-token reuse revoked the family, the old access token mints nothing", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    const portal = await portalUser(partner.id, apiA);
    const anon = await apiA.anonymousUser();
    const refreshed = await apiA.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: portal.refreshToken } });
    expect(refreshed.status).toBe(200);
    const reuse = await apiB.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: portal.refreshToken } });
    expect(reuse.body.error).toBe("refresh_token_already_used");
    for (const accessToken of [portal.accessToken, refreshed.body.access_token as string]) {
      expectAllUnauthorized(await mintingCalls(apiA, accessToken, key.id, anon.accessToken));
    }
    await answers(() => apiA.post("/hosted/lists", { token: portal.accessToken }), 401);
  });

  it("a logged-out anonymous session can neither be migrated from nor stored for a widget", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    const provider = await apiA.post("/auth/signup", { body: { email: `p-${randomBytes(4).toString("hex")}@example.com`, password: "provider password" } });
    const anon = await apiA.anonymousUser();
    expect((await apiB.post("/auth/logout", { token: anon.accessToken })).status).toBe(204);
    const migrate = await apiA.post("/hosted/migrate-anonymous-to-provider", {
      token: provider.body.access_token,
      body: { anonymous_access_token: anon.accessToken },
    });
    expect(migrate.status, migrate.text).toBe(401);
    expect(migrate.body.error).toBe("unauthorized");

    const token = await widgetToken(apiA, key.key);
    const store = await apiA.post("/widget/session-store", {
      headers: { "x-widget-token": token, origin: ORIGIN },
      body: { access_token: anon.accessToken, refresh_token: anon.refreshToken, sid: "revoked-session-sid-0001" },
    });
    expect(store.status, store.text).toBe(401);
    expect(store.body.error).toBe("invalid_access_token");
  });
});

describe("the hot path", () => {
  it("reads neither keys nor sign-in sessions per request: the status checks are answered from memory", async () => {
    // LOG_LEVEL=debug logs every statement; a long poll interval keeps the poll out of the measured window.
    const c = await startServer({ DATABASE_URL: databaseUrl, APP_URL, LOG_LEVEL: "debug", REVOCATION_POLL_MS: "600000" });
    extra.push(c);
    const apiC = await apiFor(c);
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    const user = await apiC.anonymousUser();
    const token = await widgetToken(apiC, key.key);
    const list = await apiC.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Hot" } });
    expect(list.status).toBe(200);

    const mark = (await logSettled(c)).length;
    for (let i = 0; i < 20; i++) {
      expect((await widgetRead(apiC, token, user)).status).toBe(200);
      expect((await apiC.post("/widget/lists", { token: user.accessToken, headers: { "x-widget-token": token, origin: ORIGIN } })).status).toBe(200);
      expect((await apiC.post("/hosted/lists", { token: user.accessToken })).status).toBe(200);
      expect((await apiC.get(`/hosted/lists/${list.body.token}/items`, { token: user.accessToken })).status).toBe(200);
    }
    await logSettled(c);
    const queriesIn = (text: string) =>
      text
        .split("\n")
        .filter((line) => line.includes('"msg":"db query"'))
        .map((line) => JSON.parse(line).query as string);
    // Either quoting: `main`.`ApiKey` (SQLite) or "public"."ApiKey" (PostgreSQL).
    const touches = (query: string) => /[`"](ApiKey|AuthSession)[`"]/.test(query);
    // The log works, and the matcher finds key and session reads where they do happen (init, sign-up, the poll).
    expect(queriesIn(c.output().slice(0, mark)).filter(touches).length).toBeGreaterThan(0);
    const measured = queriesIn(c.output().slice(mark));
    expect(measured.length).toBeGreaterThan(0); // these routes do read their own data
    expect(measured.filter(touches)).toEqual([]);

    // With this instance's poll parked, a revocation made by another process still reaches its
    // next request: the change signal, not a read per request, tells it.
    const { revokeApiKey } = await import("~/domains/keys/keys.server");
    await revokeApiKey(partner.id, key.id);
    expect((await apiB.post("/auth/logout", { token: user.accessToken })).status).toBe(204);
    expect((await widgetRead(apiC, token, user)).status).toBe(403);
    expect((await apiC.post("/hosted/lists", { token: user.accessToken })).status).toBe(401);
  });
});

describe("the worker processes of one instance (WEB_CONCURRENCY=2)", () => {
  // Polls and the configuration cache slowed down to ten minutes: only the message between workers can explain a refusal.
  const SLOW = { REVOCATION_POLL_MS: "600000", CONFIG_CACHE_TTL_MS: "600000" };
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: databaseUrl, APP_URL, ...SLOW }, { workers: 2 });
    extra.push(server);
    api = await apiFor(server);
  });

  const fresh = (path: string, init: FreshInit = {}) => freshRequest(server, api, path, init);
  const workersSeen = () => workersServing(server);

  it("a key revoked through one worker is refused by every worker at once: cached configuration and widget tokens", async () => {
    const { partner, pat } = await partnerWithPat();
    const key = await p.key(partner.id);
    const user = await api.anonymousUser();
    const init = () => fresh("/widget/init", { method: "POST", headers: { authorization: `Bearer ${key.key}` }, body: { origin: ORIGIN } });
    const first = await init();
    expect(first.status).toBe(200);
    const token = first.body!.token as string;
    const read = () => fresh("/widget/saved-products", { headers: { authorization: `Bearer ${user.accessToken}`, "x-widget-token": token, origin: ORIGIN } });
    // Every worker has the key's configuration cached and has served the token.
    for (let i = 0; i < 6; i++) {
      expect((await init()).status).toBe(200);
      expect((await read()).status).toBe(200);
    }
    // Both workers answered (their request lines may arrive a moment after the answers).
    await expect.poll(workersSeen, { timeout: 5000 }).toBe(2);

    expect((await fresh(`/partner/keys/${key.id}/revoke`, { method: "POST", headers: { authorization: `Bearer ${pat}` } })).status).toBe(200);
    await pause(50, "the message between the workers, which 'at once' allows: no poll or cache expiry can happen in it");
    for (let i = 0; i < 6; i++) {
      expect((await init()).body).toMatchObject({ error: "unknown_key" });
      expect((await read()).status).toBe(403);
    }
  });

  it("a session logged out through one worker is refused by every worker at once", async () => {
    const user = await api.anonymousUser();
    const me = () => fresh("/auth/user", { headers: { authorization: `Bearer ${user.accessToken}` } });
    for (let i = 0; i < 6; i++) expect((await me()).status).toBe(200);
    expect((await fresh("/auth/logout", { method: "POST", headers: { authorization: `Bearer ${user.accessToken}` } })).status).toBe(204);
    await pause(50, "the message between the workers, which 'at once' allows");
    for (let i = 0; i < 6; i++) expect((await me()).status).toBe(401);
  });
});

describe.each([1, 2])("changes made by another process, %i worker(s)", (workers) => {
  // The poll and the configuration cache slowed down to ten minutes, so only the change signal can explain a refusal.
  const SLOW = { REVOCATION_POLL_MS: "600000", CONFIG_CACHE_TTL_MS: "600000" };
  let server: TestServer;
  let other: TestServer;
  let api: Api;
  let otherApi: Api;

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: databaseUrl, APP_URL, ...SLOW }, { workers });
    extra.push(server);
    other = await startServer({ DATABASE_URL: databaseUrl, APP_URL, ...SLOW });
    extra.push(other);
    [api, otherApi] = [await apiFor(server), await apiFor(other)];
  });

  const fresh = (path: string, init: FreshInit = {}) => freshRequest(server, api, path, init);

  /** A key whose configuration and widget token every worker has used, with the calls that use them. */
  async function warmKey() {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    const user = await api.anonymousUser();
    const init = () => fresh("/widget/init", { method: "POST", headers: { authorization: `Bearer ${key.key}` }, body: { origin: ORIGIN } });
    const first = await init();
    expect(first.status).toBe(200);
    const headers = { authorization: `Bearer ${user.accessToken}`, "x-widget-token": first.body!.token as string, origin: ORIGIN };
    const read = () => fresh("/widget/saved-products", { headers });
    const save = () => fresh("/widget/save", { method: "POST", headers, body: { product: { url: `${ORIGIN}/products/x`, title: "X" } } });
    for (let i = 0; i < 6; i++) {
      expect((await init()).status).toBe(200);
      expect((await read()).status).toBe(200);
    }
    if (workers > 1) await expect.poll(() => workersServing(server), { timeout: 5000 }).toBe(workers);
    return { key, init, read, save };
  }

  it("a key revoked by `wish key revoke` is refused by the very next init and widget-token requests, on every worker", async () => {
    const { key, init, read, save } = await warmKey();
    const mark = server.output().length;
    await wish(databaseUrl, ["key", "revoke", "--id", String(key.id)]);
    // No pause: the CLI has exited, and the next requests must know.
    const firstRead = await read();
    expect(firstRead.status).toBe(403);
    expect(firstRead.body).toMatchObject({ error: "forbidden" });
    const firstInit = await init();
    expect(firstInit.status).toBe(403);
    expect(firstInit.body).toMatchObject({ error: "unknown_key" });
    const firstSave = await save();
    expect(firstSave.status).toBe(403);
    expect(firstSave.body).toMatchObject({ error: "forbidden" });
    for (let i = 0; i < 6; i++) {
      expect((await init()).body).toMatchObject({ error: "unknown_key" });
      expect((await read()).status).toBe(403);
    }
    // Every worker answered after the revocation (request lines may arrive a moment after the answers).
    await expect.poll(() => workersServing(server, server.output().slice(mark)), { timeout: 5000 }).toBe(workers);
  });

  it("a key rotated by `wish key rotate` keeps its grace period, and an allow-list changed by `wish key domains` applies from the next init", async () => {
    const { key, init, read } = await warmKey();
    const rotated = await wish(databaseUrl, ["key", "rotate", "--id", String(key.id)]);
    for (let i = 0; i < 4; i++) {
      expect((await init()).status).toBe(200);
      expect((await read()).status).toBe(200);
    }
    const newKey = rotated.key as { id: number; key: string };
    const initNew = () => fresh("/widget/init", { method: "POST", headers: { authorization: `Bearer ${newKey.key}` }, body: { origin: ORIGIN } });
    for (let i = 0; i < 4; i++) expect((await initNew()).status).toBe(200);
    await wish(databaseUrl, ["key", "domains", "--id", String(newKey.id), "--domains", "elsewhere.example.com"]);
    for (let i = 0; i < 4; i++) expect((await initNew()).body).toMatchObject({ error: "origin_not_allowed" });
  });

  it("a sign-in session logged out on another instance is refused by the very next request", async () => {
    const user = await api.anonymousUser();
    const me = () => fresh("/auth/user", { headers: { authorization: `Bearer ${user.accessToken}` } });
    for (let i = 0; i < 6; i++) expect((await me()).status).toBe(200);
    expect((await otherApi.post("/auth/logout", { token: user.accessToken })).status).toBe(204);
    for (let i = 0; i < 6; i++) expect((await me()).status).toBe(401);
  });
});

// Only PostgreSQL processes hold a listening connection (SQLite reads its change counters per request).
if (kind === "postgresql") {
  describe("the change listener (PostgreSQL)", () => {
    const listeners = async () =>
      Number(
        (await sql<{ n: number }>(databaseUrl, `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN wish_changes'`))[0]!.n,
      );

    it("a lost LISTEN connection never leaves a process stale: it reads the database until it listens again, then reloads", async () => {
      const server = await startServer({ DATABASE_URL: databaseUrl, APP_URL, REVOCATION_POLL_MS: "600000", CONFIG_CACHE_TTL_MS: "600000" });
      extra.push(server);
      const api = await apiFor(server);
      const { partner } = await partnerWithPat();
      const [quiet, loud] = [await p.key(partner.id), await p.key(partner.id)];
      const user = await api.anonymousUser();
      const tokens = [await widgetToken(api, quiet.key), await widgetToken(api, loud.key)];
      for (const token of tokens) expect((await widgetRead(api, token, user)).status).toBe(200);
      const before = await listeners();
      expect(before).toBeGreaterThan(0);

      // Revoked behind every process's back (no signal), then the listening connections cut.
      await sql(databaseUrl, `UPDATE "ApiKey" SET status = 'revoked', "revokedAt" = NOW() WHERE id = ?`, [quiet.id]);
      await sql(databaseUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN wish_changes'`);
      await expect.poll(() => server.output().includes("change listener lost its connection"), { timeout: 5000 }).toBe(true);
      // Not listening: the database answers; listening again: the view was reloaded. Either way, refused.
      expect((await widgetRead(api, tokens[0]!, user)).status).toBe(403);
      expect((await api.post("/widget/init", { token: quiet.key, body: { origin: ORIGIN } })).body).toMatchObject({ error: "unknown_key" });
      expect((await widgetRead(api, tokens[1]!, user)).status).toBe(200);

      // It listens again, and signals work as before.
      await expect.poll(listeners, { timeout: 10_000 }).toBe(before);
      await wish(databaseUrl, ["key", "revoke", "--id", String(loud.id)]);
      expect((await widgetRead(api, tokens[1]!, user)).status).toBe(403);
    });
  });
}
