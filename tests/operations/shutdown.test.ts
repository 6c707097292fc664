// Stopping and restarting the server's processes (app/server/main.ts,
// app/server/cluster.ts) without losing requests: SIGTERM lets requests in
// flight finish with their real answer while new connections are refused,
// and a restarted worker gets its share of keep-alive clients' requests
// because connections are recycled after HTTP_MAX_REQUESTS_PER_CONNECTION.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor } from "../support/api.ts";
import { freePort, startServer, type TestServer, logLines, isAlive } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { until } from "../support/wait.ts";

// A shop whose product pages answer only when the test says so: a save that
// scrapes one is held mid-flight, for as long as the test needs, not by luck.
let shop: http.Server;
let shopPort: number;
const held: http.ServerResponse[] = [];
const release = () => {
  for (const res of held.splice(0)) {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><head><title>Held product</title></head><body></body></html>`);
  }
};

beforeAll(async () => {
  shopPort = await freePort();
  shop = http.createServer((_req, res) => void held.push(res));
  await new Promise<void>((r) => shop.listen(shopPort, "127.0.0.1", r));
});
afterAll(async () => {
  release();
  shop.closeAllConnections();
  await new Promise((r) => shop.close(r));
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; agent?: http.Agent | false }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers, agent: opts.agent }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** Resolves with the error code of a fresh TCP connection to the server ("connected" when it was accepted). */
function connectOutcome(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe.each([1, 2])("SIGTERM with WEB_CONCURRENCY=%i", (workers) => {
  let server: TestServer;
  afterAll(async () => {
    release();
    await server?.stop();
  });

  it("lets the saves in flight finish with their real answer, closes idle keep-alive connections and refuses new ones", async () => {
    server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${shopPort}`, SAVES_PER_USER: "1000", SAVES_PER_ADDRESS: "1000" }, { workers });
    const api = await apiFor(server);
    const user = await api.anonymousUser();
    const list = await api.post("/hosted/me/init", { token: user.accessToken });
    const wishlistId = list.body.list.db_id as number;

    // A keep-alive client that is idle at SIGTERM: its connection is closed at once, not kept until the process exits.
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(`${server.baseUrl}/health`, { agent: idleAgent })).status).toBe(200);
    const [idleSocket] = Object.values(idleAgent.freeSockets).flat();
    expect(idleSocket).toBeDefined();
    const idleClosed = new Promise<void>((r) => idleSocket!.once("close", () => r()));

    // Saves of URL-only products: each scrapes its page from the held shop, so it is in flight until release().
    const saving = 6;
    const agent = new http.Agent({ keepAlive: true });
    const saves = Array.from({ length: saving }, (_, i) =>
      request(`${server.baseUrl}/hosted/save`, {
        method: "POST",
        agent,
        headers: { apikey: api.anonKey, authorization: `Bearer ${user.accessToken}`, "content-type": "application/json" },
        body: JSON.stringify({ wishlistId, product: { url: `http://127.0.0.1:${shopPort}/item/${workers}-${i}` } }),
      }).then(
        (answer) => answer,
        (err: Error) => ({ status: 0, headers: {}, body: err.message }) as Answer,
      ),
    );
    await expect.poll(() => held.length).toBe(saving);

    process.kill(server.pid, "SIGTERM");
    await idleClosed;
    // New connections are refused while the saves are still held.
    await expect.poll(() => connectOutcome(server.url)).toBe("ECONNREFUSED");
    expect(held.length).toBe(saving);
    expect(isAlive(server.pid)).toBe(true);

    release();
    const answers = await Promise.all(saves);
    const answered = answers.filter((a) => a.status === 200).length;
    console.log(`WEB_CONCURRENCY=${workers}: ${answered} of ${saving} saves in flight at SIGTERM answered 200`);
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ ok: true, item_id: expect.any(Number), product_id: expect.any(Number) });
      // The client is told not to reuse the connection of a server that is stopping.
      expect(answer.headers.connection).toBe("close");
    }
    expect(await server.exited).toBe(0);

    // Each answered save is in the database, once.
    const itemIds = answers.map((a) => JSON.parse(a.body).item_id as number).sort((a, b) => a - b);
    const rows = await sql<{ id: number }>(server.databaseUrl, `SELECT "id" FROM "ListItem" WHERE "wishlistId" = ? ORDER BY "id"`, [wishlistId]);
    expect(rows.map((r) => Number(r.id))).toEqual(itemIds);
    expect(logLines(server, "requests drained").length).toBe(workers);
    expect([...logLines(server, "background jobs did not stop cleanly"), ...logLines(server, "database did not close cleanly")]).toEqual([]);
  }, 60_000);
});

