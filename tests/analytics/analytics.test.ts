// POST /analytics/track (SPEC 7.4): own pages only (from an own origin, with the
// partner's credential the page holds: the page token of a page in that
// partner's context, or its widget token), for that partner only; key
// ownership, payload codes, a per-client bound (never 429), no rate-limit
// headers (SPEC 8.3); GET /partner/analytics reads the per-day counts the
// merchant admin charts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { emailUser, expectAllDocumented, expectError, type PortalUser } from "../support/fixtures.ts";

const PAGES = "https://pages.intake.example";
let server: TestServer;
let api: Api;

interface Shop {
  owner: PortalUser;
  partnerId: number;
  keyId: number;
  key: string;
}
let shopA: Shop;
let shopB: Shop;
/** The credential a page of shop A's context carries (its basket drawer). */
let pageToken: string;
/** The daily bound of recorded events per client address this server runs with. */
const PER_DAY = 60;

/** The analytics token written into the page at `path`, or null when it carries none. */
async function tokenOfPageOrNull(path: string): Promise<string | null> {
  const res = await fetch(server.url + path);
  const html = await res.text();
  expect(res.status, path).toBe(200);
  return /<meta name="wish-analytics-token" content="([^"]+)"/.exec(html)?.[1] ?? null;
}
async function tokenOfPage(path: string): Promise<string> {
  const token = await tokenOfPageOrNull(path);
  expect(token, `${path} carries no analytics token`).toBeTruthy();
  return token!;
}

/** The basket drawer of the partner: a page in its context. */
async function drawerPath(owner: PortalUser): Promise<string> {
  const basket = await api.post("/partner/baskets", { token: owner.accessToken, body: {} });
  expect(basket.status, basket.text).toBe(201);
  return `/dialog/basket?config=${basket.body.basket.id}`;
}

async function shop(): Promise<Shop> {
  const owner = await emailUser(api, "analytics");
  const boot = await api.post("/partner/bootstrap", { token: owner.accessToken, body: {} });
  const key = await api.post("/partner/keys", { token: owner.accessToken, body: { environment: "test" } });
  expect(key.status, key.text).toBe(201);
  return { owner, partnerId: boot.body.partner.partner_id, keyId: key.body.key.id, key: key.body.key.key };
}

beforeAll(async () => {
  server = await startServer({ ANALYTICS_ALLOWED_ORIGINS: `${PAGES}, https://other.intake.example`, ANALYTICS_EVENTS_PER_DAY: String(PER_DAY) });
  api = await apiFor(server);
  shopA = await shop();
  shopB = await shop();
  pageToken = await tokenOfPage(await drawerPath(shopA.owner));
});

afterAll(async () => {
  if (server) expectAllDocumented(server.output());
  await server?.stop();
});

const track = (body: unknown, headers: Record<string, string> = { origin: server.url, "x-analytics-token": pageToken }) =>
  api.post("/analytics/track", { body, headers, noApiKey: true });

async function widgetToken(key: string): Promise<string> {
  const res = await api.post("/widget/init", { body: { origin: "http://localhost:5173" }, headers: { authorization: `Bearer ${key}` } });
  expect(res.status, res.text).toBe(200);
  return res.body.token;
}

