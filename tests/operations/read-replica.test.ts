// Public reads from a read replica (docs/operations.md "With a read replica"),
// against a PostgreSQL of this test's own and a streaming standby of it
// (pg_basebackup). Which server answered is proven by what only one of them
// holds: with the standby's replay paused, a list made public since is 404 on
// a read the replica serves and 200 on one the primary serves; discover's
// statements appear in the standby's statement log. Two instances read from
// it: `near` trusts one lag measurement for minutes (so a replica that stops
// under it is found by a failing read), `strict` allows 100 ms of lag and
// measures every 50 ms. Runs once, in the SQLite half of the suite (its
// databases are its own either way).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startOwnPostgres, type OwnPostgres, type OwnStandby } from "../support/own-postgres.ts";
import { provisioner } from "../support/provision.ts";
import { logLines, root, startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

let database: OwnPostgres;
let standby: OwnStandby;
let primaryUrl: string;
let near: TestServer;
let strict: TestServer;
let nearApi: Api;
let strictApi: Api;

beforeAll(async () => {
  database = await startOwnPostgres();
  primaryUrl = await database.createDatabase("wish");
  standby = await database.startStandby();
  const env = {
    DATABASE_URL: primaryUrl,
    DATABASE_REPLICA_URL: standby.url("wish"),
    DISCOVER_CACHE_SECONDS: "0",
    SAVES_PER_USER: "100000",
    SAVES_PER_ADDRESS: "100000",
  };
  // One after the other: the first applies the migrations.
  near = await startServer({ ...env, DATABASE_REPLICA_MAX_LAG_MS: "300000", DATABASE_REPLICA_CHECK_MS: "300000" });
  strict = await startServer({ ...env, DATABASE_REPLICA_MAX_LAG_MS: "100", DATABASE_REPLICA_CHECK_MS: "50" });
  nearApi = await apiFor(near);
  strictApi = await apiFor(strict);
}, 120_000);

afterAll(async () => {
  await near?.stop();
  await strict?.stop();
  await database?.stop();
});

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";
const ORIGIN = "https://replica.example.com";

async function partnerWidget(api: Api, server: TestServer) {
  const p = await provisioner(server);
  const partner = await p.partner("growth");
  const key = (await p.key(partner.id)).key as string;
  return { key, token: await widgetToken(api, key) };
}

/** A widget token of `key` for the instance behind `api` (each instance signs its own). */
async function widgetToken(api: Api, key: string): Promise<string> {
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin: ORIGIN } });
  expect(init.status, init.text).toBe(200);
  return init.body.token as string;
}

/** Runs `fn` with the standby's replay paused, resuming it (and waiting until it has caught up) however `fn` ends. */
async function whilePaused(fn: () => Promise<void>): Promise<void> {
  await standby.pauseReplay();
  try {
    await fn();
  } finally {
    await standby.resumeReplay();
    await until("standby caught up after the pause", () => standby.caughtUp());
  }
}

async function shopper(api: Api) {
  const user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Gifts" } });
  expect(list.status).toBe(200);
  return { ...user, dbId: list.body.list.db_id as number, listToken: list.body.token as string };
}

const productUrl = () => `${ORIGIN}/products/${Math.random().toString(36).slice(2)}`;

async function widgetSave(api: Api, widget: { token: string }, s: { accessToken: string; dbId: number }, url = productUrl()) {
  const res = await api.post("/widget/save", { token: s.accessToken, headers: { "x-widget-token": widget.token, origin: ORIGIN }, body: { wishlistId: s.dbId, product: { url, title: "Thing" } } });
  expect(res.status, res.text).toBe(200);
  return url;
}

const savedUrls = async (api: Api, widget: { token: string }, s: { accessToken: string }, query = "") => {
  const res = await api.get(`/widget/saved-products${query}`, { token: s.accessToken, headers: { "x-widget-token": widget.token, origin: ORIGIN } });
  expect(res.status, res.text).toBe(200);
  return (res.body.products as { url: string }[]).map((p) => p.url);
};

/**
 * A shopper with an e-mail account, signed in on both instances (each signs its own tokens);
 * signing in is no write of theirs. Their list is made through `strict`.
 */
async function shopperOfBoth() {
  const email = `replica-${Math.random().toString(36).slice(2)}@example.com`;
  const password = "replica-test-password-42";
  const signup = await strictApi.post("/auth/signup", { body: { email, password } });
  expect(signup.status, signup.text).toBe(200);
  const list = await strictApi.post("/hosted/me/lists", { token: signup.body.access_token, body: { name: "Gifts" } });
  expect(list.status).toBe(200);
  const signIn = await nearApi.post("/auth/token?grant_type=password", { body: { email, password } });
  expect(signIn.status, signIn.text).toBe(200);
  const dbId = list.body.list.db_id as number;
  return { strict: { accessToken: signup.body.access_token as string, dbId }, near: { accessToken: signIn.body.access_token as string, dbId } };
}

