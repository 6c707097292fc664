// The conventions every API route follows (SPEC section 4).
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi, type Api } from "../support/api.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

describe("service status and health", () => {
  it("GET /api/v1/ answers name and API version 1.1.0 without credentials", async () => {
    const res = await api.get("/", { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: expect.any(String), version: "1.1.0", status: "ok" });
  });

  it("GET /api/v1 (without trailing slash) is the same status route", async () => {
    const res = await fetch(api.baseUrl);
    expect(res.status).toBe(200);
    expect((await res.json()).version).toBe("1.1.0");
  });

  it("GET /api/v1/health checks the database", async () => {
    const res = await api.get("/health", { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", checks: { database: "ok" } });
  });
});

describe("unknown routes", () => {
  it.each(["GET", "POST", "PUT", "DELETE", "PATCH"])("%s on an unknown path gives JSON 404 not_found", async (method) => {
    const res = await api.request(method, "/no/such/route", { body: method === "GET" ? undefined : {} });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.body.error).toBe("not_found");
  });

  it("a known path with an unsupported method is an unknown route: 404 not_found (SPEC 7), with Allow", async () => {
    const res = await api.request("DELETE", "/health");
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("CORS", () => {
  it("answers the preflight of any route, reflecting the origin and allowing the SDK's headers", async () => {
    for (const path of ["/auth/signup", "/auth/token", "/health", "/no/such/route"]) {
      const res = await fetch(api.baseUrl + path, {
        method: "OPTIONS",
        headers: {
          origin: "https://shop.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, apikey, x-widget-token, content-type",
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
      const allowed = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "apikey", "x-widget-token", "content-type"]));
      expect(res.headers.get("access-control-allow-methods")).toContain("OPTIONS");
    }
  });

  it("reflects the origin on normal responses and exposes the rate-limit and usage headers", async () => {
    const res = await api.get("/health", { headers: { origin: "https://shop.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const exposed = res.headers.get("access-control-expose-headers")!;
    for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Usage-Month", "X-Usage-Limit", "X-Usage-Overage"]) {
      expect(exposed).toContain(h);
    }
  });
});

describe("request bodies", () => {
  it("malformed JSON gives 400 invalid_json", async () => {
    const res = await api.post("/auth/signup", { body: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_json", message: expect.any(String) });
  });

  it("a non-JSON content type gives 415 unsupported_media_type", async () => {
    const res = await api.post("/auth/signup", { body: "email=a@b.c", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("unsupported_media_type");
  });

  it("a body over the limit gives 413 payload_too_large", async () => {
    const big = JSON.stringify({ email: "x".repeat(1_100_000) });
    const res = await api.post("/auth/signup", { body: big });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("a chunked body over the limit (no Content-Length) gives 413 too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(api.baseUrl + "/auth/signup", {
      method: "POST",
      headers: { apikey: api.anonKey, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("payload_too_large");
  });
});

describe("anon key (SPEC section 5 rule 1)", () => {
  it("authenticated routes called from outside need the apikey header", async () => {
    const missing = await api.post("/auth/signup", { body: {}, noApiKey: true });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe("unauthorized");
    const wrong = await api.post("/auth/signup", { body: {}, noApiKey: true, headers: { apikey: "anon_wrong" } });
    expect(wrong.status).toBe(401);
    const right = await api.post("/auth/signup", { body: {} });
    expect(right.status).toBe(200);
  });

  it("calls from the service's own origin need no apikey", async () => {
    const res = await api.post("/auth/signup", { body: {}, noApiKey: true, headers: { origin: api.server.url } });
    expect(res.status).toBe(200);
  });

  it("a foreign Origin does not count as the service's own", async () => {
    const res = await api.post("/auth/signup", { body: {}, noApiKey: true, headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(401);
  });

  it("routes whose auth is none need no credentials at all", async () => {
    for (const path of ["/", "/health", "/auth/.well-known/jwks.json"]) {
      const res = await api.get(path, { noApiKey: true });
      expect(res.status, path).toBe(200);
    }
  });
});

export type { Api };

describe("keep-alive after a rejected request", () => {
  it("a large body rejected before it was read does not stall the connection", async () => {
    // 900 kB (under the limit) sent without the anon key: rejected 401 before reading.
    const body = JSON.stringify({ email: "y".repeat(900_000) });
    for (let i = 0; i < 3; i++) {
      const rejected = await api.post("/auth/signup", { body, noApiKey: true });
      expect(rejected.status).toBe(401);
      const next = await api.get("/health");
      expect(next.status).toBe(200);
    }
  });
});