describe("POST /analytics/track", () => {
  it("stores an event from the service's own origin, without rate-limit headers", async () => {
    const res = await track({ partnerId: shopA.partnerId, apiKeyId: shopA.keyId, event: "dialog_open", properties: { page: "/save" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ ok: true, id: expect.any(Number) });
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-usage-month"]) expect(res.headers.get(name)).toBeNull();
    const rows = await sql<any>(server.databaseUrl, `SELECT "partnerId", "apiKeyId", "event", "properties" FROM "AnalyticsEvent" WHERE id = ?`, [res.body.id]);
    expect(rows[0]).toMatchObject({ partnerId: shopA.partnerId, apiKeyId: shopA.keyId, event: "dialog_open" });
    const props = typeof rows[0].properties === "string" ? JSON.parse(rows[0].properties) : rows[0].properties;
    expect(props).toEqual({ page: "/save" });
    // A listed origin, and a string id.
    const listed = await track({ partnerId: String(shopA.partnerId), event: "dialog_close" }, { origin: PAGES, "x-analytics-token": pageToken });
    expect(listed.status, listed.text).toBe(201);
  });

  it("403 forbidden from any other origin, or without one, even with a page's token", async () => {
    const body = { partnerId: shopA.partnerId, event: "x" };
    expectError(await track(body, { origin: "https://evil.example", "x-analytics-token": pageToken }), 403, "forbidden");
    expectError(await track(body, { origin: `${PAGES}.evil.example`, "x-analytics-token": pageToken }), 403, "forbidden");
    expectError(await track(body, { "x-analytics-token": pageToken }), 403, "forbidden");
  });

  it("403 forbidden without the token the service's own pages carry, whatever Origin a script sets; pages without a partner carry none", async () => {
    const body = { partnerId: shopA.partnerId, event: "scripted" };
    const before = await sql<{ n: number | string }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE event = 'scripted'`);
    expectError(await track(body, { origin: server.url }), 403, "forbidden");
    expectError(await track(body, { origin: PAGES }), 403, "forbidden");
    expectError(await track(body, { origin: server.url, "x-analytics-token": "not-a-token" }), 403, "forbidden");
    // Credentials of another kind, signed by the same key, are no page token.
    const user = await api.anonymousUser();
    expectError(await track(body, { origin: server.url, "x-analytics-token": user.accessToken }), 403, "forbidden");
    expectError(await track(body, { origin: server.url, "x-analytics-token": await widgetToken(shopA.key) }), 403, "forbidden");
    // A page token past its lifetime.
    process.env.DATABASE_URL = server.databaseUrl;
    process.env.APP_URL = server.url;
    const { signToken } = await import("~/domains/identity/jwt.server");
    const expired = await signToken({}, { use: "page", subject: "page", audience: "analytics", ttlSeconds: -60 });
    expectError(await track(body, { origin: server.url, "x-analytics-token": expired.token }), 403, "forbidden");
    const after = await sql<{ n: number | string }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE event = 'scripted'`);
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));

    // Pages without a partner's context carry no token at all.
    const owner = await api.anonymousUser();
    const list = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Shared" } });
    expect((await api.put(`/hosted/lists/${list.body.token}`, { token: owner.accessToken, body: { share_public: true } })).status).toBe(200);
    for (const path of ["/dialog/save", "/en/lists", `/de/list/${list.body.token}`]) expect(await tokenOfPageOrNull(path), path).toBeNull();
  });

  it("an event counts only for the partner whose token the page holds: another partner is 403 forbidden_key_mismatch", async () => {
    const before = await sql<{ n: number | string }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE "partnerId" = ?`, [shopB.partnerId]);
    // Shop A's drawer token, for shop B.
    expectError(await track({ partnerId: shopB.partnerId, event: "forged" }), 403, "forbidden_key_mismatch");
    // A page token that names no partner (the old page-wide kind) is no credential.
    process.env.DATABASE_URL = server.databaseUrl;
    process.env.APP_URL = server.url;
    const { signToken } = await import("~/domains/identity/jwt.server");
    const pageWide = await signToken({}, { use: "page", subject: "page", audience: "analytics", ttlSeconds: 600 });
    expectError(await track({ partnerId: shopB.partnerId, event: "forged" }, { origin: server.url, "x-analytics-token": pageWide.token }), 403, "forbidden");
    // Shop A's widget token, for shop B, with or without a page token.
    const widgetA = await widgetToken(shopA.key);
    expectError(await track({ partnerId: shopB.partnerId, event: "forged" }, { origin: server.url, "x-widget-token": widgetA }), 403, "forbidden_key_mismatch");
    const after = await sql<{ n: number | string }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE "partnerId" = ?`, [shopB.partnerId]);
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));

    // Each partner's own pages: its drawer, and a share page of a list saved through its widget; and its widget token alone.
    expect((await track({ partnerId: shopB.partnerId, event: "opened" }, { origin: server.url, "x-analytics-token": await tokenOfPage(await drawerPath(shopB.owner)) })).status).toBe(201);
    const shopper = await api.anonymousUser();
    const init = await api.post("/hosted/me/init", { token: shopper.accessToken });
    const listToken = init.body.list.id as string;
    const saved = await api.post("/widget/save", {
      token: shopper.accessToken,
      headers: { "x-widget-token": widgetA, origin: "http://localhost:5173" },
      body: { wishlistId: init.body.list.db_id, product: { url: `https://shop-a.example/products/p-${Date.now()}`, title: "Lamp" } },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await api.put(`/hosted/lists/${listToken}`, { token: shopper.accessToken, body: { share_public: true } })).status).toBe(200);
    const shareToken = await tokenOfPage(`/en/list/${listToken}`);
    expect((await track({ partnerId: shopA.partnerId, event: "share_view" }, { origin: server.url, "x-analytics-token": shareToken })).status).toBe(201);
    expectError(await track({ partnerId: shopB.partnerId, event: "share_view" }, { origin: server.url, "x-analytics-token": shareToken }), 403, "forbidden_key_mismatch");
    const byWidget = await track({ partnerId: shopA.partnerId, event: "widget_open" }, { origin: server.url, "x-widget-token": widgetA });
    expect(byWidget.status, byWidget.text).toBe(201);
  });

  it("payload codes: partner_required, invalid_partner_id, invalid_payload", async () => {
    expectError(await track({ event: "x" }), 400, "partner_required");
    expectError(await track({ partnerId: "", event: "x" }), 400, "partner_required");
    expectError(await track({ partnerId: "abc", event: "x" }), 400, "invalid_partner_id");
    expectError(await track({ partnerId: 1.5, event: "x" }), 400, "invalid_partner_id");
    expectError(await track({ partnerId: shopA.partnerId }), 400, "invalid_payload");
    expectError(await track({ partnerId: shopA.partnerId, event: "has spaces" }), 400, "invalid_payload");
    expectError(await track({ partnerId: shopA.partnerId, event: "x", properties: [1, 2] }), 400, "invalid_payload");
    expectError(await track({ partnerId: shopA.partnerId, event: "x", properties: { big: "x".repeat(5000) } }), 400, "invalid_payload");
    expectError(await track({ partnerId: shopA.partnerId, apiKeyId: "key", event: "x" }), 400, "invalid_payload");
    expectError(await track([1, 2]), 400, "invalid_payload");
    // A partner the page's token does not name.
    expectError(await track({ partnerId: 987654321, event: "x" }), 403, "forbidden_key_mismatch");
  });

  it("key checks: api_key_not_found, forbidden_key_not_owned, forbidden_key_mismatch", async () => {
    expectError(await track({ partnerId: shopA.partnerId, apiKeyId: 987654321, event: "x" }), 404, "api_key_not_found");
    expectError(await track({ partnerId: shopA.partnerId, apiKeyId: shopB.keyId, event: "x" }), 403, "forbidden_key_not_owned");

    const tokenA = await widgetToken(shopA.key);
    const withToken = (body: unknown, token = tokenA) => track(body, { origin: server.url, "x-analytics-token": pageToken, "x-widget-token": token });
    // The widget token is the event's context: another partner, or another key of the same partner, does not match.
    expectError(await withToken({ partnerId: shopB.partnerId, event: "x" }), 403, "forbidden_key_mismatch");
    const secondKey = await api.post("/partner/keys", { token: shopA.owner.accessToken, body: { environment: "test" } });
    expectError(await withToken({ partnerId: shopA.partnerId, apiKeyId: secondKey.body.key.id, event: "x" }), 403, "forbidden_key_mismatch");
    expectError(await withToken({ partnerId: shopA.partnerId, event: "x" }, "not-a-token"), 403, "forbidden");
    // Matching: the key comes from the token when the body does not name it.
    const ok = await withToken({ partnerId: shopA.partnerId, event: "saved" });
    expect(ok.status, ok.text).toBe(201);
    const rows = await sql<any>(server.databaseUrl, `SELECT "apiKeyId" FROM "AnalyticsEvent" WHERE id = ?`, [ok.body.id]);
    expect(rows[0].apiKeyId).toBe(shopA.keyId);
  });
});

