// Under test every JSON answer of the API is checked against its route's
// declared response schema (CHECK_RESPONSES=1, set by tests/support/server.ts):
// a body the schema does not describe is logged as "undocumented response",
// and checkUndocumented fails the test file on that line. Here a fake route
// in process shows that a mismatch is caught and a match is not.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { freshDatabaseUrl } from "../support/database.ts";
import { checkUndocumented } from "../support/server.ts";

let endpoint: typeof import("~/api/endpoint.server");
let warn: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  process.env.CHECK_RESPONSES = "1";
  process.env.DATABASE_URL = await freshDatabaseUrl();
  endpoint = await import("~/api/endpoint.server");
  const { log } = await import("~/lib/log.server");
  warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
});

const response = z.object({ list: z.object({ name: z.string(), items: z.array(z.object({ id: z.number().int() })) }) });

async function call(answer: () => unknown) {
  const { endpoint: make, route } = endpoint;
  const handle = make({ GET: route("none", { response }, answer) });
  const { apiRequestOfWeb } = await import("~/lib/api/web-adapter.server");
  warn.mockClear();
  const reply = await handle({ request: apiRequestOfWeb(new Request("http://localhost/check/abc")), params: { token: "abc" }, context: {} });
  return { reply, undocumented: warn.mock.calls.filter(([msg]) => msg === "undocumented response").map(([, fields]) => fields) };
}

describe("response bodies checked against their declared schema", () => {
  it("a body the schema does not describe is logged with the route and the first mismatching paths", async () => {
    const { reply, undocumented } = await call(() => ({ list: { name: 7, items: [{ id: 1 }, { id: "2" }] } }));
    // The answer itself goes out unchanged.
    expect(reply.status).toBe(200);
    expect(JSON.parse(String(reply.body))).toEqual({ list: { name: 7, items: [{ id: 1 }, { id: "2" }] } });
    expect(undocumented).toEqual([
      {
        method: "GET",
        path: "/check/abc",
        route: "/check/:token",
        issues: [expect.stringMatching(/^list\.name: /), expect.stringMatching(/^list\.items\.1\.id: /)],
      },
    ]);
  });

  it("a body that matches is not logged; nor is a JSON answer with a status (json()) that matches", async () => {
    expect((await call(() => ({ list: { name: "Birthday", items: [] } }))).undocumented).toEqual([]);
    expect((await call(() => endpoint.json({ list: { name: "Birthday", items: [{ id: 3 }] } }, 200))).undocumented).toEqual([]);
  });

  it("the test support fails on the log line", () => {
    const line = JSON.stringify({ level: "warn", msg: "undocumented response", method: "GET", path: "/check/abc", issues: ["list.name: Invalid input"] });
    expect(() => checkUndocumented(`{"msg":"listening"}\n${line}\n`)).toThrow(/bodies its routes do not declare/);
    expect(() => checkUndocumented(`{"msg":"listening"}\n`)).not.toThrow();
  });
});
