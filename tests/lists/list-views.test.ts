// list_view metering against inflation: who counts as a
// viewer of a public list, and how many views one client address can produce.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, sharedApi, type Api } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

const BROWSER = (n: number | string = 0) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.${n} Safari/537.36`;
const VIEWS_PER_ADDRESS = 3; // app/domains/metering/actions.server.ts
const WINDOW_MS = 10 * 60_000;

const period = () => new Date().toISOString().slice(0, 7);

async function counter(api: Api & { databaseUrl: string }, partnerId: number) {
  const [r] = await sql<{ listViews: number; total: number }>(
    api.databaseUrl,
    `SELECT "listViews", total FROM "UsageCounter" WHERE "partnerId" = ? AND period = ?`,
    [partnerId, period()],
  );
  return { listViews: Number(r?.listViews ?? 0), total: Number(r?.total ?? 0) };
}

/** A partner (plan) whose product sits on a shopper's public list. */
async function publicListOf(api: Api, p: Awaited<ReturnType<typeof provisioner>>, plan = "starter") {
  const partner = await p.partner(plan);
  const key = await p.key(partner.id);
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin: "https://views.example.com" } });
  expect(init.status, init.text).toBe(200);
  const shopper = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: shopper.accessToken, body: { name: "Gifts" } });
  const save = () =>
    api.post("/widget/save", {
      token: shopper.accessToken,
      headers: { "x-widget-token": init.body.token },
      body: { wishlistId: list.body.list.db_id, product: { url: `https://views.example.com/products/${Math.random().toString(36).slice(2)}`, title: "Thing" } },
    });
  expect((await save()).status).toBe(200);
  const shared = await api.put(`/hosted/lists/${list.body.token}`, { token: shopper.accessToken, body: { share_public: true } });
  expect(shared.status).toBe(200);
  return { partner, token: list.body.token as string, save };
}

function view(api: Api, token: string, headers: Record<string, string> = {}, bearer?: string) {
  return api.get(`/hosted/public/lists/${token}`, { noApiKey: true, token: bearer, headers: { "user-agent": BROWSER(), ...headers } });
}

const randomAddress = (i: number) => `${(i % 200) + 11}.${(i * 7) % 250}.${(i * 13) % 250}.${(i % 250) + 1}`;

