// Shared test fixtures: a portal user with e-mail and password, SPEC error assertions, a small HTTP fixture server.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { Api, ApiResponse } from "./api.ts";

export interface PortalUser {
  userId: string;
  accessToken: string;
  email: string;
}

/** A user with an e-mail address and password. */
export async function emailUser(api: Api, prefix = "user"): Promise<PortalUser> {
  const email = `${prefix}-${randomBytes(5).toString("hex")}@intake.example`;
  const res = await api.post("/auth/signup", { body: { email, password: "intake password 1" } });
  expect(res.status, res.text).toBe(200);
  return { userId: res.body.user.id, accessToken: res.body.access_token, email };
}

export function expectError(res: ApiResponse, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.error, res.text).toBe(error);
}

/** The server log holds no route that threw a code it did not declare. */
export function expectAllDocumented(output: string) {
  const lines = output.split("\n").filter((l) => l.includes("undocumented error code"));
  expect(lines).toEqual([]);
}

export type FixtureRoute = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local HTTP server answering from a table of path → handler; 404 otherwise. */
export async function fixtureServer(routes: Record<string, FixtureRoute>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.push(path);
    const route = routes[path];
    if (!route) return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
