// Cost flat in data size: the statements hot routes run reach list items
// through an index, never by reading the whole ListItem table (a Prisma
// `_count` include aggregates every list's items on each call). Checked on the
// statements the built server really runs (LOG_LEVEL=debug logs each one),
// with the database's own EXPLAIN.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { explain, statementsDuring } from "../support/explain.ts";
import { freePort, startServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let api: Api;
let page: Server;
let pagePort: number;

beforeAll(async () => {
  // A product page with a price: what a save's scrape writes into the catalogue.
  pagePort = await freePort();
  page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    const product = { "@type": "Product", name: "Scraped", offers: { "@type": "Offer", price: "12.50", priceCurrency: "EUR" } };
    res.end(`<html><head><title>Scraped</title><script type="application/ld+json">${JSON.stringify(product)}</script></head></html>`);
  });
  await new Promise<void>((r) => page.listen(pagePort, "127.0.0.1", r));
  // Slow pollers, so the statements logged during a request are the request's.
  server = await startServer({
    LOG_LEVEL: "debug",
    OUTBOX_POLL_MS: "600000",
    REVOCATION_POLL_MS: "600000",
    FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${pagePort}`,
  });
  api = await apiFor(server);
});
afterAll(async () => {
  await server.stop();
  await new Promise((r) => page?.close(r));
});

/** The statements the server ran while `call` was in flight. */
const statementsOf = (call: () => Promise<{ status: number; text: string }>, status = 200) =>
  statementsDuring(server, async () => {
    const res = await call();
    expect(res.status, res.text).toBe(status);
  });

/** Every statement naming one of `tables` reaches its rows through an index; returns those statements. */
async function expectByIndex(statements: string[], tables: string[]) {
  const named = new RegExp(`[\`"](${tables.join("|")})[\`"]`);
  const onTables = statements.filter((s) => named.test(s));
  expect(onTables.length, statements.join("\n")).toBeGreaterThan(0);
  for (const statement of onTables) {
    const plan = await explain(server.databaseUrl, statement);
    expect(plan.fullScans, `${statement}\n→\n${plan.text}`).toEqual([]);
  }
  return onTables;
}

const expectItemsByIndex = (statements: string[]) => expectByIndex(statements, ["ListItem"]);

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

describe("the save and the share page reach every row they touch through an index", () => {
  // What a save reads and writes (products/save.server.ts, metering/actions.server.ts).
  const SAVE_TABLES = ["ListItem", "Product", "ProductLocalization", "PricePoint", "Wishlist", "WishlistMember", "Partner", "UsageCounter", "UsageDay", "UsageDedup"];

  it("POST /hosted/save and POST /widget/save (a known product again, a new item that is counted, a scraped page with a price)", async () => {
    const { provisioner } = await import("../support/provision.ts");
    const p = await provisioner(server);
    const partner = await p.partner("free");
    const key = await p.key(partner.id);
    const origin = "https://plans-shop.example.com";
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
    expect(init.status, init.text).toBe(200);
    const user = await api.anonymousUser();
    const list = await api.post("/hosted/me/init", { token: user.accessToken });
    const wishlistId = list.body.list.db_id as number;
    const product = { url: "https://plans-shop.example.com/p/1", title: "Saved", price: 100, currency: "EUR", marketCode: "de-DE" };
    const save = (path: string, saved: Record<string, unknown>, headers: Record<string, string> = {}) =>
      statementsOf(() => api.post(path, { token: user.accessToken, headers, body: { wishlistId, product: saved } }));
    const widget = { "x-widget-token": init.body.token, origin };
    await save("/hosted/save", product); // the product is known from here on
    const statements = [
      ...(await save("/hosted/save", product)),
      // A repeat through a Free partner's widget asks whether the partner is paused.
      ...(await save("/widget/save", product, widget)),
      // A new item through the widget: claimed and counted.
      ...(await save("/widget/save", { ...product, url: "https://plans-shop.example.com/p/2" }, widget)),
      // A URL-only save of a page: the scrape writes the catalogue facts and a price point.
      ...(await save("/hosted/save", { url: `http://127.0.0.1:${pagePort}/p/3`, marketCode: "de-DE" })),
    ];
    const touched = await expectByIndex(statements, SAVE_TABLES);
    for (const table of ["ListItem", "Product", "ProductLocalization", "PricePoint", "UsageCounter", "UsageDay", "UsageDedup"]) {
      expect(touched.some((s) => s.includes(`"${table}"`)), `${table}\n${touched.join("\n")}`).toBe(true);
    }
  });

  it("the share page /{lang}/list/{token}", async () => {
    const owner = await api.anonymousUser();
    const token = (await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: "Shared" } })).body.token as string;
    const dbId = (await api.post("/hosted/lists", { token: owner.accessToken })).body.lists.find((l: { id: string }) => l.id === token).db_id;
    await api.post("/hosted/save", { token: owner.accessToken, body: { wishlistId: dbId, product: { url: "https://plans.example.com/share/1", title: "S" } } });
    expect((await api.put(`/hosted/lists/${token}`, { token: owner.accessToken, body: { share_public: true } })).status).toBe(200);
    const statements = await statementsOf(async () => {
      const res = await fetch(`${server.url}/en/list/${token}`);
      return { status: res.status, text: await res.text() };
    });
    const touched = await expectByIndex(statements, ["ListItem", "Wishlist", "User", "Occasion", "Product", "ProductLocalization", "Partner", "PlatformShop", "UsageCounter", "UsageDay", "UsageDedup"]);
    // The shop lookup behind the items' references (by domain or primary domain) is among them.
    expect(touched.some((s) => s.includes(`"PlatformShop"`)), touched.join("\n")).toBe(true);
    // The page's view beacon: the list read and the list_view metering, by index too.
    const beacon = await statementsOf(async () => {
      const res = await fetch(`${server.url}/en/list/${token}/view`, { method: "POST", headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36" } });
      return { status: res.status, text: await res.text() };
    }, 204);
    await expectByIndex(beacon, ["Wishlist", "ListItem", "Partner", "UsageCounter", "UsageDay", "UsageDedup"]);
  });
});

describe("the heart state reads the shopper's items by index", () => {
  it("GET /widget/saved-products: by index, and as many statements with 1 saved item as with 4", async () => {
    const { provisioner } = await import("../support/provision.ts");
    const p = await provisioner(server);
    const partner = await p.partner("free");
    const key = await p.key(partner.id);
    const origin = "https://hearts-shop.example.com";
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
    expect(init.status, init.text).toBe(200);
    const user = await api.anonymousUser();
    const wishlistId = (await api.post("/hosted/me/init", { token: user.accessToken })).body.list.db_id as number;
    const headers = { "x-widget-token": init.body.token, origin };
    const saveProduct = async (n: number) => {
      const saved = await api.post("/widget/save", {
        token: user.accessToken,
        headers,
        body: { wishlistId, product: { url: `${origin}/p/${n}`, title: `Heart ${n}`, price: 100, currency: "EUR", marketCode: "de-DE" } },
      });
      expect(saved.status, saved.text).toBe(200);
    };
    let count = 0;
    const read = () =>
      statementsOf(async () => {
        const res = await api.get("/widget/saved-products", { token: user.accessToken, headers });
        count = res.body?.products?.length ?? -1;
        return res;
      });
    await saveProduct(0);
    await read(); // the item-reference signing key is made on the first read
    const one = await read();
    expect(count).toBe(1);
    for (let n = 1; n < 4; n++) await saveProduct(n);
    const four = await read();
    expect(count).toBe(4);
    // One query per table, whatever the number of items (no statement per item).
    expect(four.length, four.join("\n")).toBe(one.length);
    await expectByIndex(four, ["ListItem", "Wishlist", "Product", "ProductLocalization"]);
  });
});

describe("init and the user read search by key", () => {
  it("POST /widget/init (configuration cached) reads the month's counter by its key; GET /auth/user the user by id", async () => {
    const { provisioner } = await import("../support/provision.ts");
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
