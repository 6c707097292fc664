// The key configuration behind `POST /widget/init` is cached in process
// (app/domains/keys/key-config.server.ts) and verified tokens are
// cached until they expire (identity/jwt.server.ts). What must still hold:
// a change made through this instance (API, admin, webhooks) shows at the
// next init; a change made elsewhere (the CLI, another instance) within
// CONFIG_CACHE_TTL_MS; a revoked key or session is refused at once here and
// within the revocation poll elsewhere, whatever the caches hold.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { daysAgo, provisioner } from "../support/provision.ts";
import { logSettled, startServer, type TestServer } from "../support/server.ts";
import { API_KEY, API_SECRET, webhookRequest } from "../support/shopify.ts";
import { sql } from "../support/sql.ts";
import { timed, until } from "../support/wait.ts";

const APP_URL = "https://wish.example";
const ORIGIN = "https://cache.example.com";
/** Far longer than any test: only explicit invalidation (or the revocation view) can explain a fresh answer. */
const FOREVER_MS = "600000";
const SHORT_TTL_MS = 1500;
// Generous for a loaded machine: the bound plus a request or two.
const SLACK_MS = 2500;

let databaseUrl: string;
/** Long cache TTL, debug log (every statement), revocation poll parked. */
let cached: TestServer;
/** Long cache TTL, revocation poll every second. */
let polled: TestServer;
/** Short cache TTL. */
let short: TestServer;
let apiCached: Api;
let apiPolled: Api;
let apiShort: Api;
let p: Awaited<ReturnType<typeof provisioner>>;

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  const common = { DATABASE_URL: databaseUrl, APP_URL, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET };
  [cached, polled, short] = await Promise.all([
    startServer({ ...common, CONFIG_CACHE_TTL_MS: FOREVER_MS, REVOCATION_POLL_MS: FOREVER_MS, LOG_LEVEL: "debug" }),
    startServer({ ...common, CONFIG_CACHE_TTL_MS: FOREVER_MS }),
    startServer({ ...common, CONFIG_CACHE_TTL_MS: String(SHORT_TTL_MS) }),
  ]);
  [apiCached, apiPolled, apiShort] = await Promise.all([apiFor(cached), apiFor(polled), apiFor(short)]);
  p = await provisioner(cached);
});
afterAll(async () => {
  await Promise.all([cached, polled, short].map((s) => s?.stop()));
});

const init = (api: Api, key: string, origin = ORIGIN) =>
  api.post("/widget/init", { body: { origin }, headers: { authorization: `Bearer ${key}` } });

async function partnerWithPat(plan = "starter") {
  const partner = await p.partner(plan);
  const { createPersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
  const pat = await createPersonalAccessToken(partner.id, { name: "tooling" });
  return { partner, pat: pat.token as string };
}

const statusOf = async (call: Promise<{ status: number; body: any }>) => {
  const res = await call;
  return `${res.status} ${res.body?.error ?? ""}`.trim();
};

describe("init per request", () => {
  it("reads only the month's usage counter once the key's configuration is cached", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id, { domains: ["cache.example.com"] });
    await p.shop(partner.id, { domain: `hot-${randomBytes(4).toString("hex")}.myshopify.com` });
    // Either quoting: `main`.`ApiKey` (Prisma on SQLite) or "ApiKey".
    const configTables = /[`"](ApiKey|Partner|PlatformShop|BasketConfig)[`"]/;
    const queriesSince = (mark: number) =>
      cached
        .output()
        .slice(mark)
        .split("\n")
        .filter((line) => line.includes('"msg":"db query"'))
        .map((line) => JSON.parse(line).query as string);
    const firstUse = Date.now();
    expect((await init(apiCached, key.key)).status).toBe(200); // loads the configuration (and records the key's use)
    // Recording the first use is a write to ApiKey: its change signal may drop the fresh entry once, whenever it
    // arrives. Settle: an init answered from the cache after that reload was seen, or after 2 s without one.
    let reloaded = false;
    await until("the configuration settled in the cache", async () => {
      const mark = cached.output().length;
      expect((await init(apiCached, key.key)).status).toBe(200);
      await logSettled(cached); // the init's query lines
      const loaded = queriesSince(mark).some((q) => configTables.test(q));
      reloaded ||= loaded;
      return !loaded && (reloaded || Date.now() - firstUse > 2_000);
    }, Boolean, { timeoutMs: 10_000 });
    const mark = cached.output().length;
    for (let i = 0; i < 10; i++) expect((await init(apiCached, key.key)).status).toBe(200);
    await logSettled(cached); // the last init's query lines
    const queries = queriesSince(mark);
    expect(queries.filter((q) => configTables.test(q))).toEqual([]);
    expect(queries.filter((q) => q.includes('SELECT "total" FROM "UsageCounter"'))).toHaveLength(10);
  });
});

