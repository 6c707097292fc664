// Cost flat in data size: the statements hot routes run reach list items
// through an index, never by reading the whole ListItem table (a Prisma
// `_count` include aggregates every list's items on each call). Checked on the
// statements the built server really runs (LOG_LEVEL=debug logs each one),
// with the database's own EXPLAIN.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "./support/api.ts";
import { explain, loggedStatements } from "./support/explain.ts";
import { startServer, type TestServer } from "./support/server.ts";

let server: TestServer;
let api: Api;

beforeAll(async () => {
  // Slow pollers, so the statements logged during a request are the request's.
  server = await startServer({ LOG_LEVEL: "debug", OUTBOX_POLL_MS: "600000", REVOCATION_POLL_MS: "600000" });
  api = await apiFor(server);
});
afterAll(async () => {
  await server.stop();
});

/** The statements the server ran while `call` was in flight. */
async function statementsOf(call: () => Promise<{ status: number; text: string }>, status = 200): Promise<string[]> {
  const start = server.output().length;
  const res = await call();
  expect(res.status, res.text).toBe(status);
  await new Promise((r) => setTimeout(r, 100)); // the last log lines
  return loggedStatements(server.output().slice(start));
}

async function expectItemsByIndex(statements: string[]) {
  const onItems = statements.filter((s) => /[`"]ListItem[`"]/.test(s));
  expect(onItems.length, statements.join("\n")).toBeGreaterThan(0);
  for (const statement of onItems) {
    const plan = await explain(server.databaseUrl, statement);
    expect(plan.fullScans, `${statement}\n→\n${plan.text}`).toEqual([]);
  }
  return onItems;
}

describe("list reads count a list's items from that list's rows", () => {
  let owner: { accessToken: string };
  let token: string;

  beforeAll(async () => {
    owner = await api.anonymousUser();
    token = (await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Plans" } })).body.token;
    const lists = (await api.post("/hosted/lists", { token: owner.accessToken })).body.lists;
    const dbId = lists.find((l: { id: string }) => l.id === token).db_id;
    // Another list's items, which the count must not include.
    const other = (await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Other" } })).body.token;
    const otherId = (await api.post("/hosted/lists", { token: owner.accessToken })).body.lists.find((l: { id: string }) => l.id === other).db_id;
    for (const [list, n] of [[dbId, 1], [dbId, 2], [otherId, 3]] as const) {
      const saved = await api.post("/hosted/save", {
        token: owner.accessToken,
        body: { wishlistId: list, product: { url: `https://plans.example.com/p/${n}`, title: `P ${n}` } },
      });
      expect(saved.status, saved.text).toBe(200);
    }
    expect((await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: true } })).status).toBe(200);
  });

  it("the public list read (GET /hosted/public/lists/{token})", async () => {
    let body: { list: { productCount: number } } | undefined;
    const statements = await statementsOf(async () => {
      const res = await api.get(`/hosted/public/lists/${token}`, { noApiKey: true });
      body = res.body;
      return res;
    });
    expect(body!.list.productCount).toBe(2);
    const onItems = await expectItemsByIndex(statements);
    expect(onItems.some((s) => /count\(/i.test(s)), onItems.join("\n")).toBe(true);
  });

  it("the public items read (GET /hosted/public/lists/{token}/items)", async () => {
    await expectItemsByIndex(await statementsOf(() => api.get(`/hosted/public/lists/${token}/items`, { noApiKey: true })));
  });

  it("the owner's reads: POST /hosted/lists, GET /hosted/lists/{token}, POST /hosted/me/init", async () => {
    let lists: { id: string; productCount: number }[] = [];
    await expectItemsByIndex(
      await statementsOf(async () => {
        const res = await api.post("/hosted/lists", { token: owner.accessToken });
        lists = res.body.lists;
        return res;
      }),
    );
    expect(lists.find((l) => l.id === token)!.productCount).toBe(2);
    expect(lists.map((l) => l.productCount).sort()).toEqual([1, 2]); // Other, Plans
    await expectItemsByIndex(await statementsOf(() => api.get(`/hosted/lists/${token}`, { token: owner.accessToken })));
    await expectItemsByIndex(await statementsOf(() => api.post("/hosted/me/init", { token: owner.accessToken })));
  });
});

describe("init and the user read search by key", () => {
  it("POST /widget/init (configuration cached) reads the month's counter by its key; GET /auth/user the user by id", async () => {
    const { provisioner } = await import("./support/provision.ts");
    const p = await provisioner(server);
    const partner = await p.partner();
    const key = await p.key(partner.id);
    const init = () => api.post("/widget/init", { body: { origin: "https://plans.example.com" }, headers: { authorization: `Bearer ${key.key}` } });
    await statementsOf(init); // loads the key's configuration
    const logged = await statementsOf(init);
    // The key, partner, shops and basket come from the cache; the counter is the one read left.
    expect(logged.filter((s) => /[`"](ApiKey|Partner|PlatformShop|BasketConfig)[`"]/.test(s)), logged.join("\n")).toEqual([]);
    const initStatements = logged.filter((s) => /"UsageCounter"/.test(s));
    expect(initStatements, logged.join("\n")).toHaveLength(1);
    const user = await api.anonymousUser();
    const userStatements = (await statementsOf(() => api.get("/auth/user", { token: user.accessToken }))).filter((s) => /[`"]User[`"]/.test(s));
    expect(userStatements.length).toBeGreaterThan(0);
    for (const statement of [...initStatements, ...userStatements]) {
      const plan = await explain(server.databaseUrl, statement);
      expect(plan.fullScans, `${statement}\n→\n${plan.text}`).toEqual([]);
    }
  });
});
