// Public-key lifecycle through the partner routes (SPEC section 5 rules 3-7):
// create, list, allow-list, rotate with a 15-minute grace period, revoke,
// delete; personal access tokens; partner scoping. Checked end to end at
// `POST /widget/init`, plus the operator CLI's key commands.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi, wish, wishRaw } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MINUTE = 60_000;
const DAY = 86_400_000;
const ORIGIN = "https://shop.example.com";

const cli = (args: string[]) => wish(api.server.databaseUrl, args);
const q = (text: string, params: unknown[] = []) => sql<any>(api.server.databaseUrl, text, params);

/** A partner and a personal access token for it (arranged in-process; the CLI's own commands are tested below and in tests/operations/cli.test.ts). */
async function partnerWithPat(): Promise<{ partnerId: number; pat: string; patId: number }> {
  const partner = await p.partner("free", "Key Shop", "keys@shop.example");
  const pat = await p.pat(partner.id);
  return { partnerId: partner.id, pat: pat.token, patId: pat.id };
}

const createKey = (pat: string, body: unknown) => api.post("/partner/keys", { token: pat, body });
const init = (key: string, origin = ORIGIN) => api.post("/widget/init", { token: key, body: { origin } });

async function newKey(pat: string, body: Record<string, unknown> = { environment: "test" }) {
  const res = await createKey(pat, body);
  expect(res.status, res.text).toBe(201);
  return res.body.key as { id: number; key: string; status: string; allowed_domains: string[] };
}

async function expectInit(key: string, status: number, error?: string) {
  const res = await init(key);
  expect(res.status, res.text).toBe(status);
  if (error) expect(res.body.error).toBe(error);
}

describe("partner keys: create and list", () => {
  it("creates test and live keys with the full value and every field; lists the partner's keys oldest first", async () => {
    const { partnerId, pat } = await partnerWithPat();
    const test = await createKey(pat, { environment: "test" });
    expect(test.status).toBe(201);
    expect(test.body).toEqual({
      key: {
        id: expect.any(Number),
        key: expect.stringMatching(/^pk_test_[A-Za-z0-9_-]{32}$/),
        environment: "test",
        status: "active",
        allowed_domains: [],
        created_at: expect.stringMatching(ISO),
        request_plan: "trial",
        rotated_to_id: null,
        grace_expires_at: null,
        revoked_at: null,
        last_used_at: null,
      },
    });
    const live = await createKey(pat, { environment: "live", allowed_domains: ["Shop.Example.com", "*.brand.example"] });
    expect(live.status).toBe(201);
    expect(live.body.key).toMatchObject({
      key: expect.stringMatching(/^pk_live_/),
      environment: "live",
      allowed_domains: ["shop.example.com", "*.brand.example"],
    });

    const list = await api.get("/partner/keys", { token: pat });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ keys: [test.body.key, live.body.key] });
    const one = await api.get(`/partner/keys/${live.body.key.id}`, { token: pat });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ key: live.body.key });
    const [stored] = await q(`SELECT "partnerId", "key" FROM "ApiKey" WHERE id = ?`, [live.body.key.id]);
    expect({ partnerId: Number(stored.partnerId), key: stored.key }).toEqual({ partnerId, key: live.body.key.key });
  });

  it("accepts SPEC's environment name prod for live keys (SPEC 5 rule 6)", async () => {
    const { pat } = await partnerWithPat();
    const res = await createKey(pat, { environment: "prod", allowed_domains: ["shop.example.com"] });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({ key: expect.stringMatching(/^pk_live_/), environment: "live" });
  });

  it("rejects bad environments, domains and ids with 400", async () => {
    const { pat } = await partnerWithPat();
    const cases: Array<[unknown, string]> = [
      [{ environment: "staging" }, "invalid_environment"],
      [{}, "invalid_environment"],
      [{ environment: "test", allowed_domains: "shop.example.com" }, "invalid_input"],
      [{ environment: "test", allowed_domains: [42] }, "invalid_domain"],
      [{ environment: "live", allowed_domains: ["https://shop.example.com"] }, "invalid_domain"],
      [{ environment: "live", allowed_domains: ["shop.example.com/cart"] }, "invalid_domain"],
    ];
    for (const [body, error] of cases) {
      const res = await createKey(pat, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(error);
    }
    expect((await api.get("/partner/keys", { token: pat })).body.keys).toEqual([]);
    for (const id of ["abc", "1.5", "-1", "1e3"]) {
      const res = await api.get(`/partner/keys/${id}`, { token: pat });
      expect(res.status, id).toBe(400);
      expect(res.body.error).toBe("invalid_id");
    }
    const missing = await api.post("/partner/keys/99999999/rotate", { token: pat });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("api_key_not_found");
  });
});

