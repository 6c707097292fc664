// Usage read-outs (SPEC 4.6, 7.3): `GET /me/usage` for partner tooling and
// portal users (the SPEC 2.7 record, same as `wish usage`), and
// `GET /api-usage/{apiKeyId}` with the key's own public key.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi, wish } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const cli = (args: string[]) => wish(api.server.databaseUrl, args);
const q = (text: string, params: unknown[] = []) => sql<any>(api.server.databaseUrl, text, params);

const SPEC_27_FIELDS = [
  "plan", "plan_name", "actions_used", "actions_limit", "period_start", "period_end", "breakdown", "percent",
  "level", "trial_days", "hard_limit", "overage_per_action_minor", "overage_actions", "overage_cost_minor",
  "next_plan", "upgrade_cheaper_from_actions", "blocked",
];

/** A partner on `plan` with a personal access token (arranged in-process; `wish usage` itself is compared below). */
async function partnerWithPat(plan = "free") {
  const partner = await p.partner(plan, "Usage Shop", "usage@shop.example");
  const pat = await p.pat(partner.id, "");
  return { partnerId: partner.id, pat: pat.token, patId: pat.id };
}

async function newKey(pat: string, environment = "test") {
  const res = await api.post("/partner/keys", { token: pat, body: { environment } });
  expect(res.status, res.text).toBe(201);
  return res.body.key as { id: number; key: string };
}

const apiUsage = (id: number | string, key?: string) => api.get(`/api-usage/${id}`, { token: key });

