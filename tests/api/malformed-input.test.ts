// Malformed input: undecodable paths, lone surrogates, deep
// JSON and cross-origin page writes get a 4xx with the SPEC error body, never
// a 500, and nothing is written before validation passes.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";
import { sql } from "../support/sql.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
let user: { userId: string; accessToken: string };
let listToken: string;
let dbId: number;
let basketId: string;
let partnerToken: string;

beforeAll(async () => {
  api = await sharedApi();
  user = await api.anonymousUser();
  const list = await api.post("/hosted/me/lists", { token: user.accessToken, body: { name: "Fuzzed" } });
  listToken = list.body.token;
  dbId = list.body.list.db_id;
  const p = await provisioner(api.server);
  partnerToken = (await p.pat((await p.partner()).id)).token;
  basketId = (await api.post("/partner/baskets", { token: partnerToken, body: {} })).body.basket.id;
});

/** A raw request, so bodies can carry exactly the bytes under test. */
async function raw(method: string, path: string, opts: { body?: string; headers?: Record<string, string>; token?: string } = {}) {
  const headers: Record<string, string> = { apikey: api.anonKey, ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(api.server.url + path, { method, headers, body: opts.body, redirect: "manual" });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

const deep = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);

describe("bad percent-encoding in a path", () => {
  it.each([
    ["GET", "/api/v1/baskets/%ff%fe"],
    ["POST", "/api/v1/baskets/%ff/event"],
    ["GET", "/api/v1/%ff"],
    ["GET", "/api/v1/hosted/public/lists/%ed%a0%80"], // the UTF-8 bytes of a lone surrogate
    ["PUT", "/api/v1/hosted/lists/%c3%28"],
    ["GET", "/api/v1/ad-studio/%ff"],
  ])("%s %s under the API gives JSON 404 not_found", async (method, path) => {
    const res = await raw(method, path, { token: user.accessToken, body: method === "GET" ? undefined : "{}" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
  });

  it.each([
    ["GET", "/api/v1/hosted/lists/a%0Ab/items"],
    ["GET", "/api/v1/hosted/public/lists/%00/items"],
    ["PUT", "/api/v1/hosted/lists/%00/items/1/purchased"],
    ["PATCH", "/api/v1/hosted/lists/x/items/%0Dv"],
    ["POST", "/api/v1/baskets/bkt_%E2%80%A8/event"],
    ["PUT", "/api/"],
    ["GET", "/api/v2/anything"],
  ])("%s %s (a decoded line break, or /api outside /api/v1) gives JSON 404 not_found, even cross-origin", async (method, path) => {
    const res = await raw(method, path, { headers: { origin: "http://localhost:5173" }, body: method === "GET" ? undefined : "{}" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
  });

  it.each(["/%ff", "/en/list/%ff", "/assets/%ff", "/app/%e0%80", "/en/list/a%0A"])("GET %s outside the API gives JSON 404 not_found", async (path) => {
    const res = await raw("GET", path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
  });
});

describe("lone surrogates in JSON strings", () => {
  const lone = (value: string) => `{"name":"${value}","title":"${value}","url":"${value}","type":"open","state":"${value}"}`;

  it("write routes answer 400 invalid_json for an unpaired \\uD800 or \\uDC00, in values and keys", async () => {
    const routes: Array<[string, string, Record<string, string>]> = [
      ["POST", "/api/v1/auth/signup", {}],
      ["POST", "/api/v1/hosted/me/lists", {}],
      ["PUT", `/api/v1/hosted/lists/${listToken}`, {}],
      ["POST", `/api/v1/hosted/lists/${listToken}/items/manual`, {}],
      ["POST", "/api/v1/hosted/save", {}],
      ["POST", "/api/v1/hosted/scrape-preview", {}],
      ["POST", "/api/v1/widget/oauth-complete", {}],
      ["POST", `/api/v1/baskets/${basketId}/event`, {}],
      ["POST", "/api/v1/partner/baskets", { authorization: `Bearer ${partnerToken}` }],
    ];
    for (const [method, path, headers] of routes) {
      for (const body of [lone("a\\ud800b"), lone("\\udc00"), `{"\\ud83d": 1}`, `["ok", ["\\udbff"]]`]) {
        const res = await raw(method, path, { body, headers: { authorization: `Bearer ${user.accessToken}`, ...headers } });
        expect(res.status, `${method} ${path} ${body}`).toBe(400);
        expect(res.body).toEqual({ error: "invalid_json", message: expect.stringContaining("surrogate") });
      }
    }
  });

  it("a surrogate pair (an emoji) and an escaped backslash before u are fine", async () => {
    const res = await raw("POST", "/api/v1/hosted/me/lists", {
      token: user.accessToken,
      body: `{"name":"Gifts \\ud83c\\udf81 \\\\ud800"}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.list.name).toBe("Gifts \u{1F381} \\ud800");
  });

  it("nothing is written: the list name with a lone surrogate never reaches the database", async () => {
    const before = await sql(api.server.databaseUrl, `SELECT COUNT(*) AS n FROM "Wishlist" WHERE "ownerId" = ?`, [user.userId]);
    const res = await raw("POST", "/api/v1/hosted/me/lists", { token: user.accessToken, body: `{"name":"x\\ud800"}` });
    expect(res.status).toBe(400);
    const after = await sql(api.server.databaseUrl, `SELECT COUNT(*) AS n FROM "Wishlist" WHERE "ownerId" = ?`, [user.userId]);
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
  });
});

describe("NUL characters", () => {
  it("U+0000 in a body string or key gives 400 invalid_input and writes nothing (PostgreSQL text cannot hold it)", async () => {
    for (const body of [`{"name":"a\\u0000b"}`, `{"name":"ok","\\u0000":1}`]) {
      const res = await raw("POST", "/api/v1/hosted/me/lists", { token: user.accessToken, body });
      expect(res.status, body).toBe(400);
      expect(res.body).toEqual({ error: "invalid_input", message: expect.stringContaining("NUL") });
    }
    const rows = await sql(api.server.databaseUrl, `SELECT id FROM "Wishlist" WHERE "ownerId" = ? AND name LIKE 'a%b'`, [user.userId]);
    expect(rows).toEqual([]);
  });

  it("%00 in the query string gives 400 invalid_input", async () => {
    const res = await raw("GET", `/api/v1/hosted/public/lists/${listToken}/items?market=%00`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_input");
  });
});

describe("deeply nested JSON", () => {
  it("5,000 levels on /hosted/save, /widget/oauth-complete and /baskets/{id}/event give 400 invalid_json and write nothing", async () => {
    const url = `https://127.0.0.1/deep-${Date.now()}`;
    const save = await raw("POST", "/api/v1/hosted/save", {
      token: user.accessToken,
      body: `{"wishlistId":${dbId},"product":{"url":"${url}","title":"Deep","metadata":${deep(5000)}}}`,
    });
    expect(save.status).toBe(400);
    expect(save.body).toEqual({ error: "invalid_json", message: expect.stringContaining("deeper") });
    const products = await sql(api.server.databaseUrl, `SELECT id FROM "Product" WHERE "canonicalUrl" = ?`, [url]);
    expect(products).toEqual([]);

    const complete = await raw("POST", "/api/v1/widget/oauth-complete", { body: `{"state":"s","session":${deep(5000)}}` });
    expect(complete.status).toBe(400);
    expect(complete.body.error).toBe("invalid_json");

    const events = async () =>
      Number(
        (
          await sql(
            api.server.databaseUrl,
            `SELECT COUNT(*) AS n FROM "BasketEvent" e JOIN "BasketConfig" b ON b.id = e."basketConfigId" WHERE b."publicId" = ?`,
            [basketId],
          )
        )[0]!.n,
      );
    const before = await events();
    const event = await raw("POST", `/api/v1/baskets/${basketId}/event`, { body: `{"type":"open","meta":{"a":${deep(5000)}}}` });
    expect(event.status).toBe(400);
    expect(event.body.error).toBe("invalid_json");
    expect(await events()).toBe(before);
  });

  it("32 levels are accepted, 33 are not; brackets inside strings do not count", async () => {
    // Two object levels, then arrays.
    const at = (depth: number) => `{"type":"open","meta":{"a":${deep(depth - 2, '"x"')}}}`;
    expect((await raw("POST", `/api/v1/baskets/${basketId}/event`, { body: at(32) })).status).toBe(201);
    const over = await raw("POST", `/api/v1/baskets/${basketId}/event`, { body: at(33) });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe("invalid_json");
    const inString = `{"type":"open","meta":{"a":"${"[{".repeat(200)}\\"]"}}`;
    expect((await raw("POST", `/api/v1/baskets/${basketId}/event`, { body: inString })).status).toBe(201);
  });
});

describe("writes to pages (outside /api)", () => {
  it("a cross-origin POST gives 403 forbidden with the SPEC error body, not an empty 500", async () => {
    for (const origin of ["https://evil.example", "null", "not a url"]) {
      const res = await raw("POST", "/", {
        body: "a=b",
        headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status, origin).toBe(403);
      expect(res.body).toEqual({ error: "forbidden", message: expect.any(String) });
    }
    const put = await raw("PUT", "/dialog/save", { body: "{}", headers: { origin: "https://evil.example" } });
    expect(put.status).toBe(403);
  });

  it("a same-origin POST to a page without an action gives 405 and an HTML page that says so", async () => {
    const res = await raw("POST", "/", { body: "a=b", headers: { origin: api.server.url, "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.text).toContain("Method not allowed");
  });

  it("a POST to an unknown page gives the 404 page", async () => {
    const res = await raw("POST", "/no/such/page", { body: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(404);
    expect(res.text).toContain("Page not found");
  });
});

describe("request schemas declared on routes", () => {
  it("POST /hosted/lists/{token}/items/manual keeps SPEC's codes and names the field otherwise", async () => {
    const post = (body: unknown) =>
      api.post(`/hosted/lists/${listToken}/items/manual`, { token: user.accessToken, body });
    expect((await post({})).body).toEqual({ error: "missing_title", message: "title is required" });
    expect((await post({ title: "   " })).body.error).toBe("missing_title");
    const priority = await post({ title: "Mug", priority: 9 });
    expect(priority.status).toBe(400);
    expect(priority.body.error).toBe("invalid_priority");
    const price = await post({ title: "Mug", price: "12" });
    expect(price.status).toBe(400);
    expect(price.body).toEqual({ error: "invalid_input", message: expect.stringMatching(/^price: /) });
    const huge = await post({ title: "Mug", price: 1e300 });
    expect(huge.body.error).toBe("invalid_input");
    const ok = await post({ title: " Mug ", price: 1299, currency: "eur", priority: 2 });
    expect(ok.status).toBe(200);
    expect(ok.body.item).toMatchObject({ title: "Mug", price_minor: 1299, currency: "EUR", priority: 2 });
  });

  it("the schemas are attached to the route definitions", async () => {
    process.env.DATABASE_URL = api.server.databaseUrl;
    const mod = await import("~/api/hosted/item-manual");
    const def = (mod.loader as unknown as { routes: Record<string, { auth: string; schemas: { body?: unknown } }> }).routes.POST!;
    expect(def.auth).toBe("user");
    expect(def.schemas.body).toBe(mod.manualItemBody);
  });
});