describe("partner keys: allow-list", () => {
  it("replaces the normalized list, rejects invalid_domain without changing it, and init follows it", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat, { environment: "live", allowed_domains: ["old.example.com"] });
    const put = (body: unknown) => api.put(`/partner/keys/${key.id}/allowed-domains`, { token: pat, body });

    const set = await put({ allowed_domains: ["SHOP.example.com", "*.Brand.example", "shop.example.com"] });
    expect(set.status).toBe(200);
    expect(set.body.key).toMatchObject({ id: key.id, allowed_domains: ["shop.example.com", "*.brand.example"] });
    await expectInit(key.key, 200);
    const oldOrigin = await init(key.key, "https://old.example.com");
    expect(oldOrigin.status).toBe(403);
    expect(oldOrigin.body.error).toBe("origin_not_allowed");

    for (const bad of [["https://a.example.com"], ["a.example.com:8443"], ["*"], ["shop.*.example.com"]]) {
      const res = await put({ allowed_domains: bad });
      expect(res.status, bad[0]).toBe(400);
      expect(res.body.error).toBe("invalid_domain");
    }
    const missing = await put({});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_input");
    const unchanged = await api.get(`/partner/keys/${key.id}`, { token: pat });
    expect(unchanged.body.key.allowed_domains).toEqual(["shop.example.com", "*.brand.example"]);

    const cleared = await put({ allowed_domains: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.key.allowed_domains).toEqual([]);
  });
});

describe("partner keys: rotate", () => {
  it("issues a new value with the same settings; the old value works for 15 minutes, then not", async () => {
    const { pat } = await partnerWithPat();
    const old = await newKey(pat, { environment: "live", allowed_domains: ["shop.example.com", "*.brand.example"] });
    await expectInit(old.key, 200);

    const before = Date.now();
    const res = await api.post(`/partner/keys/${old.id}/rotate`, { token: pat });
    expect(res.status, res.text).toBe(200);
    const { key, rotated } = res.body;
    expect(key).toMatchObject({
      key: expect.stringMatching(/^pk_live_/),
      environment: "live",
      status: "active",
      allowed_domains: ["shop.example.com", "*.brand.example"],
      request_plan: "trial",
      rotated_to_id: null,
    });
    expect(key.id).not.toBe(old.id);
    expect(key.key).not.toBe(old.key);
    expect(rotated).toMatchObject({ id: old.id, key: old.key, status: "rotated", rotated_to_id: key.id, revoked_at: null });
    const grace = Date.parse(rotated.grace_expires_at) - before;
    expect(grace).toBeGreaterThan(15 * MINUTE - 5_000);
    expect(grace).toBeLessThanOrEqual(15 * MINUTE + 5_000);

    // Inside the grace window both values work.
    await expectInit(old.key, 200);
    await expectInit(key.key, 200);
    const again = await api.post(`/partner/keys/${old.id}/rotate`, { token: pat });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("key_not_active");

    // 15 minutes later (back-dated in the database): the old value is dead, the new one lives.
    await q(`UPDATE "ApiKey" SET "graceExpiresAt" = "createdAt" WHERE id = ?`, [old.id]);
    // Changed behind the server's back: seen within a revocation poll (1 s; real time needs no wait).
    await expect.poll(async () => (await init(old.key)).status, { timeout: 5_000, interval: 100 }).toBe(403);
    await expectInit(old.key, 403, "unknown_key");
    await expectInit(key.key, 200);
  });

  it("only an active key can be rotated: a revoked one gives 409 key_not_active", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat);
    expect((await api.post(`/partner/keys/${key.id}/revoke`, { token: pat })).status).toBe(200);
    const res = await api.post(`/partner/keys/${key.id}/rotate`, { token: pat });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("key_not_active");
    expect((await api.get("/partner/keys", { token: pat })).body.keys).toHaveLength(1);
  });
});