describe("changes made through this instance show at the next init", () => {
  it("a key's allowed domains (partner API)", async () => {
    const { partner, pat } = await partnerWithPat();
    const key = await p.key(partner.id, { env: "live", domains: ["cache.example.com"] });
    expect(await statusOf(init(apiCached, key.key))).toBe("200");
    expect(await statusOf(init(apiCached, key.key, "https://other.example.com"))).toBe("403 origin_not_allowed");

    const put = await apiCached.put(`/partner/keys/${key.id}/allowed-domains`, { token: pat, body: { allowed_domains: ["other.example.com"] } });
    expect(put.status, put.text).toBe(200);
    expect(await statusOf(init(apiCached, key.key))).toBe("403 origin_not_allowed");
    expect(await statusOf(init(apiCached, key.key, "https://other.example.com"))).toBe("200");
  });

  it("a shop's subscription and the partner's plan (the app_subscriptions/update webhook)", async () => {
    const partner = await p.partner("free");
    const domain = `sub-${randomBytes(4).toString("hex")}.myshopify.com`;
    await p.shop(partner.id, { domain, installedAt: daysAgo(40) });
    const key = await p.key(partner.id);
    expect(await statusOf(init(apiCached, key.key))).toBe("403 subscription_required");

    const hook = webhookRequest("app_subscriptions/update", domain, {
      app_subscription: { admin_graphql_api_id: `gid://shopify/AppSubscription/${domain}`, name: "Growth", status: "ACTIVE" },
    });
    const delivered = await fetch(`${cached.url}/webhooks/app_subscriptions/update`, { method: "POST", headers: hook.headers, body: await hook.text() });
    expect(delivered.status, await delivered.text()).toBe(200);
    const res = await init(apiCached, key.key);
    expect(res.status, res.text).toBe(200);
    // The new plan's figures, too: Growth's limit instead of Free's 200.
    expect(res.headers.get("x-usage-limit")).toBe("15000");
  });

  it("the newest basket configuration (partner API)", async () => {
    const { partner, pat } = await partnerWithPat();
    const key = await p.key(partner.id);
    expect((await init(apiCached, key.key)).body.basketConfig).toBeNull();
    const created = await apiCached.post("/partner/baskets", { token: pat, body: { layout: "drawer", primaryColor: "#ff0000" } });
    expect(created.status, created.text).toBeLessThan(300);
    const res = await init(apiCached, key.key);
    expect(res.body.basketConfig).toMatchObject({ id: created.body.basket.id, primaryColor: "#ff0000" });
  });

  it("a revoked key is refused at once", async () => {
    const { partner, pat } = await partnerWithPat();
    const key = await p.key(partner.id);
    expect(await statusOf(init(apiCached, key.key))).toBe("200");
    expect((await apiCached.post(`/partner/keys/${key.id}/revoke`, { token: pat })).status).toBe(200);
    expect(await statusOf(init(apiCached, key.key))).toBe("403 unknown_key");
  });
});

