// POST /widget/init (SPEC 4.1, 5, 3) and widget-token rules.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { daysAgo, provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  api = await sharedApi();
  p = await provisioner(api.server);
});

const init = (key: string | null, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.post("/widget/init", { body, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });

describe("init errors", () => {
  it("400 invalid_input without key or origin", async () => {
    const partner = await p.partner();
    const key = await p.key(partner.id);
    for (const [k, body] of [[null, { origin: "https://shop.example.com" }], [key.key, {}], [key.key, { origin: "not a url" }]] as const) {
      const res = await init(k, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_input");
    }
  });

  it("403 unknown_key for a key that does not exist or is revoked", async () => {
    const partner = await p.partner();
    const key = await p.key(partner.id);
    await sql(api.server.databaseUrl, `UPDATE "ApiKey" SET status = 'revoked' WHERE id = ?`, [key.id]);
    for (const k of ["pk_test_doesnotexist", key.key]) {
      const res = await init(k, { origin: "https://shop.example.com" });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("unknown_key");
    }
  });

  it("403 allowlist_required for a live key created after 2026-09-01 without allowed domain", async () => {
    const partner = await p.partner();
    const fresh = await p.key(partner.id, { env: "live", createdAt: new Date("2026-09-02T00:00:00Z") });
    const res = await init(fresh.key, { origin: "https://shop.example.com" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: "allowlist_required", hint: expect.any(String) });
    const old = await p.key(partner.id, { env: "live", createdAt: new Date("2026-08-31T00:00:00Z") });
    expect((await init(old.key, { origin: "https://shop.example.com" })).status).toBe(200);
    const test = await p.key(partner.id, { env: "test", createdAt: new Date("2026-10-01T00:00:00Z") });
    expect((await init(test.key, { origin: "https://shop.example.com" })).status).toBe(200);
  });

  it("origin allow-list: exact hosts, wildcard subdomains only, localhost always; look-alikes refused", async () => {
    const partner = await p.partner();
    const key = await p.key(partner.id, { env: "live", domains: ["shop.example.com", "*.brand.com"] });
    const allowed = ["https://shop.example.com", "https://eu.brand.com", "https://a.b.brand.com", "http://localhost:3000", "http://127.0.0.1:8080"];
    const refused = [
      "https://brand.com",
      "https://evilbrand.com",
      "https://brand.com.evil.net",
      "https://shop.example.com.evil.net",
      "https://evilshop.example.com",
      "https://example.com",
    ];
    for (const origin of allowed) expect((await init(key.key, { origin })).status, origin).toBe(200);
    for (const origin of refused) {
      const res = await init(key.key, { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.error).toBe("origin_not_allowed");
    }
  });

  it("403 subscription_required when the shop's 14-day trial ended without subscription or paid plan", async () => {
    const expired = await p.partner("free");
    await p.shop(expired.id, { installedAt: daysAgo(15) });
    const expiredKey = await p.key(expired.id);
    const res = await init(expiredKey.key, { origin: "https://shop.example.com" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: "subscription_required", trial_expired: true, message: expect.any(String) });

    const inTrial = await p.partner("free");
    await p.shop(inTrial.id, { installedAt: daysAgo(13) });
    expect((await init((await p.key(inTrial.id)).key, { origin: "https://shop.example.com" })).status).toBe(200);

    const subscribed = await p.partner("free");
    await p.shop(subscribed.id, { installedAt: daysAgo(40), subscriptionStatus: "active" });
    expect((await init((await p.key(subscribed.id)).key, { origin: "https://shop.example.com" })).status).toBe(200);

    const paid = await p.partner("growth");
    await p.shop(paid.id, { installedAt: daysAgo(40) });
    expect((await init((await p.key(paid.id)).key, { origin: "https://shop.example.com" })).status).toBe(200);
  });
});

describe("init success", () => {
  it("returns WidgetInitResponse and the usage headers; the key may come in the body", async () => {
    const partner = await p.partner("starter");
    const key = await p.key(partner.id);
    await sql(api.server.databaseUrl, `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (?, ?, 2001, 0, 0, 2001)`, [
      partner.id,
      new Date().toISOString().slice(0, 7),
    ]);
    const res = await init(null, { origin: "https://shop.example.com", public_key: key.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      partner_id: partner.id,
      api_key_id: key.id,
      exp_minutes: 10,
      overage: true,
      basketConfig: null,
    });
    expect(res.headers.get("x-usage-total")).toBe("2001");
    expect(res.headers.get("x-usage-limit")).toBe("2000");
    expect(res.headers.get("x-usage-remaining")).toBe("0");
  });
});

describe("token confusion", () => {
  it("a widget token is not a user token and a user token is not a widget token", async () => {
    const partner = await p.partner();
    const key = await p.key(partner.id);
    const widgetToken = (await init(key.key, { origin: "https://shop.example.com" })).body.token;
    const user = await api.anonymousUser();

    expect((await api.get("/auth/user", { token: widgetToken })).status).toBe(401);
    expect((await api.post("/hosted/lists", { token: widgetToken })).status).toBe(401);
    const swapped = await api.post("/widget/lists", { token: widgetToken, headers: { "x-widget-token": user.accessToken } });
    expect(swapped.status).toBe(403);
    expect(swapped.body.error).toBe("forbidden");
    const ok = await api.post("/widget/lists", { token: user.accessToken, headers: { "x-widget-token": widgetToken } });
    expect(ok.status).toBe(200);
  });

  it("403 forbidden without a widget token, 401 without a user token", async () => {
    const user = await api.anonymousUser();
    const noWidget = await api.post("/widget/lists", { token: user.accessToken });
    expect(noWidget.status).toBe(403);
    expect(noWidget.body.error).toBe("forbidden");
    const partner = await p.partner();
    const widgetToken = (await init((await p.key(partner.id)).key, { origin: "https://shop.example.com" })).body.token;
    const noUser = await api.post("/widget/lists", { headers: { "x-widget-token": widgetToken } });
    expect(noUser.status).toBe(401);
    expect(noUser.body.error).toBe("unauthorized");
  });

  it("a widget token is bound to its origin", async () => {
    const partner = await p.partner();
    const widgetToken = (await init((await p.key(partner.id)).key, { origin: "https://shop.example.com" })).body.token;
    const user = await api.anonymousUser();
    const call = (origin: string) =>
      api.post("/widget/lists", { token: user.accessToken, headers: { "x-widget-token": widgetToken, origin } });
    expect((await call("https://shop.example.com")).status).toBe(200);
    expect((await call(api.server.url)).status).toBe(200); // the hosted dialog on the service's own origin
    expect((await call("https://other-shop.example.com")).status).toBe(403);
  });
});

describe("rate-limit headers (SPEC 8.3)", () => {
  it("are set on widget routes with a resolvable key, count down, never reject", async () => {
    // The per-minute window restarts on the clock minute, which the answers name (X-RateLimit-Reset). A burst
    // that a minute's turn splits (at most one in a row: a burst takes seconds) is run again with a new key.
    const user = await api.anonymousUser();
    const burst = async () => {
      const partner = await p.partner("free");
      const initialised = await init((await p.key(partner.id)).key, { origin: "https://shop.example.com" });
      const resets = new Set([initialised.headers.get("x-ratelimit-reset")]);
      const remaining: number[] = [];
      for (let i = 0; i < 14; i++) {
        const res = await api.post("/widget/lists", { token: user.accessToken, headers: { "x-widget-token": initialised.body.token } });
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-limit")).toBe("10");
        expect(res.headers.get("x-usage-limit")).toBe("1000");
        expect(new Date(res.headers.get("x-ratelimit-reset")!).getTime()).toBeGreaterThan(Date.now() - 1000);
        resets.add(res.headers.get("x-ratelimit-reset"));
        remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      }
      return { oneMinute: resets.size === 1, remaining };
    };
    let run = await burst();
    if (!run.oneMinute) run = await burst();
    expect(run.oneMinute).toBe(true);
    // Init counted as the first request of the key's minute.
    expect(run.remaining.slice(0, 3)).toEqual([8, 7, 6]);
    expect(run.remaining.slice(-3)).toEqual([0, 0, 0]);
  });

  it("are absent where no key can be resolved, and on health and preflights", async () => {
    const owner = await api.anonymousUser();
    const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Public" } });
    await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } });
    const pub = await api.get(`/hosted/public/lists/${created.body.token}`, { noApiKey: true });
    expect(pub.status).toBe(200);
    expect(pub.headers.get("x-ratelimit-limit")).toBeNull();
    expect((await api.get("/health")).headers.get("x-ratelimit-limit")).toBeNull();
    const preflight = await fetch(`${api.baseUrl}/widget/lists`, { method: "OPTIONS", headers: { origin: "https://shop.example.com" } });
    expect(preflight.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