describe("partner keys: revoke and delete", () => {
  it("revoke is immediate and idempotent, also for a rotated key inside its grace period", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat);
    await expectInit(key.key, 200);
    const revoked = await api.post(`/partner/keys/${key.id}/revoke`, { token: pat });
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id: key.id, status: "revoked", revoked_at: expect.stringMatching(ISO) });
    await expectInit(key.key, 403, "unknown_key");
    const twice = await api.post(`/partner/keys/${key.id}/revoke`, { token: pat });
    expect(twice.body.key.revoked_at).toBe(revoked.body.key.revoked_at);

    const other = await newKey(pat);
    const rotation = await api.post(`/partner/keys/${other.id}/rotate`, { token: pat });
    await expectInit(other.key, 200);
    expect((await api.post(`/partner/keys/${other.id}/revoke`, { token: pat })).body.key.status).toBe("revoked");
    await expectInit(other.key, 403, "unknown_key");
    await expectInit(rotation.body.key.key, 200);
  });

  it("deletes unused or revoked keys; a used key gives 409 key_in_use until revoked", async () => {
    const { pat } = await partnerWithPat();
    const unused = await newKey(pat);
    const del = await api.delete(`/partner/keys/${unused.id}`, { token: pat });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true, deleted: unused.id });
    expect((await api.get(`/partner/keys/${unused.id}`, { token: pat })).status).toBe(404);
    expect((await api.delete(`/partner/keys/${unused.id}`, { token: pat })).body.error).toBe("api_key_not_found");

    const used = await newKey(pat);
    await expectInit(used.key, 200);
    const inUse = await api.delete(`/partner/keys/${used.id}`, { token: pat });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe("key_in_use");
    await expectInit(used.key, 200);

    // A key with counted requests from any instance is in use as well.
    const counted = await newKey(pat);
    await q(`INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count") VALUES (?, ?, ?)`, [counted.id, "2000-01", 3]);
    expect((await api.delete(`/partner/keys/${counted.id}`, { token: pat })).status).toBe(409);

    // A rotated key still in its grace period has been used too.
    const rotation = await api.post(`/partner/keys/${used.id}/rotate`, { token: pat });
    expect((await api.delete(`/partner/keys/${used.id}`, { token: pat })).body.error).toBe("key_in_use");

    for (const key of [used, counted]) {
      await api.post(`/partner/keys/${key.id}/revoke`, { token: pat });
      const ok = await api.delete(`/partner/keys/${key.id}`, { token: pat });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual({ ok: true, deleted: key.id });
    }
    expect(await q(`SELECT * FROM "ApiKeyRequestCounter" WHERE "apiKeyId" = ?`, [counted.id])).toEqual([]);
    const remaining = (await api.get("/partner/keys", { token: pat })).body.keys;
    expect(remaining).toEqual([expect.objectContaining({ id: rotation.body.key.id, rotated_to_id: null })]);
  });
});

