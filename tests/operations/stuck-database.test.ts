// A database that stops answering (PostgreSQL frozen behind a TCP proxy, or
// SQLite's write lock held by another connection; tests/support/stuck-database.ts):
// /health says so within about a second, API routes answer 503
// `service_unavailable` with Retry-After, the share page says the service is
// unavailable and is not cached (PostgreSQL; SQLite still serves reads), the log stays small (bounded lines, repeats
// collapsed), and everything works again once the database answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { freshDatabaseUrl, kind } from "../support/database.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { stuckDatabase, type StuckDatabase } from "../support/stuck-database.ts";
import { provisioner } from "../support/provision.ts";
import { sharedList, type SharedList } from "../support/shared-list.ts";

let database: StuckDatabase;
let server: TestServer;
let api: Api;
let list: SharedList;
/** A partner's public key, for the widget's init (every page view of a shop). */
let widgetKey: string;
/** Where the server's output stood when the database froze. */
let frozenAt = 0;

// Generous client bound: the fault is I/O, so an answer either comes within the configured timeouts or never.
const CLIENT_TIMEOUT_MS = 5000;

beforeAll(async () => {
  database = await stuckDatabase(await freshDatabaseUrl());
  server = await startServer({
    DATABASE_URL: database.url,
    DATABASE_CONNECT_TIMEOUT_MS: "1000",
    DATABASE_STATEMENT_TIMEOUT_MS: "2000",
  });
  api = await apiFor(server);
  list = await sharedList(api, server.databaseUrl, { name: "Birthday", ownerName: "Anna", products: [{ title: "Board game", price: 3999, currency: "EUR" }] });
  const p = await provisioner(server);
  widgetKey = (await p.key((await p.partner("growth")).id)).key;
});

afterAll(async () => {
  await database?.thaw();
  await server?.stop();
  await database?.close();
});

const health = async () => {
  const res = await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
  return { status: res.status, body: await res.json() };
};

const save = () =>
  fetch(`${server.baseUrl}/hosted/save`, {
    method: "POST",
    headers: { apikey: api.anonKey, authorization: `Bearer ${list.owner.accessToken}`, "content-type": "application/json" },
    body: JSON.stringify({ wishlistId: list.dbId, product: { url: `https://shop.example.com/products/p-${Math.random().toString(36).slice(2)}`, title: "Kite" } }),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });

const sharePage = () => fetch(`${server.url}/en/list/${list.token}`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });

describe("a database that stops answering", () => {
  it("health answers 200 while the database answers", async () => {
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", checks: { database: "ok" } } });
  });

  it("health answers 503 with checks.database down, within the client's bound", async () => {
    frozenAt = server.output().length;
    await database.freeze();
    await expect
      .poll(() => health().catch((err: Error) => ({ status: 0, body: err.name })), { timeout: 20_000, interval: 200 })
      .toMatchObject({ status: 503, body: { error: "service_unavailable", status: "unavailable", checks: { database: "down" } } });
    // And again at once: not a one-off.
    expect(await health()).toMatchObject({ status: 503, body: { checks: { database: "down" } } });
  });

  it("a save answers 503 service_unavailable with Retry-After and the SPEC error body", async () => {
    const res = await save();
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body).toEqual({ error: "service_unavailable", message: expect.any(String) });
  });

  it("the widget's init (every page view of a shop) answers 503 with Retry-After, not 500", async () => {
    const res = await fetch(`${server.baseUrl}/widget/init`, {
      method: "POST",
      headers: { apikey: api.anonKey, authorization: `Bearer ${widgetKey}`, "content-type": "application/json" },
      body: JSON.stringify({ origin: "https://shop.example.com" }),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ error: "service_unavailable", message: expect.any(String) });
  });

  it("the share page says the service is unavailable and is not cached", async () => {
    const res = await sharePage();
    if (kind === "sqlite") {
      // SQLite in WAL mode: readers never wait for the write lock, so the page is still served.
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Board game");
      return;
    }
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await res.text();
    expect(html).toContain("temporarily unavailable");
    expect(html).not.toMatch(/not found/i);
  });

  it("logs each error bounded and once per incident, however many requests fail", async () => {
    for (let i = 0; i < 4; i++) {
      expect((await save()).status).toBe(503);
      expect((await sharePage()).status).toBe(kind === "sqlite" ? 200 : 503);
      expect((await health()).status).toBe(503);
    }
    const lines = server.output().slice(frozenAt).split("\n").filter(Boolean);
    for (const line of lines) expect(Buffer.byteLength(line), line.slice(0, 300)).toBeLessThan(2048);
    // Error and warning lines (not the request lines): each distinct one once.
    const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.level === "error" || l.level === "warn");
    const seen = new Map<string, number>();
    for (const f of failures) {
      const key = `${f.msg}|${f.code ?? ""}|${f.error ?? ""}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    expect(failures.some((f) => f.msg === "database unavailable")).toBe(true);
  });

  it("everything works again once the database answers", async () => {
    await database.thaw();
    await expect.poll(() => health().then((h) => h.status).catch(() => 0), { timeout: 20_000, interval: 200 }).toBe(200);
    expect((await save()).status).toBe(200);
    const page = await sharePage();
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Board game");
    expect(server.output().slice(frozenAt)).toContain('"msg":"database available again"');
  });
});
