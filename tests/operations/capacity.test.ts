// Capacity you can plan: a bound on the requests one worker answers at once
// (past it a fast 503 service_unavailable with Retry-After, while /health and
// the share pages keep answering and /health reports the saturation), and on
// PostgreSQL one connection budget for the instance (DATABASE_POOL_SIZE,
// divided among the workers) that also holds behind PgBouncer in transaction
// mode (DATABASE_DIRECT_URL for the change listener and the migrations).
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { freshDatabaseUrl, kind } from "../support/database.ts";
import { freePort, startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { pause, until } from "../support/wait.ts";
import pg from "pg";
import { sharedList, type SharedList } from "../support/shared-list.ts";

const BOUND = 4;

describe("a bound on requests in flight per worker", () => {
  let shop: http.Server;
  let S: string;
  /** Requests the shop holds unanswered, by product (the scraper may ask for the page and its `.js`). */
  const held = new Map<string, http.ServerResponse[]>();
  let server: TestServer;
  let api: Api;
  let list: SharedList;

  beforeAll(async () => {
    shop = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? "/", "http://x").pathname;
      const product = /^\/products\/(held-\d+)/.exec(pathname)?.[1];
      if (product) return void held.set(product, [...(held.get(product) ?? []), res]);
      res.writeHead(404, { "content-type": "text/html" }).end("not found");
    });
    await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", () => resolve()));
    const port = (shop.address() as AddressInfo).port;
    S = `http://127.0.0.1:${port}`;
    server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${port}`, MAX_REQUESTS_IN_FLIGHT: String(BOUND) });
    api = await apiFor(server);
    list = await sharedList(api, server.databaseUrl, { name: "Birthday", ownerName: "Anna", products: [{ title: "Board game", price: 3999, currency: "EUR" }] });
  });

  afterAll(async () => {
    for (const res of [...held.values()].flat()) res.destroy();
    await server?.stop();
    shop?.closeAllConnections();
    await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
  });

  /** A save whose product page (no title given, so the server reads it) the shop holds. */
  const heldSave = (i: number) =>
    api.post("/hosted/save", { token: list.owner.accessToken, body: { wishlistId: list.dbId, product: { url: `${S}/products/held-${i}` } } });
  const health = async () => {
    const res = await fetch(`${server.baseUrl}/health`);
    return { status: res.status, body: await res.json() };
  };

  // On PostgreSQL the pool's queue is reported too (empty: no wait).
  const idleQueue = kind === "postgresql" ? { database_waiting: 0, database_wait_ms: 0, max_database_wait_ms: 1000 } : {};

  it("reports capacity in /health while idle", async () => {
    expect(await health()).toEqual({
      status: 200,
      body: {
        status: "ok",
        checks: { database: "ok", capacity: "ok" },
        latency_ms: expect.any(Number),
        capacity: { in_flight: 0, max_in_flight: BOUND, shed: 0, ...idleQueue },
      },
    });
  });

  it("past the bound: 503 service_unavailable with Retry-After at once; /health and the share page answer and report it", async () => {
    const saves = Array.from({ length: BOUND }, (_, i) => heldSave(i));
    // Every save is in flight, waiting for its product page.
    await expect.poll(() => held.size, { timeout: 10_000 }).toBe(BOUND);

    const refused = await api.get("/");
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: "service_unavailable", message: expect.any(String) });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another save too, and a page served by Remix.
    const save = await heldSave(BOUND);
    expect(save.status).toBe(503);
    expect(save.body).toMatchObject({ error: "service_unavailable" });
    const page = await fetch(`${server.url}/auth/login`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).not.toBeNull();
    expect(held.size).toBe(BOUND); // the refused save never reached the shop

    expect(await health()).toMatchObject({
      status: 200,
      body: { status: "ok", checks: { database: "ok", capacity: "saturated" }, capacity: { in_flight: BOUND, max_in_flight: BOUND, shed: 3 } },
    });
    const share = await fetch(`${server.url}/en/list/${list.token}`);
    expect(share.status).toBe(200);
    expect(await share.text()).toContain("Board game");

    // The shop answers (a page that is gone still saves the URL): the saves complete, and requests are admitted again.
    for (const res of [...held.values()].flat()) res.writeHead(404, { "content-type": "text/html" }).end("not found");
    for (const res of await Promise.all(saves)) expect(res.status).toBe(200);
    expect((await api.get("/")).status).toBe(200);
    expect((await health()).body.capacity).toEqual({ in_flight: 0, max_in_flight: BOUND, shed: 3, ...idleQueue });
    expect(server.output()).toContain('"msg":"requests shed"');
  });
});

// Connection counts and poolers exist on PostgreSQL only (SQLite is one file connection per process).
if (kind === "postgresql") {
  /** Connections to `databaseUrl`'s database, but the one asking. */
  const connections = async (databaseUrl: string) =>
    Number(
      (await sql<{ n: number }>(databaseUrl, `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`))[0]!
        .n,
    );

  /** `n` requests at once that each use the database (saves of known URLs, public list reads, sign-ups). */
  const burst = (api: Api, list: SharedList, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        i % 3 === 0
          ? api.post("/hosted/save", {
              token: list.owner.accessToken,
              body: { wishlistId: list.dbId, product: { url: `https://shop.example.com/products/burst-${i}-${Math.random()}`, title: `Item ${i}` } },
            })
          : i % 3 === 1
            ? api.get(`/hosted/public/lists/${list.token}/items`)
            : api.post("/auth/signup", { body: {} }),
      ),
    );

  describe("one connection budget per instance (PostgreSQL)", () => {
    let server: TestServer;
    afterAll(() => server?.stop());

    it("two workers with DATABASE_POOL_SIZE=6 never hold more than 6 connections, listeners included", async () => {
      // One pooled connection per worker and 60 requests at once: a wait the default bound would shed; this counts connections only.
      server = await startServer({ DATABASE_POOL_SIZE: "6", DATABASE_QUEUE_WAIT_MS: "600000" }, { workers: 2 });
      const api = await apiFor(server);
      const list = await sharedList(api, server.databaseUrl, { name: "Budget", ownerName: "Ben", products: [{ title: "Lamp" }] });
      let peak = 0;
      let loading = true;
      const sampling = (async () => {
        while (loading) {
          peak = Math.max(peak, await connections(server.databaseUrl));
          await pause(20, "the pace of the connection-count samples");
        }
      })();
      for (let round = 0; round < 3; round++) {
        const answers = await burst(api, list, 60);
        for (const res of answers) expect(res.status, res.text).toBe(200);
      }
      loading = false;
      await sampling;
      peak = Math.max(peak, await connections(server.databaseUrl));
      // Both workers listen (one connection each), and their pools were used.
      expect(peak).toBeGreaterThanOrEqual(4);
      expect(peak).toBeLessThanOrEqual(6);
    });

    it("a budget too small for the workers stops the start, naming the variable", async () => {
      const started = await startServer({ DATABASE_POOL_SIZE: "5" }, { workers: 2 }).catch((err: Error) => err);
      if (!(started instanceof Error)) await started.stop();
      expect(started).toBeInstanceOf(Error);
      expect((started as Error).message).toMatch(/DATABASE_POOL_SIZE: must allow 3 connections per worker/);
    });

    it("/health says the database is up while every pooled connection is busy: it has a connection of its own", async () => {
      // One worker with a pool of two; a test connection locks the lists, so list reads hold both pooled connections (and queue).
      const busy = await startServer({ DATABASE_POOL_SIZE: "4", DATABASE_CONNECT_TIMEOUT_MS: "8000" });
      try {
        const api = await apiFor(busy);
        const list = await sharedList(api, busy.databaseUrl, { name: "Busy", ownerName: "Bo", products: [{ title: "Lamp" }] });
        const lock = new pg.Client({ connectionString: busy.databaseUrl });
        await lock.connect();
        await lock.query(`BEGIN; LOCK TABLE "Wishlist" IN ACCESS EXCLUSIVE MODE`);
        const reads = Promise.all(Array.from({ length: 6 }, () => api.get(`/hosted/public/lists/${list.token}/items`)));
        await until(
          "both pooled connections wait on the lock",
          async () => Number((await sql<{ n: number }>(busy.databaseUrl, `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0]!.n),
          (n) => n >= 2,
        );
        const health = await fetch(`${busy.baseUrl}/health`);
        const body = await health.json();
        await lock.query("ROLLBACK");
        await lock.end();
        expect({ status: health.status, database: body.checks?.database }).toEqual({ status: 200, database: "ok" });
        for (const res of await reads) expect(res.status, res.text).toBe(200);
      } finally {
        await busy.stop();
      }
    });
    it("while the pool's queue would keep a request waiting past DATABASE_QUEUE_WAIT_MS, new ones get 503 with Retry-After at once, before they take a place; /health says the database is up; the waiting ones finish", async () => {
      // One worker with a pool of two; polls out of the way so only the reads queue.
      const quiet = { OUTBOX_POLL_MS: "600000", REVOCATION_POLL_MS: "600000", REQUEST_COUNTER_FLUSH_MS: "600000" };
      const busy = await startServer({ ...quiet, DATABASE_POOL_SIZE: "4", DATABASE_QUEUE_WAIT_MS: "300", DATABASE_CONNECT_TIMEOUT_MS: "30000" });
      try {
        const api = await apiFor(busy);
        const list = await sharedList(api, busy.databaseUrl, { name: "Queue", ownerName: "Quinn", products: [{ title: "Lamp" }] });
        const read = () => api.get(`/hosted/public/lists/${list.token}/items`);
        const capacity = async () => (await (await fetch(`${busy.baseUrl}/health`)).json()).capacity as Record<string, number>;
        const lock = new pg.Client({ connectionString: busy.databaseUrl });
        await lock.connect();
        await lock.query(`BEGIN; LOCK TABLE "Wishlist" IN ACCESS EXCLUSIVE MODE`);
        const holding = [read(), read()];
        await until(
          "both pooled connections wait on the lock",
          async () => Number((await sql<{ n: number }>(busy.databaseUrl, `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0]!.n),
          (n) => n >= 2,
        );
        const waiting = [read(), read(), read()];
        // Both connections held for longer than the bound, three waiting: a newcomer would wait too long.
        const full = await until("the wait past the bound", capacity, (c) => c.database_waiting === 3 && c.database_wait_ms > 300);
        expect(full.max_database_wait_ms).toBe(300);
        // These are refused at once (they would have waited up to 30 s), and never counted in flight.
        const shed = await Promise.all(Array.from({ length: 4 }, read));
        for (const res of shed) {
          expect(res.status).toBe(503);
          expect(res.body).toMatchObject({ error: "service_unavailable" });
          expect(res.headers.get("retry-after")).toBe("1");
        }
        const health = await fetch(`${busy.baseUrl}/health`);
        const body = await health.json();
        expect({ status: health.status, database: body.checks.database, capacity: body.checks.capacity }).toEqual({ status: 200, database: "ok", capacity: "saturated" });
        expect(body.capacity).toMatchObject({ in_flight: 5, database_waiting: 3, shed: 4 });
        await lock.query("ROLLBACK");
        await lock.end();
        for (const res of await Promise.all([...holding, ...waiting])) expect(res.status, res.text).toBe(200);
        // Admitted again once the queue drains; a queue of quick reads is no reason to shed.
        expect((await read()).status).toBe(200);
        const quick = await Promise.all(Array.from({ length: 20 }, read));
        expect(quick.map((res) => res.status)).toEqual(Array(20).fill(200));
      } finally {
        await busy.stop();
      }
    });
  });

  describe("behind PgBouncer in transaction mode (PostgreSQL)", () => {
    let pgbouncer: ChildProcess;
    let pooledUrl: string;
    let directUrl: string;
    const servers: TestServer[] = [];
    let pgbouncerLog = "";

    beforeAll(async () => {
      directUrl = await freshDatabaseUrl();
      const port = await freePort();
      const dir = mkdtempSync(path.join(tmpdir(), "wish-pgbouncer-"));
      chmodSync(dir, 0o777); // pgbouncer drops root for the postgres user (-u)
      const target = new URL(directUrl);
      const config = path.join(dir, "pgbouncer.ini");
      writeFileSync(
        config,
        [
          "[databases]",
          `* = host=${target.hostname} port=${target.port || 5432} user=${decodeURIComponent(target.username) || "postgres"}`,
          "[pgbouncer]",
          "listen_addr = 127.0.0.1",
          `listen_port = ${port}`,
          "unix_socket_dir =",
          "auth_type = any",
          "pool_mode = transaction",
          // node-postgres sends statement_timeout as a startup parameter, which PgBouncer refuses otherwise.
          "ignore_startup_parameters = statement_timeout",
          "default_pool_size = 5",
          "max_client_conn = 200",
        ].join("\n"),
      );
      const asRoot = process.getuid?.() === 0;
      pgbouncer = spawn("pgbouncer", [...(asRoot ? ["-u", "postgres"] : []), config], { stdio: ["ignore", "pipe", "pipe"] });
      pgbouncer.stdout!.on("data", (d) => (pgbouncerLog += d));
      pgbouncer.stderr!.on("data", (d) => (pgbouncerLog += d));
      const spawned = new Promise<void>((resolve, reject) => {
        pgbouncer.once("error", (err) => reject(new Error(`pgbouncer could not start (apt-get install pgbouncer): ${err.message}`)));
        pgbouncer.once("spawn", () => resolve());
      });
      await spawned;
      await until("pgbouncer up", () => pgbouncerLog, (log) => log.includes("process up") || pgbouncer.exitCode !== null, { timeoutMs: 10_000 });
      if (pgbouncer.exitCode !== null) throw new Error(`pgbouncer did not start:\n${pgbouncerLog}`);
      const pooled = new URL(directUrl);
      pooled.port = String(port);
      pooledUrl = pooled.toString();
      for (let i = 0; i < 2; i++) {
        servers.push(
          await startServer({
            DATABASE_URL: pooledUrl,
            DATABASE_DIRECT_URL: directUrl,
            DATABASE_PREPARED_STATEMENTS: "false",
            // One deployment: tokens one instance issues are valid on the other.
            APP_URL: "http://wishlist.test",
            // Only the change signals (LISTEN on the direct URL) can carry a logout to the other instance in time.
            REVOCATION_POLL_MS: "600000",
            CONFIG_CACHE_TTL_MS: "600000",
          }),
        );
      }
    });

    afterAll(async () => {
      for (const server of servers) await server.stop();
      pgbouncer?.kill("SIGTERM");
    });

    it("saves, lists and sign-in sessions work through the pooler, and a logout reaches the other instance by its change signal", async () => {
      const [a, b] = await Promise.all(servers.map((s) => apiFor({ ...s, databaseUrl: directUrl })));
      const list = await sharedList(a!, directUrl, { name: "Pooled", ownerName: "Cleo", products: [{ title: "Teapot", price: 2500, currency: "EUR" }] });
      for (let round = 0; round < 2; round++) {
        for (const res of await burst(a!, list, 30)) expect(res.status, res.text).toBe(200);
        for (const res of await burst(b!, list, 30)) expect(res.status, res.text).toBe(200);
      }
      const items = await b!.get(`/hosted/public/lists/${list.token}/items`);
      expect(items.status).toBe(200);
      expect(JSON.stringify(items.body)).toContain("Teapot");

      // Sessions: sign in, refresh, read, log out; every step may land on another server connection.
      const user = await a!.anonymousUser();
      const refreshed = await b!.post("/auth/token?grant_type=refresh_token", { body: { refresh_token: user.refreshToken } });
      expect(refreshed.status).toBe(200);
      const token = refreshed.body.access_token as string;
      for (const api of [a!, b!]) expect((await api.get("/auth/user", { token })).status).toBe(200);
      expect((await a!.post("/auth/logout", { token })).status).toBe(204);
      // Within moments, not at the ten-minute poll: only the signal, heard on the direct URL, can carry it.
      // (The notification travels beside the HTTP answer, so the very next request can still beat it.)
      await expect.poll(async () => (await b!.get("/auth/user", { token })).status, { timeout: 2000, interval: 20 }).toBe(401);

      // Each instance listens on the direct URL (LISTEN through the pooler would hear nothing).
      const listening = await sql<{ n: number }>(
        directUrl,
        `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN wish_changes'`,
      );
      expect(Number(listening[0]!.n)).toBe(2);
      for (const server of servers) expect(server.output()).not.toMatch(/prepared statement|unsupported startup parameter|"level":"error"/);
    });
  });
}
