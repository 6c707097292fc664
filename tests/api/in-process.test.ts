// The in-process tier (tests/support/in-process.ts) answers as the built
// server does: the same statuses, bodies and headers for the same requests,
// its log lines kept as the server's output, and no path outside /api/v1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, sharedApi, type Api } from "../support/api.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";

let server: InProcessServer;
let local: Api;
let remote: Api;

beforeAll(async () => {
  server = await startInProcess();
  local = await apiFor(server);
  remote = await sharedApi();
});

afterAll(async () => {
  await server?.stop();
});

/** What a test compares: status, body and the headers a route sets (not the connection's). */
const shape = (res: { status: number; body: unknown; headers: Headers }) => ({
  status: res.status,
  body: res.body,
  type: res.headers.get("content-type"),
  cache: res.headers.get("cache-control"),
  cors: res.headers.get("access-control-allow-origin"),
  frame: res.headers.get("x-frame-options"),
});

describe("the in-process tier", () => {
  it("answers errors and unknown routes like the server", async () => {
    const calls: [string, string, Parameters<Api["request"]>[2]][] = [
      ["GET", "/no/such/route", {}],
      ["GET", "/auth/user", {}],
      ["GET", "/auth/user", { noApiKey: true }],
      ["POST", "/auth/token?grant_type=password", { body: "{not json" }],
      ["POST", "/auth/token?grant_type=password", { body: { email: "nobody@example.com" } }],
      ["GET", "/hosted/public/lists/no-such-token", {}],
    ];
    // Not here: paths no route can match (`%ff`, `%00`), which the HTTP server answers itself (app/server/main.ts).
    for (const [method, path, opts] of calls) {
      expect(shape(await local.request(method, path, opts)), `${method} ${path}`).toEqual(shape(await remote.request(method, path, opts)));
    }
  });

  it("signs up and reads the user back, with the same body shape and headers", async () => {
    const [a, b] = [await local.anonymousUser(), await remote.anonymousUser()];
    const [mine, theirs] = [await local.get("/auth/user", { token: a.accessToken }), await remote.get("/auth/user", { token: b.accessToken })];
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.body).sort()).toEqual(Object.keys(theirs.body).sort());
    expect({ ...shape(mine), body: null }).toEqual({ ...shape(theirs), body: null });
    // Each app has its own database: the other's token names nobody here.
    expect((await local.get("/auth/user", { token: b.accessToken })).status).toBe(401);
  });

  it("keeps the app's log lines, a request line per call", async () => {
    const before = server.output().length;
    await local.get("/no/such/route");
    const lines = server
      .output()
      .slice(before)
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(lines).toContainEqual(expect.objectContaining({ msg: "request", method: "GET", path: "/api/v1/no/such/route", status: 404 }));
  });

  it("answers HEAD without a body, and refuses paths outside /api/v1", async () => {
    const head = await server.fetch(`${server.baseUrl}/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    await expect(server.fetch(`${server.url}/en/lists`)).rejects.toThrow(/answers \/api\/v1 only/);
  });
});