/** A public list with one item saved through `widget` (so its views are metered for that partner). */
async function publicList(api: Api, widget: { token: string }) {
  const s = await shopper(api);
  await widgetSave(api, widget, s);
  const made = await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public: true } });
  expect(made.status).toBe(200);
  return s;
}

const publicStatus = async (api: Api, token: string) => (await api.get(`/hosted/public/lists/${token}`, { noApiKey: true, headers: { "user-agent": BROWSER } })).status;
const pageStatus = async (server: TestServer, token: string) => (await fetch(`${server.url}/en/list/${token}`, { headers: { "user-agent": BROWSER } })).status;

/** Every public read of one list (and discover) on `server`: the statuses, by route. */
async function publicReads(server: TestServer, api: Api, token: string) {
  const get = (p: string) => api.get(p, { noApiKey: true, headers: { "user-agent": BROWSER } });
  return {
    list: (await get(`/hosted/public/lists/${token}`)).status,
    items: (await get(`/hosted/public/lists/${token}/items`)).status,
    page: await pageStatus(server, token),
    preview: (await get(`/og/list/${token}`)).status,
    trending: (await get(`/discover/trending`)).status,
    shops: (await get(`/discover/shops`)).status,
  };
}

const viewKeys = async (wishlistId: number) =>
  Number((await sql<{ n: number }>(primaryUrl, `SELECT COUNT(*) AS n FROM "UsageDedup" WHERE "dedupKey" LIKE ?`, [`view:${wishlistId}:%`]))[0]!.n);
const statementsOnStandby = (table: string) => standby.log().split("\n").filter((l) => l.includes(`"${table}"`)).length;

