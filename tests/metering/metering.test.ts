// Wishlist actions against the partner's plan (SPEC 8, 3): counting,
// attribution, deduplication, the Free cap, notifications, month rollover.
// Everything runs twice: against the shared single-process server, and
// against a server of two worker processes (WEB_CONCURRENCY=2) on the same
// database, where racing requests land in different processes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, sharedApi, wish } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { logLines, startServer, type TestServer } from "../support/server.ts";
import { until } from "../support/wait.ts";
import { sql } from "../support/sql.ts";

let shared: Awaited<ReturnType<typeof sharedApi>>;
/** The server of the block running now. */
let api: Awaited<ReturnType<typeof apiFor>> & { server: { url: string; databaseUrl: string } };
let p: Awaited<ReturnType<typeof provisioner>>;
beforeAll(async () => {
  shared = await sharedApi();
  p = await provisioner(shared.server);
});

const period = () => new Date().toISOString().slice(0, 7);
const previousPeriod = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 15)).toISOString().slice(0, 7);
};

async function setCounter(partnerId: number, total: number, forPeriod = period()) {
  await sql(api.server.databaseUrl, `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total") VALUES (?, ?, ?, 0, 0, ?)`, [
    partnerId,
    forPeriod,
    total,
    total,
  ]);
}

async function counter(partnerId: number) {
  const rows = await sql<{ saves: number; shares: number; listViews: number; total: number }>(
    api.server.databaseUrl,
    `SELECT saves, shares, "listViews", total FROM "UsageCounter" WHERE "partnerId" = ? AND period = ?`,
    [partnerId, period()],
  );
  const r = rows[0];
  return r ? { saves: Number(r.saves), shares: Number(r.shares), listViews: Number(r.listViews), total: Number(r.total) } : null;
}

async function partnerWidget(plan: string, origin = "https://meter.example.com") {
  const partner = await p.partner(plan);
  const key = await p.key(partner.id);
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
  return { partner, key, token: init.body.token as string };
}

async function shopper() {
  const user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Gifts" } });
  return { ...user, dbId: list.body.list.db_id as number, listToken: list.body.token as string };
}

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

const productUrl = () => `https://meter.example.com/products/${Math.random().toString(36).slice(2)}`;

function widgetSave(w: { token: string }, s: { accessToken: string; dbId: number }, url = productUrl()) {
  return api.post("/widget/save", {
    token: s.accessToken,
    headers: { "x-widget-token": w.token },
    body: { wishlistId: s.dbId, product: { url, title: "Thing" } },
  });
}

const outboxKeys = async (partnerId: number) =>
  (await sql<{ dedupKey: string }>(api.server.databaseUrl, `SELECT "dedupKey" FROM "OutboxMessage" WHERE "dedupKey" LIKE ?`, [`usage:${partnerId}:%`]))
    .map((r) => r.dedupKey)
    .sort();

/** Distinct worker pids in the server's request log lines of saves (written right after each response). */
const savePids = (server: TestServer) => new Set(logLines(server, "request").filter((l) => String(l.path).includes("/widget/save")).map((l) => l.pid));

