// Configuration is validated at boot; secrets are generated once and shared.
import { spawnSync } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/database.ts";
import { apiFor, wish } from "../support/api.ts";
import { logLines, root, startServer } from "../support/server.ts";
import { until } from "../support/wait.ts";
import { failWrites, sql } from "../support/sql.ts";

function bootWith(env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(root, "app/server/start.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: "0", ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("configuration", () => {
  it.each([
    [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL"],
    [{ APP_URL: "not a url" }, "APP_URL"],
    [{ PORT: "eighty" }, "PORT"],
    [{ AUTH_EXTERNAL_JWKS_URL: "https://id.example/jwks.json" }, "AUTH_EXTERNAL_JWKS_URL"],
    [{ SHOPIFY_API_KEY: "key-without-secret" }, "SHOPIFY_API_KEY"],
  ])("refuses to start with %j and names the variable", (env, name) => {
    const result = bootWith(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration");
    expect(result.stderr).toContain(name);
  });

  it("drops APP_URL's trailing slashes, so the addresses built on it have one slash", async () => {
    const { parseEnv } = await import("~/env.server");
    expect(parseEnv({ APP_URL: "https://wish.example/" }).APP_URL).toBe("https://wish.example");
    expect(parseEnv({ APP_URL: "https://wish.example/app//" }).APP_URL).toBe("https://wish.example/app");
    expect(parseEnv({}).APP_URL).toBe("http://localhost:3000");
  });
});

describe("secrets", () => {
  it("are generated on first start, stored, and shared by every instance and the CLI", async () => {
    const databaseUrl = await freshDatabaseUrl();
    // Two instances behind one public address, as behind a load balancer.
    const shared = { DATABASE_URL: databaseUrl, APP_URL: "https://wish.example" };
    const a = await startServer(shared);
    const b = await startServer(shared);
    try {
      const api = await apiFor(a);
      const { accessToken } = await api.anonymousUser();
      const onB = await fetch(`${b.baseUrl}/auth/user`, {
        headers: { apikey: api.anonKey, authorization: `Bearer ${accessToken}` },
      });
      expect(onB.status).toBe(200);
      const cli = (await wish(databaseUrl, ["config"], { APP_URL: "https://wish.example" })).config;
      expect(cli).toEqual({ app_url: "https://wish.example", base_url: "https://wish.example/api/v1", anon_key: api.anonKey });
      const jwksA = await (await fetch(`${a.baseUrl}/auth/.well-known/jwks.json`)).json();
      const jwksB = await (await fetch(`${b.baseUrl}/auth/.well-known/jwks.json`)).json();
      expect(jwksB).toEqual(jwksA);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("ANON_KEY from the environment takes precedence", async () => {
    const server = await startServer({ ANON_KEY: "anon_from_environment_123456" });
    try {
      const res = await fetch(`${server.baseUrl}/auth/signup`, {
        method: "POST",
        headers: { apikey: "anon_from_environment_123456", "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("request log", () => {
  it("writes one JSON line per request with method, path, status and duration", async () => {
    const server = await startServer();
    try {
      await fetch(`${server.baseUrl}/health`);
      await fetch(`${server.baseUrl}/nowhere`);
      const lines = await until("two request lines", () => logLines(server, "request"), (l) => l.length >= 2);
      expect(lines).toEqual([
        expect.objectContaining({ method: "GET", path: "/api/v1/health", status: 200, ms: expect.any(Number) }),
        expect.objectContaining({ method: "GET", path: "/api/v1/nowhere", status: 404 }),
      ]);
    } finally {
      await server.stop();
    }
  });
});

describe("failures", () => {
  it("an unexpected exception answers 500 {error: 'Internal server error'} and logs the stack, never sending it", async () => {
    const server = await startServer();
    try {
      const api = await apiFor(server);
      // A real database error the domain code does not expect.
      await failWrites(server.databaseUrl, "User", "INSERT", "email", "boom@example.test");
      const res = await api.post("/auth/signup", { body: { email: "boom@example.test", password: "long enough password" } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: "Internal server error" });
      expect(res.text).not.toContain("injected failure");
      const [logged] = await until("the error's log line", () => logLines(server, "unhandled error"), (l) => l.length > 0);
      expect(logged).toMatchObject({ level: "error", path: "/api/v1/auth/signup", stack: expect.stringContaining("\n    at ") });
    } finally {
      await server.stop();
    }
  });

  it("health answers 503 service_unavailable when the database is gone", async () => {
    const server = await startServer();
    try {
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
      if (server.databaseUrl.startsWith("file:")) {
        // Overwrite the open database file, its write-ahead log and the log's index: every query now fails.
        // (The server has written since it started, its job lease at least; while the index says nothing
        // changed, SQLite answers from its cache and the log without reading the file again.)
        const file = server.databaseUrl.slice("file:".length);
        for (const part of [file, `${file}-wal`, `${file}-shm`]) {
          if (existsSync(part)) writeFileSync(part, Buffer.alloc(Math.max(8192, statSync(part).size), 0x42));
        }
      } else {
        const name = new URL(server.databaseUrl).pathname.slice(1);
        await sql(server.databaseUrl.replace(/\/[^/]+$/, "/postgres"), `DROP DATABASE "${name}" WITH (FORCE)`);
      }
      const res = await fetch(`${server.baseUrl}/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: "service_unavailable", checks: { database: "down" } });
    } finally {
      await server.stop();
    }
  });
});