describe("GET /me/usage", () => {
  it("with a personal access token: every SPEC 2.7 field, equal to `wish usage`", async () => {
    const { partnerId, pat } = await partnerWithPat("starter");
    const period = new Date().toISOString().slice(0, 7);
    await q(`INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (?, ?, ?, ?, ?, ?)`, [
      partnerId, period, 1600, 400, 200, 2200,
    ]);
    const [res, fromCli] = await Promise.all([api.get("/me/usage", { token: pat }), cli(["usage", "--partner", String(partnerId)])]);
    expect(res.status, res.text).toBe(200);
    for (const field of SPEC_27_FIELDS) expect(res.body, field).toHaveProperty(field);
    expect(res.body).toEqual(fromCli.usage);
    expect(res.body).toMatchObject({
      partner_id: partnerId,
      plan: "starter",
      actions_used: 2200,
      actions_limit: 2000,
      breakdown: { save: 1600, share: 400, list_view: 200 },
      percent: 110,
      level: "exceeded",
      overage_actions: 200,
      overage_cost_minor: 500,
      next_plan: "growth",
      blocked: false,
    });
  });

  it("with a portal user's token: 404 partner_not_found until the user is linked, then the same record", async () => {
    const { partnerId, pat } = await partnerWithPat();
    const signup = await api.post("/auth/signup", {
      body: { email: `usage-${randomBytes(4).toString("hex")}@shop.example`, password: "portal password 2" },
    });
    const userToken = signup.body.access_token;
    const unlinked = await api.get("/me/usage", { token: userToken });
    expect(unlinked.status).toBe(404);
    expect(unlinked.body.error).toBe("partner_not_found");

    await cli(["partner", "user", "--partner", String(partnerId), "--user", signup.body.user.id]);
    const [asUser, asPat, fromCli] = await Promise.all([
      api.get("/me/usage", { token: userToken }),
      api.get("/me/usage", { token: pat }),
      cli(["usage", "--partner", String(partnerId)]),
    ]);
    expect(asUser.status).toBe(200);
    expect(asUser.body).toEqual(fromCli.usage);
    expect(asPat.body).toEqual(fromCli.usage);
    expect(asUser.body).toMatchObject({ plan: "free", actions_used: 0, actions_limit: 200, level: "ok", blocked: false });
  });

  it("401 unauthorized without a valid token", async () => {
    const { pat, patId } = await partnerWithPat();
    await api.delete(`/partner/access-tokens/${patId}`, { token: pat });
    for (const token of [undefined, pat, "wpat_nope"]) {
      const res = await api.get("/me/usage", { token });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
  });
});

describe("GET /api-usage/{apiKeyId}", () => {
  it("errors in SPEC 7.3 order: 400 invalid_api_key_id, 401 without bearer, 404 unknown id, 401 for another key", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat);
    const other = await newKey(pat);
    for (const id of ["abc", "1.5", "-3"]) {
      const res = await apiUsage(id, key.key);
      expect(res.status, id).toBe(400);
      expect(res.body.error).toBe("invalid_api_key_id");
    }
    for (const bearer of [undefined, pat]) {
      const res = await apiUsage(key.id, bearer);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
    const unknown = await apiUsage(99_999_999, key.key);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("api_key_not_found");
    const mismatch = await apiUsage(key.id, other.key);
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.error).toBe("unauthorized");

    // A revoked key is no credential any more.
    await api.post(`/partner/keys/${other.id}/revoke`, { token: pat });
    expect((await apiUsage(other.id, other.key)).status).toBe(401);
    // Without the anon key the request is refused before anything else.
    expect((await api.get(`/api-usage/${key.id}`, { token: key.key, noApiKey: true })).status).toBe(401);
  });

  it("500 plan_limits_not_found when the key's request plan is unknown", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat);
    await q(`UPDATE "ApiKey" SET "requestPlan" = 'retired-plan' WHERE id = ?`, [key.id]);
    const res = await apiUsage(key.id, key.key);
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("plan_limits_not_found");
  });

  it("a new key: zero counts and the limits of the request plan behind its headers", async () => {
    const free = await partnerWithPat("free");
    const growth = await partnerWithPat("growth");
    const freeKey = await newKey(free.pat);
    const growthKey = await newKey(growth.pat, "live");
    const before = Date.now();
    const res = await apiUsage(freeKey.id, freeKey.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      api_key_id: freeKey.id,
      environment: "test",
      status: "active",
      request_plan: "trial",
      limits: { per_minute: 10, monthly_calls: 1000, overage_per_1000: 0.05 },
      usage: { month: new Date().toISOString().slice(0, 7), requests_this_month: 0, requests_this_minute: 0, overage_amount: 0 },
      reset_at: expect.stringMatching(ISO),
    });
    const reset = Date.parse(res.body.reset_at);
    expect(reset % 60_000).toBe(0);
    expect(reset).toBeGreaterThan(before - 1_000);
    expect(reset - before).toBeLessThanOrEqual(61_000);
    // Not itself a metered route: no rate-limit headers, and it does not count.
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();

    const growthUsage = await apiUsage(growthKey.id, growthKey.key);
    expect(growthUsage.body).toMatchObject({
      environment: "live",
      request_plan: "pro-api",
      limits: { per_minute: 1000, monthly_calls: 500_000, overage_per_1000: 0.008 },
    });
  });

  it("counts metered requests of the key, in agreement with its X-Usage-Month header", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat);
    let last: Awaited<ReturnType<typeof api.post>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await api.post("/widget/init", { token: key.key, body: { origin: "https://shop.example.com" } });
      expect(last.status, last.text).toBe(200);
    }
    expect(last!.headers.get("x-usage-month")).toBe("4");
    const res = await apiUsage(key.id, key.key);
    expect(res.status).toBe(200);
    expect(res.body.usage.requests_this_month).toBe(4);
    // 4 unless a minute boundary fell between the requests.
    expect(res.body.usage.requests_this_minute).toBeLessThanOrEqual(4);
    expect((await apiUsage(key.id, key.key)).body.usage.requests_this_month).toBe(4);
  });

  it("reads the stored counters of all instances; overage past the monthly calls; a rotated key in grace still reads", async () => {
    const { pat } = await partnerWithPat();
    const key = await newKey(pat);
    const now = Date.now();
    const month = new Date(now).toISOString().slice(0, 7);
    // This minute and the next, so a minute boundary during the test changes nothing.
    const minutes = [new Date(now).toISOString().slice(0, 16), new Date(now + 60_000).toISOString().slice(0, 16)];
    const insert = `INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count") VALUES (?, ?, ?)`;
    await q(insert, [key.id, month, 1500]);
    await q(insert, [key.id, "2000-01", 99_999]);
    for (const minute of minutes) await q(insert, [key.id, minute, 7]);

    const res = await apiUsage(key.id, key.key);
    expect(res.status).toBe(200);
    expect(res.body.usage).toEqual({ month, requests_this_month: 1500, requests_this_minute: 7, overage_amount: 0.025 });

    const rotation = await api.post(`/partner/keys/${key.id}/rotate`, { token: pat });
    const rotated = await apiUsage(key.id, key.key);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ status: "rotated", usage: { requests_this_month: 1500 } });
    const successor = await apiUsage(rotation.body.key.id, rotation.body.key.key);
    expect(successor.body.usage).toMatchObject({ requests_this_month: 0, requests_this_minute: 0 });
  });
});
