// `kill -9` in the middle of saves leaves whole saves or
// none. The save is one transaction (product, catalogue facts, usage count,
// item, list timestamp), so after a crash the usage count equals the items
// saved, no product is left without an item, and every item has a title; a
// product left untitled by older data is scraped again on its next save.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor } from "../support/api.ts";
import { freePort, startServer, type TestServer } from "../support/server.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let page: Server;
let pagePort: number;
const servers: TestServer[] = [];

beforeAll(async () => {
  pagePort = await freePort();
  page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><head><title>Page Title</title></head><body></body></html>`);
  });
  await new Promise<void>((r) => page.listen(pagePort, "127.0.0.1", r));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await new Promise((r) => page?.close(r));
});

const start = async (databaseUrl?: string) => {
  // One shopper saves many products here: lift the per-saver and per-address bounds so every save is an action.
  const server = await startServer({
    FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${pagePort}`,
    SAVES_PER_USER: "100000",
    SAVES_PER_ADDRESS: "100000",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  servers.push(server);
  return server;
};

describe("kill -9 during saves", () => {
  it("leaves whole saves or none: usage == items, no orphan product, every item titled", async () => {
    const first = await start();
    const api = await apiFor(first);
    const p = await provisioner(first);
    const partner = await p.partner("growth");
    const key = await p.key(partner.id);
    const origin = "https://shop.example.com";
    const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
    const user = await api.anonymousUser();
    const list = await api.post("/hosted/me/init", { token: user.accessToken });
    const wishlistId = list.body.list.db_id as number;

    let n = 0;
    let ok = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const i = n++;
        // Every third save is URL-only, so the page is scraped in the middle of the loop.
        const product = i % 3 === 0 ? { url: `http://127.0.0.1:${pagePort}/products/p${i}` } : { url: `http://127.0.0.1:${pagePort}/products/p${i}`, title: `Item ${i}`, price: 100 + i, currency: "EUR" };
        try {
          const res = await api.post("/widget/save", {
            token: user.accessToken,
            headers: { "x-widget-token": init.body.token, origin },
            body: { wishlistId, product },
          });
          if (res.status === 200) ok++;
        } catch {
          return; // the server died under us
        }
      }
    };
    const loop = Promise.all(Array.from({ length: 8 }, worker));
    await expect.poll(() => ok, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(40);
    await first.kill("SIGKILL");
    stop = true;
    await loop;

    const second = await start(first.databaseUrl);
    const db = second.databaseUrl;
    const [usage] = await sql<{ saves: number }>(db, `SELECT saves FROM "UsageCounter" WHERE "partnerId" = ?`, [partner.id]);
    const [items] = await sql<{ n: number }>(db, `SELECT COUNT(*) AS n FROM "ListItem" WHERE "wishlistId" = ?`, [wishlistId]);
    expect(Number(items.n)).toBeGreaterThanOrEqual(ok);
    expect(Number(usage.saves)).toBe(Number(items.n));
    const [orphans] = await sql<{ n: number }>(
      db,
      `SELECT COUNT(*) AS n FROM "Product" p WHERE NOT EXISTS (SELECT 1 FROM "ListItem" i WHERE i."productId" = p."id")`,
    );
    expect(Number(orphans.n)).toBe(0);
    const api2 = await apiFor(second);
    // Tokens name their issuer (APP_URL, another port here): sign in again on the new instance.
    const session = await api2.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: user.refreshToken } });
    const read = await api2.get(`/hosted/lists/${list.body.list.id}/items`, { token: session.body.access_token });
    expect(read.status, read.text).toBe(200);
    const shown = read.body.products as Array<{ title: string }>;
    expect(shown.length).toBe(Number(items.n));
    expect(shown.filter((item) => !item.title)).toEqual([]);
  });

  it("a URL-only save of a product without a titled catalogue entry scrapes the page again", async () => {
    const server = await start();
    const api = await apiFor(server);
    const user = await api.anonymousUser();
    const list = await api.post("/hosted/me/init", { token: user.accessToken });
    const url = `http://127.0.0.1:${pagePort}/products/healed`;
    const saved = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: list.body.list.db_id, product: { url } } });
    expect(saved.status).toBe(200);
    // What an interrupted save of older code left behind: the product without its localization.
    await sql(server.databaseUrl, `DELETE FROM "ProductLocalization" WHERE "productId" = ?`, [saved.body.product_id]);
    const again = await api.post("/hosted/save", { token: user.accessToken, body: { wishlistId: list.body.list.db_id, product: { url } } });
    expect(again.status).toBe(200);
    const rows = await sql<{ title: string }>(server.databaseUrl, `SELECT title FROM "ProductLocalization" WHERE "productId" = ?`, [saved.body.product_id]);
    expect(rows.map((r) => r.title)).toEqual(["Page Title"]);
  });
});