describe("GET /partner/analytics", () => {
  it("counts per day and event over the window, every day listed", async () => {
    const owner = await shop();
    const ownToken = await tokenOfPage(await drawerPath(owner.owner));
    for (const event of ["open", "open", "saved"]) {
      expect((await track({ partnerId: owner.partnerId, event }, { origin: server.url, "x-analytics-token": ownToken })).status).toBe(201);
    }
    const res = await api.get("/partner/analytics?days=7", { token: owner.owner.accessToken });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ partner_id: owner.partnerId, days: 7, events: ["open", "saved"], totals: { open: 2, saved: 1 } });
    expect(res.body.series).toHaveLength(7);
    expect(res.body.series.at(-1).date).toBe(res.body.to);
    expect(res.body.series[0]).toEqual({ date: res.body.from, counts: {} });
    // The events fall on the last day (or, across a UTC midnight, the last two).
    const counted = res.body.series.filter((d: any) => Object.keys(d.counts).length > 0);
    expect(counted.length).toBeGreaterThan(0);
    expect(res.body.series.slice(0, 5).every((d: any) => Object.keys(d.counts).length === 0)).toBe(true);
    for (const name of ["x-ratelimit-limit", "x-usage-month"]) expect(res.headers.get(name)).toBeNull();
    // Default window and another partner's view.
    const other = await api.get("/partner/analytics", { token: shopB.owner.accessToken });
    expect(other.body).toMatchObject({ days: 30, totals: {} });
    expect(other.body.series).toHaveLength(30);
  });

  it("400 invalid_input for a bad window, 404 no_partner without a partner, 401 without a token", async () => {
    expectError(await api.get("/partner/analytics?days=0", { token: shopA.owner.accessToken }), 400, "invalid_input");
    expectError(await api.get("/partner/analytics?days=abc", { token: shopA.owner.accessToken }), 400, "invalid_input");
    const loner = await emailUser(api, "loner");
    expectError(await api.get("/partner/analytics", { token: loner.accessToken }), 404, "no_partner");
    expectError(await api.get("/partner/analytics"), 401, "unauthorized");
  });
});