describe("changes made elsewhere (CLI, another instance)", () => {
  it("show within CONFIG_CACHE_TTL_MS", async () => {
    const partner = await p.partner("free");
    const domain = `cli-${randomBytes(4).toString("hex")}.myshopify.com`;
    await p.shop(partner.id, { domain, installedAt: daysAgo(40) });
    const key = await p.key(partner.id, { domains: ["cache.example.com"] });
    expect(await statusOf(init(apiShort, key.key))).toBe("403 subscription_required");
    // This process is "the CLI": the same domain functions, another process.
    const { changePartnerPlan } = await import("~/flows/partner-plan.server");
    await changePartnerPlan(partner.id, "growth");
    const planMs = await timed(() => until("plan seen", () => statusOf(init(apiShort, key.key)), (s) => s === "200", { timeoutMs: SHORT_TTL_MS + SLACK_MS }));
    expect(planMs).toBeLessThanOrEqual(SHORT_TTL_MS + SLACK_MS);

    const { setAllowList } = await import("~/domains/keys/keys.server");
    await setAllowList(partner.id, key.id, ["moved.example.com"]);
    const movedMs = await timed(() => until("allow-list seen", () => statusOf(init(apiShort, key.key)), (s) => s === "403 origin_not_allowed", { timeoutMs: SHORT_TTL_MS + SLACK_MS }));
    expect(movedMs).toBeLessThanOrEqual(SHORT_TTL_MS + SLACK_MS);
  });

  it("but a key revoked elsewhere is refused within the revocation poll, not the cache's TTL", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id);
    expect(await statusOf(init(apiPolled, key.key))).toBe("200");
    const { revokeApiKey } = await import("~/domains/keys/keys.server");
    await revokeApiKey(partner.id, key.id);
    // The cached row still says active for ten minutes; the key-status view knows within a poll (1 s).
    await until("revocation seen", () => statusOf(init(apiPolled, key.key)), (s) => s === "403 unknown_key", { timeoutMs: 5_000 });
  });

  it("the cache is really in use: a change that sends no change signal stays unseen for the TTL", async () => {
    const { partner } = await partnerWithPat();
    const key = await p.key(partner.id, { domains: ["cache.example.com"] });
    expect(await statusOf(init(apiPolled, key.key))).toBe("200");
    // Written behind the service's back (no signal, as no code of ours writes): the
    // cached configuration (TTL 10 minutes) still answers. Signalled changes are in tests/identity/revocation.test.ts.
    await sql(databaseUrl, `UPDATE "ApiKey" SET "allowedDomains" = ? WHERE "id" = ?`, [JSON.stringify(["moved.example.com"]), key.id]);
    expect(await statusOf(init(apiPolled, key.key))).toBe("200");
    expect(await statusOf(init(apiPolled, key.key, "https://moved.example.com"))).toBe("403 origin_not_allowed");
  });
});

describe("verified user tokens are cached, sessions are not", () => {
  it("a logged-out session's token is refused at once here, within a poll elsewhere", async () => {
    const user = await apiPolled.anonymousUser();
    for (const api of [apiPolled, apiShort]) {
      // Twice: the second answer comes from the verified-token cache.
      expect((await api.get("/auth/user", { token: user.accessToken })).status).toBe(200);
      expect((await api.get("/auth/user", { token: user.accessToken })).status).toBe(200);
    }
    expect((await apiPolled.post("/auth/logout", { token: user.accessToken })).status).toBe(204);
    const here = await apiPolled.get("/auth/user", { token: user.accessToken });
    expect(here.status).toBe(401);
    expect(here.body.error).toBe("unauthorized");
    await until("sign-out seen", () => apiShort.get("/auth/user", { token: user.accessToken }), (res) => res.status === 401, { timeoutMs: 5_000 });
  });

  it("a session revoked outside any instance is refused within a poll", async () => {
    const user = await apiPolled.anonymousUser();
    expect((await apiPolled.get("/auth/user", { token: user.accessToken })).status).toBe(200);
    const { session_id } = JSON.parse(Buffer.from(user.accessToken.split(".")[1], "base64url").toString());
    const at = new Date().toISOString().replace("Z", "+00:00");
    await sql(databaseUrl, `UPDATE "AuthSession" SET "revokedAt" = ? WHERE "id" = ?`, [at, session_id]);
    await until("sign-out seen", () => apiPolled.get("/auth/user", { token: user.accessToken }), (res) => res.status === 401, { timeoutMs: 5_000 });
  });

  it("a token that differs in one character of its signature is refused, cached twin or not", async () => {
    const user = await apiPolled.anonymousUser();
    expect((await apiPolled.get("/auth/user", { token: user.accessToken })).status).toBe(200);
    const last = user.accessToken.at(-2) === "A" ? "B" : "A";
    const forged = user.accessToken.slice(0, -2) + last + user.accessToken.at(-1);
    expect((await apiPolled.get("/auth/user", { token: forged })).status).toBe(401);
  });
});