describe("list views on the shared server (no trusted proxy)", () => {
  let api: Awaited<ReturnType<typeof sharedApi>>;
  let p: Awaited<ReturnType<typeof provisioner>>;
  let db: Api & { databaseUrl: string };
  beforeAll(async () => {
    api = await sharedApi();
    p = await provisioner(api.server);
    db = Object.assign(api, { databaseUrl: api.server.databaseUrl });
  });

  it("200 reads with different user agents, forwarded addresses and invented cookies from one address count once; a Free partner is not pushed over its cap", async () => {
    const l = await publicListOf(api, p, "free");
    // 195 of the Free plan's 200 actions used: the reported attack took such a partner to 203/200.
    await sql(db.databaseUrl, `UPDATE "UsageCounter" SET saves = saves + 195 - total, total = 195 WHERE "partnerId" = ? AND period = ?`, [l.partner.id, period()]);
    const before = await counter(db, l.partner.id);
    expect(before.total).toBe(195);
    for (let i = 0; i < 200; i++) {
      const res = await view(api, l.token, {
        "user-agent": BROWSER(i),
        "x-forwarded-for": randomAddress(i),
        "x-real-ip": randomAddress(i + 1),
        cookie: `wl_viewer=${Math.random().toString(36).slice(2)}.${i}.forged; other=1`,
      });
      expect(res.status).toBe(200);
    }
    const after = await counter(db, l.partner.id);
    expect(after.listViews - before.listViews).toBeLessThanOrEqual(VIEWS_PER_ADDRESS);
    expect(after.listViews - before.listViews).toBe(1); // all of them are this address
    // Saves still work, and neither threshold e-mail was triggered by the views.
    expect((await l.save()).status).toBe(200);
    const mails = await sql<{ dedupKey: string }>(db.databaseUrl, `SELECT "dedupKey" FROM "OutboxMessage" WHERE "dedupKey" LIKE ?`, [`usage:${l.partner.id}:%:100`]);
    expect(mails).toEqual([]);
  });

  it("server-issued cookies replayed and fresh accounts from one address count at most VIEWS_PER_ADDRESS per window", async () => {
    const l = await publicListOf(api, p);
    const first = await view(api, l.token);
    const setCookie = first.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^wl_viewer=[\w-]+\.[0-9a-z]+\.[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    // Cookies issued in an earlier window are viewers of their own (a cookie issued now still counts as the address).
    const { issueViewerId } = await import("~/domains/metering/list-viewer.server");
    const oldIds = await Promise.all(Array.from({ length: 10 }, () => issueViewerId(Date.now() - 2 * WINDOW_MS)));
    for (const id of oldIds) expect((await view(api, l.token, { cookie: `wl_viewer=${id}` })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const user = await api.anonymousUser();
      expect((await view(api, l.token, {}, user.accessToken)).status).toBe(200);
    }
    expect((await counter(db, l.partner.id)).listViews).toBe(VIEWS_PER_ADDRESS);
  });

  it("a valid viewer cookie from an earlier window is one viewer however often it views; a user token is its user", async () => {
    const l = await publicListOf(api, p);
    const { issueViewerId } = await import("~/domains/metering/list-viewer.server");
    const cookie = `wl_viewer=${await issueViewerId(Date.now() - 2 * WINDOW_MS)}`;
    for (let i = 0; i < 5; i++) {
      const res = await view(api, l.token, { cookie, "user-agent": BROWSER(i) });
      expect(res.headers.get("set-cookie")).toBeNull(); // it has one
    }
    const user = await api.anonymousUser();
    for (let i = 0; i < 3; i++) await view(api, l.token, { cookie }, user.accessToken);
    expect((await counter(db, l.partner.id)).listViews).toBe(2);
  });

  it("bots are not viewers", async () => {
    const l = await publicListOf(api, p);
    const bots = ["Googlebot/2.1 (+http://www.google.com/bot.html)", "facebookexternalhit/1.1", "curl/8.5.0", "python-requests/2.31"];
    for (const agent of bots) {
      const res = await view(api, l.token, { "user-agent": agent }, (await api.anonymousUser()).accessToken);
      expect(res.status).toBe(200);
      expect(res.body.list).toBeTruthy();
    }
    expect((await counter(db, l.partner.id)).listViews).toBe(0);
  });
});

describe("list views behind a trusted proxy (TRUSTED_PROXIES)", () => {
  let server: TestServer;
  let api: Api & { databaseUrl: string };
  let p: Awaited<ReturnType<typeof provisioner>>;
  beforeAll(async () => {
    // A second instance on the shared database (this worker's provisioner is bound to it).
    // The test client connects from 127.0.0.1, so it plays the proxy.
    const shared = await sharedApi();
    server = await startServer({ DATABASE_URL: shared.server.databaseUrl, TRUSTED_PROXIES: "127.0.0.1", APP_URL: "https://wish.example" });
    api = Object.assign(await apiFor(server), { databaseUrl: server.databaseUrl });
    p = await provisioner(shared.server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("distinct forwarded client addresses are distinct viewers; each is capped on its own", async () => {
    const l = await publicListOf(api, p);
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 3; j++) expect((await view(api, l.token, { "x-forwarded-for": `198.51.100.${i + 1}` })).status).toBe(200);
    }
    expect((await counter(api, l.partner.id)).listViews).toBe(5);
  });

  it("only the entry the trusted proxy appended counts: a client-sent X-Forwarded-For prefix is ignored", async () => {
    const l = await publicListOf(api, p);
    for (let i = 0; i < 20; i++) {
      await view(api, l.token, { "x-forwarded-for": `${randomAddress(i)}, 203.0.113.7`, "user-agent": BROWSER(i) });
    }
    expect((await counter(api, l.partner.id)).listViews).toBe(1);
  });

  it("IPv6 clients are capped per /64", async () => {
    const l = await publicListOf(api, p);
    const users = await Promise.all(Array.from({ length: 6 }, () => api.anonymousUser()));
    for (const [i, user] of users.entries()) {
      await view(api, l.token, { "x-forwarded-for": `2001:db8:1:2::${i + 1}` }, user.accessToken);
    }
    expect((await counter(api, l.partner.id)).listViews).toBe(VIEWS_PER_ADDRESS);
    await view(api, l.token, { "x-forwarded-for": "2001:db8:1:3::1" });
    expect((await counter(api, l.partner.id)).listViews).toBe(VIEWS_PER_ADDRESS + 1);
  });

  it("the viewer cookie is Secure when APP_URL is https", async () => {
    const l = await publicListOf(api, p);
    const res = await view(api, l.token, { "x-forwarded-for": "198.51.100.200" });
    expect(res.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });
});
