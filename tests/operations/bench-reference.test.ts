// The benchmark's reference server (tests/bench/reference-server.ts) must
// answer each route it is compared on like the app does, or `npm run bench`'s
// app/reference ratios mean nothing: the same request to both gives the same
// JSON keys (recursively), the same values where they do not depend on time
// or randomness, and the same rows written. The reference runs on SQLite by
// design, so this file starts the app on its own SQLite database whichever
// DATABASE_URL the suite runs with. No timing here: speed is `npm run bench`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../app/db/migrate.server.ts";
import { anonKey, BenchApi, startReference, wishCli, type BenchServer } from "../bench/harness.ts";
import { CEILING, SCENARIOS, type RequestSpec, type Scenario } from "../bench/scenarios.ts";
import { sql } from "../support/sql.ts";
import { startServer, type TestServer } from "../support/server.ts";

/** The JSON's shape: object keys (sorted) and value types, arrays by their length and every element's shape. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, shape((value as Record<string, unknown>)[k])]));
  }
  return value === null ? "null" : typeof value;
}

let dir: string;
let app: TestServer;
let reference: BenchServer;
let databaseUrl: string;
let api: BenchApi;
let target: BenchApi;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "wish-reference-"));
  databaseUrl = `file:${path.join(dir, "app.db")}`;
  await migrate(databaseUrl);
  app = await startServer({ DATABASE_URL: databaseUrl });
  api = new BenchApi(app.baseUrl, await anonKey(databaseUrl, app.url), (args) => wishCli(databaseUrl, app.url, args));
  await api.anonymousUser(); // the app creates its signing key, which the reference reads
  reference = await startReference(databaseUrl, app.url, dir);
  target = new BenchApi(reference.baseUrl, api.anonKey, api.wish);
});

afterAll(async () => {
  await reference?.stop();
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const scenario = (name: string): Scenario => [CEILING, ...SCENARIOS].find((s) => s.name === name)!;

async function send(server: { url: string }, s: Scenario, spec: RequestSpec) {
  const res = await fetch(`${server.url}/api/v1${spec.path ?? s.path}`, {
    method: s.method,
    headers: { apikey: api.anonKey, ...(spec.body === undefined ? {} : { "content-type": "application/json" }), ...spec.headers },
    body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text);
}

describe("the reference server answers like the app", () => {
  it("every scenario marked `reference` is covered here", () => {
    const covered = ["ceiling", "auth.user", "public.items", "widget.init", "widget.save"];
    expect([CEILING, ...SCENARIOS].filter((s) => s.reference).map((s) => s.name).sort()).toEqual(covered.sort());
  });

  it("GET /api/v1/: the same status document", async () => {
    const [a, r] = [await send(app, CEILING, {}), await send(reference, CEILING, {})];
    expect(shape(r)).toEqual(shape(a));
    expect({ ...r, time: undefined }).toEqual({ ...a, time: undefined });
  });

  it("GET /auth/user: the same user, key for key and value for value", async () => {
    const s = scenario("auth.user");
    const spec = await s.setup!(api, api);
    const [a, r] = [await send(app, s, spec), await send(reference, s, spec)];
    expect(Object.keys(a).length).toBeGreaterThan(5);
    expect(r).toEqual(a);
  });

  it("GET /hosted/public/lists/{token}/items: the same 50 products in the same order", async () => {
    const s = scenario("public.items");
    const spec = await s.setup!(api, api);
    const [a, r] = [await send(app, s, spec), await send(reference, s, spec)];
    expect(a.products).toHaveLength(50);
    expect(r).toEqual(a);
    // A locale picks among localizations the same way (the serializer is shared, the grouping is not).
    const de = { ...spec, path: `${spec.path}?lang=de` };
    expect(await send(reference, s, de)).toEqual(await send(app, s, de));
  });

  it("POST /widget/init: the same shape and figures, and a token the app accepts", async () => {
    const s = scenario("widget.init");
    const spec = await s.setup!(api, api);
    const [a, r] = [await send(app, s, spec), await send(reference, s, spec)];
    expect(shape(r)).toEqual(shape(a));
    const claims = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
    const strip = (c: Record<string, unknown>) => ({ ...c, sid: undefined, iat: undefined, exp: undefined });
    expect(strip(claims(r.token))).toEqual(strip(claims(a.token)));
    expect({ ...r, token: undefined, sid: undefined }).toEqual({ ...a, token: undefined, sid: undefined });
    // The app verifies the reference's widget token (same key, issuer and claims): used below for a save.
    const user = await api.anonymousUser();
    const list = await api.request("POST", "/hosted/me/lists", { headers: { authorization: `Bearer ${user.access_token}` }, body: { name: "L" } });
    const saved = await fetch(`${app.baseUrl}/widget/save`, {
      method: "POST",
      headers: { apikey: api.anonKey, "content-type": "application/json", authorization: `Bearer ${user.access_token}`, "x-widget-token": r.token },
      body: JSON.stringify({ wishlistId: list.list.db_id, product: { url: "https://shop.example.com/p/1", title: "T" } }),
    });
    expect(saved.status).toBe(200);
  });

  it("POST /widget/save (known product): the same item and product, the same rows counted and written", async () => {
    const s = scenario("widget.save");
    const forApp = await s.setup!(api, api);
    const partner = (await sql<{ partnerId: number }>(databaseUrl, `SELECT "partnerId" FROM "ApiKey" ORDER BY "id" DESC LIMIT 1`))[0].partnerId;
    const usage = async () => {
      const [c] = await sql<{ saves: number; total: number }>(databaseUrl, `SELECT "saves", "total" FROM "UsageCounter" WHERE "partnerId" = ?`, [partner]);
      const [d] = await sql<{ saves: number }>(databaseUrl, `SELECT "saves" FROM "UsageDay" WHERE "partnerId" = ?`, [partner]);
      return { month: c?.total ?? 0, monthSaves: c?.saves ?? 0, day: d?.saves ?? 0 };
    };
    const item = async (id: number) =>
      (await sql(databaseUrl, `SELECT * FROM "ListItem" WHERE "id" = ?`, [id]))[0] as Record<string, unknown>;

    const listId = (forApp.body as { wishlistId: number }).wishlistId;
    const listUpdated = async () =>
      (await sql<{ updatedAt: string }>(databaseUrl, `SELECT "updatedAt" FROM "Wishlist" WHERE "id" = ?`, [listId]))[0].updatedAt;

    const a = await send(app, s, forApp);
    const afterApp = { usage: await usage(), row: await item(a.item_id), listUpdated: await listUpdated() };
    // The same request with the reference's own widget token for the same key.
    const key = (await sql<{ key: string }>(databaseUrl, `SELECT "key" FROM "ApiKey" WHERE "partnerId" = ?`, [partner]))[0].key;
    const init = await target.request("POST", "/widget/init", { headers: { authorization: `Bearer ${key}` }, body: { origin: "https://bench-shop.example.com" } });
    const r = await send(reference, s, { ...forApp, headers: { ...forApp.headers, "x-widget-token": init.token } });

    expect(r).toEqual(a); // an upsert of the same item
    // A repeat of what the list holds is no action, on both.
    expect(afterApp.usage).toEqual({ month: 0, monthSaves: 0, day: 0 });
    expect(await usage()).toEqual(afterApp.usage);
    // Every column as the app wrote it (addedAt stays the first insert's), and the list touched in the app's format.
    expect(await item(r.item_id)).toEqual(afterApp.row);
    const touched = await listUpdated();
    expect(touched).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(new Date(touched).getTime()).toBeGreaterThan(new Date(afterApp.listUpdated).getTime());

    // The same product into another list of the user: a new item, counted once by each, with the same claims.
    const other = async () => {
      const list = await api.request("POST", "/hosted/me/lists", { headers: { authorization: forApp.headers!.authorization! }, body: { name: "Other" } });
      return list.list.db_id as number;
    };
    const [appList, refList] = [await other(), await other()];
    const a2 = await send(app, s, { ...forApp, body: { ...(forApp.body as object), wishlistId: appList } });
    expect(await usage()).toEqual({ month: 1, monthSaves: 1, day: 1 });
    const r2 = await send(reference, s, { ...forApp, headers: { ...forApp.headers, "x-widget-token": init.token }, body: { ...(forApp.body as object), wishlistId: refList } });
    expect(await usage()).toEqual({ month: 2, monthSaves: 2, day: 2 });
    expect(r2.product_id).toBe(a2.product_id);
    const claims = await sql<{ dedupKey: string; uses: number }>(databaseUrl, `SELECT "dedupKey", "uses" FROM "UsageDedup" WHERE "partnerId" = ?`, [partner]);
    const hour = Math.floor(Date.now() / 3_600_000);
    expect(claims).toHaveLength(4);
    expect(claims.map((c) => [c.dedupKey.replace(/:\d+$/, ""), Number(c.uses)])).toEqual(expect.arrayContaining([
      [`saveaddr:${partner}:127.0.0.1`, 2],
      [`saveitem:${appList}:${a2.product_id}`, 1],
      [`saveitem:${refList}:${a2.product_id}`, 1],
      [`saveuser:${partner}:${JSON.parse(Buffer.from(String(forApp.headers!.authorization).split(".")[1]!, "base64url").toString()).sub}`, 2],
    ]));
    expect(claims.every((c) => c.dedupKey.endsWith(`:${hour}`))).toBe(true);
  });
});
