// Per-key request counting behind the X-RateLimit-* / X-Usage-* headers:
// no database write per request, correct across instances (SPEC 8.3).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";
import { pause, until } from "../support/wait.ts";

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function widgetSetup(server: TestServer, api: Api) {
  const p = await provisioner(server);
  const partner = await p.partner("starter");
  const key = await p.key(partner.id);
  const init = await api.post("/widget/init", { headers: { authorization: `Bearer ${key.key}` }, body: { origin: "https://count.example.com" } });
  expect(init.status, init.text).toBe(200);
  const user = await api.anonymousUser();
  return { key, token: init.body.token as string, user };
}

const rows = (databaseUrl: string, keyId: number) =>
  sql<{ window: string; count: number }>(databaseUrl, `SELECT "window", count FROM "ApiKeyRequestCounter" WHERE "apiKeyId" = ? ORDER BY "window"`, [keyId]);

const monthCount = async (databaseUrl: string, keyId: number) =>
  Number((await rows(databaseUrl, keyId)).find((r) => !r.window.includes("T"))?.count ?? 0);

/** The key id inside a widget token (its subject is `key:<id>`). */
const widgetKeyOf = async (token: string) => ({ key: Number(JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).api_key_id) });

/** A POST on a fresh connection, so a cluster's primary hands consecutive requests to different workers. */
function postFresh(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("request counting", () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await freshDatabaseUrl();
  });

  it("writes nothing per request; the counts reach the database in one batch (here: at shutdown)", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, REQUEST_COUNTER_FLUSH_MS: "600000" });
    servers.push(server);
    const api = await apiFor(server);
    const { key, token, user } = await widgetSetup(server, api);
    let last: Response | undefined;
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${server.baseUrl}/widget/lists`, {
        method: "POST",
        headers: { apikey: api.anonKey, authorization: `Bearer ${user.accessToken}`, "x-widget-token": token },
      });
      expect(res.status).toBe(200);
      last = res;
    }
    expect(last!.headers.get("x-usage-month")).toBe("26"); // init + 25
    expect(await rows(databaseUrl, key.id)).toEqual([]);
    await server.stop();
    const written = await rows(databaseUrl, key.id);
    // This month's row, and this minute's (two minute rows when the requests straddled a clock minute).
    const total = (windows: typeof written) => windows.reduce((sum, r) => sum + Number(r.count), 0);
    expect(written.filter((r) => !r.window.includes("T")).map((r) => Number(r.count))).toEqual([26]);
    expect(total(written.filter((r) => r.window.includes("T")))).toBe(26);
  });

  it("instances sharing a database see each other's counts after a flush", async () => {
    // The same database as above: this worker's provisioner is bound to it.
    const url = databaseUrl;
    const a = await startServer({ DATABASE_URL: url, REQUEST_COUNTER_FLUSH_MS: "100", APP_URL: "https://wish.example" });
    const b = await startServer({ DATABASE_URL: url, REQUEST_COUNTER_FLUSH_MS: "100", APP_URL: "https://wish.example" });
    servers.push(a, b);
    const apiA = await apiFor(a);
    const { token, user } = await widgetSetup(a, apiA);
    const call = (server: TestServer) =>
      fetch(`${server.baseUrl}/widget/lists`, {
        method: "POST",
        headers: { apikey: apiA.anonKey, authorization: `Bearer ${user.accessToken}`, "x-widget-token": token },
      });
    const startMinute = new Date().toISOString().slice(0, 16);
    for (let i = 0; i < 9; i++) expect((await call(a)).status).toBe(200);
    const { key } = await widgetKeyOf(token);
    await until("month count 10", async () => (await monthCount(url, key)) === 10, Boolean, { timeoutMs: 10_000 }); // a flushed init + 9
    // b has seen nothing of this key; its first flush brings back a's 10.
    await call(b);
    await until("month count 11", async () => (await monthCount(url, key)) === 11, Boolean, { timeoutMs: 10_000 });
    await pause(300, "b's next flush tick (every 100 ms) has stored the total it got back: no read shows it but its next answer");
    const res = await call(b);
    expect(res.headers.get("x-usage-month")).toBe("12");
    // The per-minute window is exact only when all 12 requests fell into one clock minute.
    const remaining = Number(res.headers.get("x-ratelimit-remaining"));
    if (new Date().toISOString().slice(0, 16) === startMinute) expect(remaining).toBe(100 - 12);
    else expect(remaining).toBeGreaterThan(100 - 12);
  });

  it("two worker processes: every request is counted once in the database; a worker's headers never run ahead of it", async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, REQUEST_COUNTER_FLUSH_MS: "100" }, { workers: 2 });
    servers.push(server);
    const api = await apiFor(server);
    const { token, user } = await widgetSetup(server, api);
    const { key } = await widgetKeyOf(token);
    const headers = { apikey: api.anonKey, authorization: `Bearer ${user.accessToken}`, "x-widget-token": token };
    const startMinute = new Date().toISOString().slice(0, 16);
    const requests = 40;
    for (let i = 1; i <= requests; i++) {
      const res = await postFresh(`${server.baseUrl}/widget/lists`, headers);
      expect(res.status).toBe(200);
      // Each worker adds its own requests to the total its last flush read back: at most the true count (init + i).
      const month = Number(res.headers["x-usage-month"]);
      expect(month).toBeGreaterThanOrEqual(1);
      expect(month).toBeLessThanOrEqual(i + 1);
    }
    const served = server
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"request"') && l.includes("/widget/lists"))
      .map((l) => JSON.parse(l).pid);
    expect(new Set(served).size).toBe(2);
    await until("every request counted", async () => (await monthCount(databaseUrl, key)) === requests + 1, Boolean, { timeoutMs: 10_000 });
    await server.stop();
    // Exact after shutdown too: no request counted twice or lost, whichever worker answered it.
    const written = await rows(databaseUrl, key);
    expect(await monthCount(databaseUrl, key)).toBe(requests + 1);
    const minutes = written.filter((r) => r.window.includes("T"));
    expect(minutes.reduce((sum, r) => sum + Number(r.count), 0)).toBe(requests + 1);
    if (new Date().toISOString().slice(0, 16) === startMinute) expect(minutes).toHaveLength(1);
  });
});