describe("partner scoping and authentication", () => {
  it("another partner's token can neither see nor touch the key (404, as if it did not exist)", async () => {
    const a = await partnerWithPat();
    const b = await partnerWithPat();
    const key = await newKey(a.pat, { environment: "live", allowed_domains: ["shop.example.com"] });
    const attempts = [
      api.get(`/partner/keys/${key.id}`, { token: b.pat }),
      api.post(`/partner/keys/${key.id}/rotate`, { token: b.pat }),
      api.post(`/partner/keys/${key.id}/revoke`, { token: b.pat }),
      api.put(`/partner/keys/${key.id}/allowed-domains`, { token: b.pat, body: { allowed_domains: ["evil.example"] } }),
      api.delete(`/partner/keys/${key.id}`, { token: b.pat }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("api_key_not_found");
    }
    expect((await api.get("/partner/keys", { token: b.pat })).body.keys).toEqual([]);
    const intact = await api.get(`/partner/keys/${key.id}`, { token: a.pat });
    expect(intact.body.key).toMatchObject({ status: "active", allowed_domains: ["shop.example.com"] });
  });

  it("401 unauthorized without a token, with an unknown, revoked or expired token, or without the anon key", async () => {
    const { pat, patId } = await partnerWithPat();
    expect((await api.get("/partner/keys", { token: pat })).status).toBe(200);
    const noAnon = await api.get("/partner/keys", { token: pat, noApiKey: true });
    expect(noAnon.status).toBe(401);
    for (const token of [undefined, "wpat_unknown", "not-a-token"]) {
      const res = await api.get("/partner/keys", { token });
      expect(res.status, String(token)).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }

    const expiring = await api.post("/partner/access-tokens", { token: pat, body: { name: "short" } });
    await q(`UPDATE "PersonalAccessToken" SET "expiresAt" = "createdAt" WHERE id = ?`, [expiring.body.id]);
    const expired = await api.get("/partner/keys", { token: expiring.body.token });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe("unauthorized");

    const revoke = await api.delete(`/partner/access-tokens/${patId}`, { token: pat });
    expect(revoke.status).toBe(200);
    const revoked = await api.get("/partner/keys", { token: pat });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe("unauthorized");
  });

  it("a portal user's token: 404 no_partner until the user is linked, then the partner's keys", async () => {
    const { partnerId, pat } = await partnerWithPat();
    const key = await newKey(pat);
    const signup = await api.post("/auth/signup", {
      body: { email: `portal-${randomBytes(4).toString("hex")}@shop.example`, password: "portal password 1" },
    });
    const userToken = signup.body.access_token;
    for (const res of [await api.get("/partner/keys", { token: userToken }), await createKey(userToken, { environment: "test" })]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("no_partner");
    }
    const link = (await cli(["partner", "user", "--partner", String(partnerId), "--user", signup.body.user.id])).member;
    expect(link).toEqual({ partner_id: partnerId, user_id: signup.body.user.id, role: "owner", created_at: expect.stringMatching(ISO) });
    const list = await api.get("/partner/keys", { token: userToken });
    expect(list.status).toBe(200);
    expect(list.body.keys.map((k: { id: number }) => k.id)).toEqual([key.id]);
  });
});

describe("partner access tokens", () => {
  it("creates (token shown once), lists metadata only, revokes; scoped to the partner", async () => {
    const { pat, patId } = await partnerWithPat();
    const other = await partnerWithPat();
    const before = Date.now();
    const created = await api.post("/partner/access-tokens", { token: pat, body: { name: "deploy", expires_in_days: 30 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      name: "deploy",
      token: expect.stringMatching(/^wpat_[A-Za-z0-9_-]{43}$/),
      expires_at: expect.stringMatching(ISO),
    });
    expect(Math.abs(Date.parse(created.body.expires_at) - before - 30 * DAY)).toBeLessThan(MINUTE);
    const byDefault = await api.post("/partner/access-tokens", { token: pat });
    expect(byDefault.status).toBe(201);
    expect(Math.abs(Date.parse(byDefault.body.expires_at) - before - 365 * DAY)).toBeLessThan(MINUTE);
    expect((await api.get("/partner/keys", { token: created.body.token })).status).toBe(200);

    const list = await api.get("/partner/access-tokens", { token: pat });
    expect(list.status).toBe(200);
    expect(list.body.access_tokens.map((t: { id: number }) => t.id).sort()).toEqual([patId, created.body.id, byDefault.body.id].sort());
    expect(list.text).not.toContain(created.body.token.slice(5));
    for (const t of list.body.access_tokens) expect(t).not.toHaveProperty("token");
    expect((await api.get("/partner/access-tokens", { token: other.pat })).body.access_tokens).toHaveLength(1);

    const foreign = await api.delete(`/partner/access-tokens/${created.body.id}`, { token: other.pat });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("token_not_found");
    expect((await api.get("/partner/keys", { token: created.body.token })).status).toBe(200);

    const revoked = await api.delete(`/partner/access-tokens/${created.body.id}`, { token: pat });
    expect(revoked.status).toBe(200);
    expect(revoked.body.access_token).toMatchObject({ id: created.body.id, revoked_at: expect.stringMatching(ISO) });
    expect((await api.get("/partner/keys", { token: created.body.token })).status).toBe(401);

    for (const body of [{ expires_in_days: 0 }, { expires_in_days: "30" }, { expires_in_days: 1.5 }, { name: 7 }]) {
      const res = await api.post("/partner/access-tokens", { token: pat, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("invalid_input");
    }
    const badId = await api.delete("/partner/access-tokens/abc", { token: pat });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe("invalid_id");
  });
});

describe("operator CLI: wish key list / domains / rotate / delete", () => {
  it("acts on any partner's key by id", async () => {
    const { partnerId, pat } = await partnerWithPat();
    const key = await newKey(pat, { environment: "live", allowed_domains: ["a.example"] });
    const domains = (await cli(["key", "domains", "--id", String(key.id), "--domains", "Shop.example.com,*.b.example"])).key;
    expect(domains).toMatchObject({ id: key.id, allowed_domains: ["shop.example.com", "*.b.example"] });
    const badDomain = await wishRaw(api.server.databaseUrl, ["key", "domains", "--id", String(key.id), "--domains", "http://x.example"]);
    expect(badDomain.code).toBe(1);
    expect(JSON.parse(badDomain.stderr.trim().split("\n").at(-1)!).error).toBe("invalid_domain");

    const rotation = await cli(["key", "rotate", "--id", String(key.id)]);
    expect(rotation.rotated).toMatchObject({ id: key.id, status: "rotated", rotated_to_id: rotation.key.id });
    expect(rotation.key).toMatchObject({ status: "active", allowed_domains: ["shop.example.com", "*.b.example"] });

    const list = await cli(["key", "list", "--partner", String(partnerId)]);
    expect(list.keys.map((k: { id: number; status: string }) => [k.id, k.status])).toEqual([
      [key.id, "rotated"],
      [rotation.key.id, "active"],
    ]);
    expect(await cli(["key", "delete", "--id", String(rotation.key.id)])).toEqual({ key: { id: rotation.key.id, deleted: true } });
    const unknown = await wishRaw(api.server.databaseUrl, ["key", "delete", "--id", "99999999"]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr.trim().split("\n").at(-1)!).error).toBe("api_key_not_found");
  });
});
