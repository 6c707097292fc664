// A PostgreSQL restart or failover under load (docs/operations.md "Through a
// PostgreSQL restart or failover"): two instances of two workers each save
// without pause while their PostgreSQL (a server of this test's own) is
// restarted and then has every session terminated. No worker exits, every
// request is answered (200, or 503 with Retry-After while the database is
// away), every acknowledged save is stored, and saves go through again once
// the database is back. Runs once, in the SQLite half of the suite (its
// database is its own either way).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor } from "../support/api.ts";
import { startOwnPostgres, type OwnPostgres } from "../support/own-postgres.ts";
import { provisioner } from "../support/provision.ts";
import { freePort, isAlive, logLines, startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

let database: OwnPostgres;
let databaseUrl: string;
let page: Server;
let pagePort: number;
const instances: TestServer[] = [];

beforeAll(async () => {
  database = await startOwnPostgres();
  databaseUrl = await database.createDatabase("wish");
  pagePort = await freePort();
  page = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<title>Page</title>"));
  await new Promise<void>((r) => page.listen(pagePort, "127.0.0.1", r));
  const env = {
    DATABASE_URL: databaseUrl,
    FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${pagePort}`,
    SAVES_PER_USER: "100000",
    SAVES_PER_ADDRESS: "100000",
  };
  // One after the other: the first applies the migrations.
  for (let i = 0; i < 2; i++) instances.push(await startServer(env, { workers: 2 }));
}, 120_000);

afterAll(async () => {
  for (const s of instances) await s.stop();
  await new Promise((r) => page?.close(r));
  await database?.stop();
});

interface Outcome {
  status: number | "reset";
  retryAfter: string | null;
  itemId?: number;
}

/** A shopper on one instance saving new products in a loop until `stop()`. */
async function saver(server: TestServer, outcomes: Outcome[]) {
  const instance = instances.indexOf(server);
  const api = await apiFor(server);
  const p = await provisioner(server);
  const key = await p.key((await p.partner("growth")).id);
  const origin = "https://failover.example.com";
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin } });
  const user = await api.anonymousUser();
  const list = await api.post("/hosted/me/init", { token: user.accessToken });
  let running = true;
  let n = 0;
  const loop = async (lane: number) => {
    while (running) {
      const i = n++;
      const product = { url: `http://127.0.0.1:${pagePort}/products/${instance}-${lane}-${i}`, title: `Item ${i}`, price: 1000 + i, currency: "EUR" };
      try {
        const res = await api.post("/widget/save", {
          token: user.accessToken,
          headers: { "x-widget-token": init.body.token, origin },
          body: { wishlistId: list.body.list.db_id, product },
        });
        outcomes.push({ status: res.status, retryAfter: res.headers.get("retry-after"), itemId: res.status === 200 ? res.body.item_id : undefined });
      } catch {
        outcomes.push({ status: "reset", retryAfter: null });
      }
    }
  };
  const lanes = Promise.all(Array.from({ length: 5 }, (_, lane) => loop(lane)));
  return async () => {
    running = false;
    await lanes;
  };
}

describe("PostgreSQL restarted and its sessions terminated under saves", () => {
  it("no worker exits, every request is answered 200 or 503 with Retry-After, every acknowledged save is stored", async () => {
    const outcomes: Outcome[] = [];
    const stops = await Promise.all(instances.map((s) => saver(s, outcomes)));
    const saved = () => outcomes.filter((o) => o.status === 200).length;
    const moreSaves = async (count: number) => {
      const target = saved() + count;
      await expect.poll(saved, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(target);
    };

    await moreSaves(20);
    await database.restart();
    await moreSaves(20);
    expect(await database.terminateSessions("wish")).toBeGreaterThan(0);
    await moreSaves(20);
    await Promise.all(stops.map((stop) => stop()));

    const byStatus = outcomes.reduce<Record<string, number>>((acc, o) => ((acc[String(o.status)] = (acc[String(o.status)] ?? 0) + 1), acc), {});
    expect(Object.keys(byStatus).filter((s) => s !== "200" && s !== "503"), JSON.stringify(byStatus)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 503 && !o.retryAfter)).toEqual([]);
    for (const server of instances) {
      expect(logLines(server, "worker died, restarting"), server.url).toEqual([]);
      expect(isAlive(server.pid)).toBe(true);
    }
    const ids = outcomes.flatMap((o) => (o.itemId ? [o.itemId] : []));
    const stored = await sql<{ id: number }>(databaseUrl, `SELECT "id" FROM "ListItem" WHERE "id" = ANY(?)`, [ids]);
    expect(stored.length).toBe(ids.length);
  }, 180_000);
});