describe("the per-client bound", () => {
  it("records at most ANALYTICS_EVENTS_PER_DAY events a day per client address, counted atomically; the rest are accepted and dropped", async () => {
    const day = () => new Date().toISOString().slice(0, 10);
    const usedToday = async (d: string) =>
      Number((await sql<{ uses: number | string }>(server.databaseUrl, `SELECT uses FROM "UsageDedup" WHERE "dedupKey" = ?`, [`analytics:d:127.0.0.1:${d}`]))[0]?.uses ?? 0);
    const start = day();
    const used = await usedToday(start);
    expect(used).toBeLessThan(PER_DAY);
    // More than the rest of the day's bound, all at once.
    const answers = await Promise.all(Array.from({ length: PER_DAY - used + 15 }, (_, i) => track({ partnerId: shopA.partnerId, event: `burst_${i % 3}` })));
    for (const res of answers) expect(res.status, res.text).toBe(201);
    const recorded = answers.filter((r) => r.body.id > 0);
    const dropped = answers.filter((r) => r.body.dropped === true);
    expect(dropped.every((r) => r.body.id === 0)).toBe(true);
    expect(recorded.length + dropped.length).toBe(answers.length);
    // (Across a UTC midnight the new day has a bound of its own; then only the upper bound holds.)
    if (day() === start) {
      expect(recorded).toHaveLength(PER_DAY - used);
      expect(await usedToday(start)).toBe(PER_DAY);
    } else {
      expect(recorded.length).toBeLessThanOrEqual(2 * PER_DAY);
    }
    const stored = await sql<{ n: number | string }>(server.databaseUrl, `SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE event LIKE 'burst_%'`);
    expect(Number(stored[0]!.n)).toBe(recorded.length);
  });
});