describe("a streaming read replica", () => {
  it("serves the public reads; the rest, and the view counts they cause, go to the primary", async () => {
    await until("standby caught up", () => standby.caughtUp());
    const widget = await partnerWidget(nearApi, near);
    const before = await publicList(nearApi, widget);
    await until("standby replayed the first list", () => standby.caughtUp());

    const elsewhere = await shopperOfBoth();
    let nearWidget = { token: "" };
    let elsewhereUrl = "";
    let after: Awaited<ReturnType<typeof publicList>> | undefined;
    await whilePaused(async () => {
      const made = await publicList(nearApi, widget);
      after = made;
      expect((await sql(primaryUrl, `SELECT 1 FROM "Wishlist" WHERE "shareToken" = ? AND "sharePublic" = true`, [made.listToken])).length).toBe(1);
      // The first reads come from the primary until `near` has measured the replica's lag.
      await until("near reads the public list from the replica", () => publicStatus(nearApi, made.listToken), (s) => s === 404);
      // Every public read of the list made public after the pause: the replica has not replayed it.
      expect(await publicReads(near, nearApi, made.listToken)).toEqual({ list: 404, items: 404, page: 404, preview: 404, trending: 200, shops: 200 });
      // The owner's own (signed-in) read is not a public read: the primary.
      expect((await nearApi.get(`/hosted/lists/${made.listToken}`, { token: made.accessToken })).status).toBe(200);
      // Discover ran on the standby: its statements are in the standby's statement log.
      const shopStatements = statementsOnStandby("PlatformShop");
      expect((await nearApi.get("/discover/shops", { noApiKey: true })).status).toBe(200);
      expect(statementsOnStandby("PlatformShop")).toBeGreaterThan(shopStatements);

      // A view of a list the replica holds is read there and counted on the primary (a standby refuses writes).
      expect(await viewKeys(before.dbId)).toBe(0);
      expect(await publicStatus(nearApi, before.listToken)).toBe(200);
      expect(await viewKeys(before.dbId)).toBe(1);
      expect(logLines(near, "list view not counted")).toEqual([]);

      // Heart state: a shopper's own save shows at once (read-your-writes: the primary after a write through this instance).
      const own = await shopper(nearApi);
      const ownUrl = await widgetSave(nearApi, widget, own);
      expect(await savedUrls(nearApi, widget, own)).toEqual([ownUrl]);
      // A shopper who saved through the other instance reads the replica's state from `near` (stale while
      // replay is paused), unless the widget asks for the primary (`fresh=1`, right after a change).
      const elsewhereWidget = await partnerWidget(strictApi, strict);
      nearWidget = { token: await widgetToken(nearApi, elsewhereWidget.key) };
      elsewhereUrl = await widgetSave(strictApi, elsewhereWidget, elsewhere.strict);
      expect(await savedUrls(nearApi, nearWidget, elsewhere.near)).toEqual([]);
      expect(await savedUrls(nearApi, nearWidget, elsewhere.near, "?fresh=1")).toEqual([elsewhereUrl]);
    });
    expect(await publicReads(near, nearApi, after!.listToken)).toEqual({ list: 200, items: 200, page: 200, preview: 200, trending: 200, shops: 200 });
    expect(await savedUrls(nearApi, nearWidget, elsewhere.near)).toEqual([elsewhereUrl]);
  }, 120_000);

  it("a replica lagging beyond DATABASE_REPLICA_MAX_LAG_MS is left alone: the primary answers", async () => {
    const widget = await partnerWidget(strictApi, strict);
    const first = await publicList(strictApi, widget);
    await until("strict reads from the replica", async () => (await publicStatus(strictApi, first.listToken), logLines(strict, "read replica in use").length > 0));

    await whilePaused(async () => {
      const behind = await publicList(strictApi, widget);
      // Until its next measurement (50 ms) `strict` may still read the replica (404); then the primary (200).
      await until("strict reads from the primary", () => publicStatus(strictApi, behind.listToken), (s) => s === 200);
      expect(await publicReads(strict, strictApi, behind.listToken)).toEqual({ list: 200, items: 200, page: 200, preview: 200, trending: 200, shops: 200 });
      expect(logLines(strict, "read replica not used, reading from the primary").map((l) => l.reason)).toContain("lagging beyond DATABASE_REPLICA_MAX_LAG_MS");
      // `near`, which allows minutes of lag, still reads the same list from the replica.
      expect(await publicStatus(nearApi, behind.listToken)).toBe(404);
    });
    const inUse = logLines(strict, "read replica in use").length;
    await until("strict reads from the replica again", async () => (await publicStatus(strictApi, first.listToken), logLines(strict, "read replica in use").length > inUse));
  }, 120_000);

  it("the replica stopped: every public read still answers 200, from the primary", async () => {
    const widget = await partnerWidget(nearApi, near);
    const list = await publicList(nearApi, widget);
    const reader = await shopperOfBoth();
    await widgetSave(nearApi, widget, reader.near);
    const widgets = { near: widget.token, strict: await widgetToken(strictApi, widget.key) };
    await until("standby replayed the list", () => standby.caughtUp());
    expect(await publicStatus(nearApi, list.listToken)).toBe(200);

    await standby.stop();
    // `near` still trusts its last measurement: the first read fails on the replica and is answered by the primary.
    for (const [name, server, api] of [
      ["near", near, nearApi],
      ["strict", strict, strictApi],
    ] as const) {
      expect(await publicReads(server, api, list.listToken)).toEqual({ list: 200, items: 200, page: 200, preview: 200, trending: 200, shops: 200 });
      expect(await savedUrls(api, { token: widgets[name] }, reader[name])).toHaveLength(1);
    }
    const reasons = logLines(near, "read replica not used, reading from the primary").map((l) => String(l.reason));
    expect(reasons.some((r) => r.startsWith("read failed")), reasons.join("\n")).toBe(true);
    for (const server of [near, strict]) {
      expect(logLines(server, "request").length).toBeGreaterThan(10);
      expect(logLines(server, "request").filter((l) => Number(l.status) >= 500)).toEqual([]);
    }
  }, 120_000);
});

describe("configuration", () => {
  const boot = (env: Record<string, string>) =>
    spawnSync(process.execPath, [path.join(root, "app/server/start.mjs")], { cwd: root, env: { ...process.env, PORT: "0", ...env }, encoding: "utf8", timeout: 20_000 });

  it("refuses DATABASE_REPLICA_URL with a SQLite DATABASE_URL, saying why", () => {
    const result = boot({ DATABASE_URL: "file:./data/replica-refused.db", DATABASE_REPLICA_URL: "postgresql://postgres@127.0.0.1:5432/wish" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration");
    expect(result.stderr).toMatch(/DATABASE_REPLICA_URL: is for a PostgreSQL DATABASE_URL only: a SQLite database has no replicas/);
  });

  it("refuses a DATABASE_REPLICA_URL that is no PostgreSQL URL", () => {
    const result = boot({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/wish", DATABASE_REPLICA_URL: "mysql://replica/wish" });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/DATABASE_REPLICA_URL: must be a postgresql:\/\/ URL/);
  });
});