describe("the grace period", () => {
  let server: TestServer;
  afterAll(async () => {
    release();
    await server?.stop();
  });

  it("bounds the wait: a request still unanswered after SHUTDOWN_GRACE_MS has its connection cut, and the process exits", async () => {
    server = await startServer({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${shopPort}`, SHUTDOWN_GRACE_MS: "300" });
    const api = await apiFor(server);
    const user = await api.anonymousUser();
    const list = await api.post("/hosted/me/init", { token: user.accessToken });
    const save = request(`${server.baseUrl}/hosted/save`, {
      method: "POST",
      headers: { apikey: api.anonKey, authorization: `Bearer ${user.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ wishlistId: list.body.list.db_id, product: { url: `http://127.0.0.1:${shopPort}/item/never` } }),
    }).then(
      (answer) => `answered ${answer.status}`,
      (err: NodeJS.ErrnoException) => err.code ?? err.message,
    );
    await expect.poll(() => held.length).toBe(1);
    process.kill(server.pid, "SIGTERM");
    expect(await save).toBe("ECONNRESET");
    expect(await server.exited).toBe(0);
    expect(logLines(server, "requests drained")).toEqual([expect.objectContaining({ level: "warn", cut: 1, grace_ms: 300 })]);
  });

  it("SHUTDOWN_GRACE_MS and HTTP_MAX_REQUESTS_PER_CONNECTION have documented defaults and are validated", async () => {
    const { parseEnv } = await import("~/env.server");
    expect(parseEnv({})).toMatchObject({ SHUTDOWN_GRACE_MS: 15_000, HTTP_MAX_REQUESTS_PER_CONNECTION: 100 });
    expect(parseEnv({ HTTP_MAX_REQUESTS_PER_CONNECTION: "0" }).HTTP_MAX_REQUESTS_PER_CONNECTION).toBe(0);
    expect(() => parseEnv({ SHUTDOWN_GRACE_MS: "-1" })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(() => parseEnv({ SHUTDOWN_GRACE_MS: "soon" })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(() => parseEnv({ HTTP_MAX_REQUESTS_PER_CONNECTION: "-5" })).toThrow(/HTTP_MAX_REQUESTS_PER_CONNECTION/);
  });
});

describe("keep-alive connections", () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  it("are closed after HTTP_MAX_REQUESTS_PER_CONNECTION requests (100): that answer says Connection: close, every request is answered", async () => {
    server = await startServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const closing: number[] = [];
    for (let i = 1; i <= 250; i++) {
      const answer = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = http.get(`${server.baseUrl}/health`, { agent }, (res) => {
          sockets.add(res.socket);
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on("error", reject);
      });
      expect(answer.status).toBe(200);
      if (answer.connection === "close") closing.push(i);
    }
    expect(closing).toEqual([100, 200]);
    expect(sockets.size).toBe(3);
    agent.destroy();
  });
});

describe("a restarted worker", () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  it("gets its share of requests from keep-alive clients that never go idle, within the connection bound", async () => {
    server = await startServer({}, { workers: 2 });
    const workerPids = () => new Set(logLines(server, "worker listening").map((l) => l.pid as number));
    const [killed, survivor] = [...workerPids()];
    const clients = 8;
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    const health = `${server.baseUrl}/health`;
    /** `count` requests from each of the clients, back to back over the agent's pool. */
    const drive = (count: number) =>
      Promise.all(
        Array.from({ length: clients }, async () => {
          for (let i = 0; i < count; i++) expect((await request(health, { agent })).status).toBe(200);
        }),
      );

    process.kill(killed!, "SIGKILL");
    await expect.poll(() => logLines(server, "worker died, restarting").length).toBe(1);
    // While the replacement loads, the clients' connections all go to the survivor, and stay open.
    await drive(1);
    const opened = Object.values(agent.sockets).flat().length + Object.values(agent.freeSockets).flat().length;
    expect(opened).toBe(clients);
    await expect.poll(() => workerPids().size, { timeout: 45_000 }).toBe(3);
    const replacement = [...workerPids()].find((pid) => pid !== killed && pid !== survivor)!;
    const healthLines = () => logLines(server, "request").filter((l) => l.path === "/api/v1/health");
    await expect.poll(() => healthLines().length).toBe(clients);
    const before = healthLines();
    // Precondition: the pool was opened before the replacement listened, so on the survivor.
    expect(before.every((l) => l.pid === survivor)).toBe(true);

    // Three times the default bound per client: connections are recycled and new ones spread over both workers.
    const perClient = 300;
    await drive(perClient);
    const served = await until("every request logged", () => healthLines().slice(before.length), (lines) => lines.length >= clients * perClient);
    const share = served.filter((l) => l.pid === replacement).length / served.length;
    console.log(`restarted worker's share of ${served.length} keep-alive requests: ${(share * 100).toFixed(1)} %`);
    expect(share).toBeGreaterThan(0.1);
    agent.destroy();
  }, 90_000);
});