describe.each([
  { servers: "one process", workers: 1 },
  { servers: "two worker processes", workers: 2 },
])("on $servers", ({ workers }) => {
  let own: TestServer | undefined;
  beforeAll(async () => {
    if (workers === 1) return void (api = shared);
    // The shared server's database, so the provisioner (bound to it) arranges partners and keys for both.
    own = await startServer({ DATABASE_URL: shared.server.databaseUrl }, { workers });
    api = Object.assign(await apiFor(own), { server: own });
  });
  afterAll(async () => {
    await own?.stop();
  });

  describe("Free plan cap", () => {
    it("stops at exactly 200 saves when 50 saves race at 199", async () => {
      const w = await partnerWidget("free");
      await setCounter(w.partner.id, 199);
      const s = await shopper();
      const urls = Array.from({ length: 50 }, productUrl);
      const results = await Promise.all(urls.map((url) => widgetSave(w, s, url)));
      const twoWorkers = own;
      if (twoWorkers) await until("saves answered by both workers", () => savePids(twoWorkers).size, (n) => n === 2); // the race really spanned both workers
      const ok = results.filter((r) => r.status === 200);
      const capped = results.filter((r) => r.status === 402);
      expect(ok).toHaveLength(1);
      expect(capped).toHaveLength(49);
      expect(capped[0]!.body).toEqual({
        error: "usage_limit_reached",
        message: expect.any(String),
        plan: "free",
        actions_limit: 200,
        upgrade_url: `${api.server.url}/app/plans`,
      });
      expect(await counter(w.partner.id)).toMatchObject({ saves: 200, total: 200 });
      // The list holds exactly the one saved item: nothing was written for the rejected saves.
      const items = await api.get(`/hosted/lists/${s.listToken}/items`, { token: s.accessToken });
      expect(items.body.products).toHaveLength(1);
      // Nor did the rejected saves leave their new products behind: the 402 rolled back the whole transaction.
      const products = await sql<{ canonicalUrl: string }>(api.server.databaseUrl, `SELECT "canonicalUrl" FROM "Product" WHERE "canonicalUrl" LIKE ?`, [
        "https://meter.example.com/products/%",
      ]);
      expect(products.map((r) => r.canonicalUrl).filter((u) => urls.includes(u))).toEqual([items.body.products[0].affiliateUrl]);
    });

    it("hosted saves of the partner's products are capped too; shares and list views still count", async () => {
      const w = await partnerWidget("free");
      const s = await shopper();
      const url = productUrl();
      const saved = await widgetSave(w, s, url);
      expect(saved.status).toBe(200);
      // The partner's product: its platform claims the catalogue entry (a widget save does not).
      await sql(api.server.databaseUrl, `UPDATE "Product" SET "sourcePartnerId" = ? WHERE id = ?`, [w.partner.id, saved.body.product_id]);
      await sql(api.server.databaseUrl, `UPDATE "UsageCounter" SET total = 200, saves = 200 WHERE "partnerId" = ?`, [w.partner.id]);
      const other = await shopper();
      const hosted = await api.post("/hosted/save", { token: other.accessToken, body: { wishlistId: other.dbId, product: { url, title: "Thing" } } });
      expect(hosted.status).toBe(402);
      const share = await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public: true } });
      expect(share.status).toBe(200);
      expect(await counter(w.partner.id)).toMatchObject({ shares: 1, total: 201 });
    });

    it("an upgrade lifts the pause at once", async () => {
      const w = await partnerWidget("free");
      await setCounter(w.partner.id, 200);
      const s = await shopper();
      expect((await widgetSave(w, s)).status).toBe(402);
      await wish(api.server.databaseUrl, ["partner", "plan", "--partner", String(w.partner.id), "--plan", "starter"]);
      expect((await widgetSave(w, s)).status).toBe(200);
    });

    it("paid plans are never blocked and report overage at init", async () => {
      const w = await partnerWidget("starter");
      await setCounter(w.partner.id, 2000);
      const s = await shopper();
      const res = await widgetSave(w, s);
      expect(res.status).toBe(200);
      expect(await counter(w.partner.id)).toMatchObject({ total: 2001 });
      const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${w.key.key}` }, body: { origin: "https://meter.example.com" } });
      expect(init.body.overage).toBe(true);
    });

    it("a new UTC month starts from zero", async () => {
      const w = await partnerWidget("free");
      await setCounter(w.partner.id, 200, previousPeriod());
      const s = await shopper();
      expect((await widgetSave(w, s)).status).toBe(200);
      expect(await counter(w.partner.id)).toMatchObject({ saves: 1, total: 1 });
    });
  });

  describe("share and list_view", () => {
    it("a share counts once per list and day, attributed to the partner of the most recent item", async () => {
      const a = await partnerWidget("starter", "https://a.example.com");
      const b = await partnerWidget("starter", "https://b.example.com");
      const s = await shopper();
      await widgetSave(a, s);
      await widgetSave(b, s); // most recent: b
      for (const share_public of [true, false, true]) {
        await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public } });
      }
      expect(await counter(b.partner.id)).toMatchObject({ shares: 1 });
      expect(await counter(a.partner.id)).toMatchObject({ shares: 0 });
    });

    it("a public view counts once per list, viewer and 10-minute window; item reads do not count", async () => {
      const w = await partnerWidget("starter");
      const s = await shopper();
      await widgetSave(w, s);
      await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public: true } });
      const view = (token?: string) => api.get(`/hosted/public/lists/${s.listToken}`, { noApiKey: true, token, headers: { "user-agent": BROWSER } });
      const signedIn = await api.anonymousUser();
      await view(); // this address
      await view(); // the same viewer again
      await view(signedIn.accessToken); // a user is a viewer of its own
      await view(signedIn.accessToken);
      await api.get(`/hosted/public/lists/${s.listToken}/items`, { noApiKey: true, token: (await api.anonymousUser()).accessToken, headers: { "user-agent": BROWSER } });
      expect(await counter(w.partner.id)).toMatchObject({ listViews: 2 });
    });

    it("lists without a partner's products count for nobody", async () => {
      const s = await shopper();
      const saved = await api.post("/hosted/save", { token: s.accessToken, body: { wishlistId: s.dbId, product: { url: productUrl(), title: "Own" } } });
      expect(saved.status).toBe(200);
      const [{ n }] = await sql<{ n: number }>(api.server.databaseUrl, `SELECT COUNT(*) AS n FROM "UsageDedup" WHERE "dedupKey" LIKE ?`, [`share:${s.dbId}:%`]);
      await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public: true } });
      const [{ n: after }] = await sql<{ n: number }>(api.server.databaseUrl, `SELECT COUNT(*) AS n FROM "UsageDedup" WHERE "dedupKey" LIKE ?`, [`share:${s.dbId}:%`]);
      expect(Number(after)).toBe(Number(n));
    });
  });

  describe("what a save counts (bounds against inflated saves)", () => {
    // Tests run from one address (127.0.0.1): the defaults, 20 per saver and 30 per address, partner and hour.
    const PER_USER = 20;
    const PER_ADDRESS = 30;

    it("re-saving the same product into the same list is no action: 205 re-saves move a Free partner's count by 1", async () => {
      const w = await partnerWidget("free");
      const attacker = await shopper();
      const url = productUrl();
      let ok = 0;
      // 205 re-saves, five at a time: racing saves of the same item count once too.
      for (let round = 0; round < 41; round++) {
        const results = await Promise.all(Array.from({ length: 5 }, () => widgetSave(w, attacker, url)));
        ok += results.filter((r) => r.status === 200).length;
      }
      expect(ok).toBe(205);
      expect(await counter(w.partner.id)).toMatchObject({ saves: 1, total: 1 });
      expect(await outboxKeys(w.partner.id)).toEqual([]);
      // A real shopper is neither paused nor uncounted: each distinct save is an action.
      const real = await shopper();
      expect((await widgetSave(w, real)).status).toBe(200);
      expect((await widgetSave(w, real)).status).toBe(200);
      expect((await widgetSave(w, real, url)).status).toBe(200); // the same product, another list
      expect(await counter(w.partner.id)).toMatchObject({ saves: 4, total: 4 });
    });

    it(`distinct saves count at most ${PER_USER} per account and ${PER_ADDRESS} per address an hour, also when they race`, async () => {
      const w = await partnerWidget("starter");
      const attacker = await shopper();
      // 40 distinct products at once from one account: every save succeeds, 20 are actions.
      const burst = await Promise.all(Array.from({ length: 40 }, () => widgetSave(w, attacker)));
      expect(burst.filter((r) => r.status === 200)).toHaveLength(40);
      expect(await counter(w.partner.id)).toMatchObject({ saves: PER_USER, total: PER_USER });
      // Fresh anonymous accounts from the same address add at most the address's remainder.
      const accounts = await Promise.all(Array.from({ length: 4 }, shopper));
      const more = await Promise.all(accounts.flatMap((s) => Array.from({ length: 5 }, () => widgetSave(w, s))));
      expect(more.filter((r) => r.status === 200)).toHaveLength(20);
      expect(await counter(w.partner.id)).toMatchObject({ saves: PER_ADDRESS, total: PER_ADDRESS });
      // Another partner's count is its own.
      const other = await partnerWidget("starter");
      expect((await widgetSave(other, attacker)).status).toBe(200);
      expect(await counter(other.partner.id)).toMatchObject({ saves: 1 });
    });

    it("a Free partner at 100% answers 402 to every save, repeats included: paused means paused", async () => {
      const w = await partnerWidget("free");
      const s = await shopper();
      const url = productUrl();
      expect((await widgetSave(w, s, url)).status).toBe(200);
      await sql(api.server.databaseUrl, `UPDATE "UsageCounter" SET total = 200, saves = 200 WHERE "partnerId" = ?`, [w.partner.id]);
      expect((await widgetSave(w, s, url)).status).toBe(402); // a re-save
      expect((await widgetSave(w, s)).status).toBe(402); // a new one
      expect(await counter(w.partner.id)).toMatchObject({ total: 200 });
    });
  });

  describe("usage notifications", () => {
    it("one e-mail per partner, period and threshold, also when many requests cross at once", async () => {
      const w = await partnerWidget("free");
      await setCounter(w.partner.id, 150);
      const s = await shopper();
      // One address counts SAVES_PER_ADDRESS_MONTH (10) of a Free partner's month: to 160, 80%.
      await Promise.all(Array.from({ length: 20 }, () => widgetSave(w, s)));
      expect(await outboxKeys(w.partner.id)).toEqual([`usage:${w.partner.id}:${period()}:80`]);
      // Within one shopper's and one address's bound of counted saves, from 190 to the cap: 100%
      // (the address's monthly share given back, as if the saves came from elsewhere).
      await sql(api.server.databaseUrl, `UPDATE "UsageCounter" SET total = 190, saves = 190 WHERE "partnerId" = ?`, [w.partner.id]);
      await sql(api.server.databaseUrl, `DELETE FROM "UsageDedup" WHERE "dedupKey" LIKE ?`, [`month:saveaddr:${w.partner.id}:%`]);
      const other = await shopper();
      await Promise.all(Array.from({ length: 10 }, () => widgetSave(w, other)));
      expect(await outboxKeys(w.partner.id)).toEqual([`usage:${w.partner.id}:${period()}:100`, `usage:${w.partner.id}:${period()}:80`]);
    });

    it("plans without a finite limit never notify", async () => {
      const w = await partnerWidget("enterprise");
      await setCounter(w.partner.id, 1_000_000);
      const s = await shopper();
      expect((await widgetSave(w, s)).status).toBe(200);
      expect(await outboxKeys(w.partner.id)).toEqual([]);
    });
  });

  describe("usage record", () => {
    it("wish usage and GET /me/usage agree after a scripted sequence of saves, shares and views", async () => {
      const w = await partnerWidget("starter");
      const s = await shopper();
      for (let i = 0; i < 3; i++) await widgetSave(w, s);
      await api.put(`/hosted/lists/${s.listToken}`, { token: s.accessToken, body: { share_public: true } });
      await api.get(`/hosted/public/lists/${s.listToken}`, { noApiKey: true, headers: { "user-agent": BROWSER } });
      const cli = (await wish(api.server.databaseUrl, ["usage", "--partner", String(w.partner.id)])).usage;
      const pat = (await wish(api.server.databaseUrl, ["pat", "create", "--partner", String(w.partner.id)])).access_token;
      const http = await api.get("/me/usage", { token: pat.token });
      expect(http.status).toBe(200);
      expect(http.body).toEqual(cli);
      expect(cli).toMatchObject({ plan: "starter", actions_used: 5, breakdown: { save: 3, share: 1, list_view: 1 }, level: "ok" });
    });
  });
});
