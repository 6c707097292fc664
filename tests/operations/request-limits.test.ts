// Request limits outside /api/v1 (docs/operations.md "Request limits"): bodies of
// webhooks, /auth/login, the share page's form post and My lists are capped
// by the HTTP server while reading (Content-Length or chunked) and refused
// with 413 long before they are sent, without the server's memory growing by
// the body; slow-header and slow-body connections are cut off by the
// timeouts, connections past the per-client cap are closed at once, and
// /api/v1/health keeps answering throughout.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server.ts";
import { pause } from "../support/wait.ts";

const MiB = 1024 * 1024;
const PAGE_LIMIT = 64 * 1024;
const WEBHOOK_LIMIT = 5 * MiB;
const SECRET = "shpss_limits_test_secret";

interface Answer {
  status: number;
  body: any;
  /** Body bytes written when the answer's headers arrived. */
  sent: number;
}

/**
 * POSTs `total` bytes generated while sending (nothing is held in memory),
 * declared with Content-Length or chunked. Stops writing as soon as the
 * answer arrives; resolves with it and how much had been written by then.
 */
function streamPost(url: string, headers: Record<string, string>, total: number, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: "POST", headers: chunked ? headers : { ...headers, "content-length": String(total) } }, (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        req.destroy();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // a page, not JSON
        }
        resolve({ status: res.statusCode ?? 0, body, sent: sentWhenAnswered });
      });
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    const block = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && sent < total) {
        const chunk = block.subarray(0, Math.min(block.length, total - sent));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** Resident memory of a process in bytes: now, and its peak so far (VmHWM, which never goes down). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

const webhookHeaders = () => ({
  "content-type": "application/json",
  "x-shopify-topic": "orders/create",
  "x-shopify-hmac-sha256": "bm90IHRoZSBobWFj",
  "x-shopify-shop-domain": "limits.myshopify.com",
  "x-shopify-webhook-id": randomUUID(),
  "x-shopify-api-version": "2025-10",
});
const formHeaders = { "content-type": "application/x-www-form-urlencoded" };

describe("body caps outside /api/v1", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ SHOPIFY_API_KEY: "test-client-id", SHOPIFY_API_SECRET: SECRET });
  });
  afterAll(() => server?.stop());

  /** The four form and webhook addresses the finding named, with their caps. */
  const targets = () => [
    { name: "webhook", url: `${server.url}/webhooks/orders/create`, headers: webhookHeaders(), limit: WEBHOOK_LIMIT },
    { name: "/auth/login", url: `${server.url}/auth/login`, headers: formHeaders, limit: PAGE_LIMIT },
    { name: "share page action", url: `${server.url}/en/list/${"t".repeat(32)}`, headers: formHeaders, limit: PAGE_LIMIT },
    { name: "My lists", url: `${server.url}/en/lists`, headers: formHeaders, limit: PAGE_LIMIT },
  ];

  it("one byte over the cap, with Content-Length: 413 payload_too_large as JSON", async () => {
    for (const t of targets()) {
      const res = await fetch(t.url, { method: "POST", headers: t.headers, body: Buffer.alloc(t.limit + 1, "a") });
      expect(res.status, t.name).toBe(413);
      expect(res.headers.get("content-type"), t.name).toMatch(/^application\/json/);
      expect(await res.json(), t.name).toEqual({ error: "payload_too_large", message: `Request body exceeds ${t.limit} bytes` });
    }
  });

  it("64 MiB declared or chunked: answered 413 after about the cap, not after the body", async () => {
    for (const t of targets()) {
      for (const chunked of [false, true]) {
        const res = await streamPost(t.url, t.headers, 64 * MiB, chunked);
        const label = `${t.name} ${chunked ? "chunked" : "Content-Length"}`;
        expect([res.status, res.body?.error], label).toEqual([413, "payload_too_large"]);
        // Long before the end: the socket buffers of both ends hold about 12 MiB more than the server
        // read, and on a loaded machine the client writes more before the answer reaches it (26 MiB seen in CI).
        expect(res.sent, label).toBeLessThan(32 * MiB);
      }
    }
  });

  it("four 150 MB bodies at once: the server's memory does not grow by them, /health keeps answering", async () => {
    // Warm every route first, so the measurement is about bodies, not first renders.
    for (const t of targets()) await fetch(t.url, { method: "POST", headers: t.headers, body: "shop=" });
    const before = memoryOf(server.pid);
    const answers = await Promise.all(
      targets().map((t, i) => streamPost(t.url, t.headers, 150_000_000, i % 2 === 0).catch(() => ({ status: 0, body: null, sent: -1 }))),
    );
    const health = await fetch(`${server.url}/api/v1/health`);
    const after = memoryOf(server.pid);
    console.log(
      `RSS before ${(before.rss / MiB).toFixed(1)} MiB, after ${(after.rss / MiB).toFixed(1)} MiB; peak before ${(before.peak / MiB).toFixed(1)} MiB, after ${(after.peak / MiB).toFixed(1)} MiB; sent when answered (MiB): ${answers.map((a) => (a.sent / MiB).toFixed(1)).join(", ")}`,
    );
    expect(answers.map((a) => a.status)).toEqual([413, 413, 413, 413]);
    expect(health.status).toBe(200);
    // 600 MB were offered; the peak may move by what the caps allow (5 MiB + 3 × 64 KiB) and the runtime's own noise.
    expect(after.peak - before.peak).toBeLessThan(64 * MiB);
  });

  it("Expect: 100-continue with a body over the cap: 413 instead of 100 Continue, nothing sent, connection closed", async () => {
    const port = Number(new URL(server.url).port);
    const socket = net.connect({ host: "127.0.0.1", port });
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (d) => (answer += d));
    socket.write(`POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 150000000\r\nExpect: 100-continue\r\n\r\n`);
    const closed = await Promise.race([new Promise<boolean>((r) => socket.on("close", () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain(`"error":"payload_too_large"`);
    expect(closed).toBe(true);
    // Under the cap the client is told to go on, and the page answers.
    const ok = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/auth/login`, { method: "POST", headers: { ...formHeaders, expect: "100-continue", "content-length": "5" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("continue", () => req.end("shop="));
      req.on("error", reject);
    });
    expect(ok).toBe(200);
  });

  it("bodies under the cap still reach the route: a signed 2 MiB webhook is verified and processed", async () => {
    // Over the API's 1 MiB MAX_BODY_BYTES, under the webhook cap.
    const body = JSON.stringify({ id: 1, name: "Limits Store", padding: "x".repeat(2 * MiB) });
    const res = await fetch(`${server.url}/webhooks/shop/update`, {
      method: "POST",
      headers: { ...webhookHeaders(), "x-shopify-topic": "shop/update", "x-shopify-hmac-sha256": getHmac(body, SECRET) },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    // A wrong signature on the same body is still the library's 401: the cap reads, the route verifies.
    const forged = await fetch(`${server.url}/webhooks/shop/update`, {
      method: "POST",
      headers: { ...webhookHeaders(), "x-shopify-topic": "shop/update" },
      body,
    });
    expect(forged.status).toBe(401);
  });

  it("a form just under the page cap is read and answered by the page, chunked too", async () => {
    const form = `shop=&pad=${"p".repeat(PAGE_LIMIT - 20)}`;
    const login = await fetch(`${server.url}/auth/login`, { method: "POST", headers: formHeaders, body: form });
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("Enter your store");
    const chunked = await streamPost(`${server.url}/en/lists`, formHeaders, PAGE_LIMIT - 1, true);
    expect(chunked.status).not.toBe(413);
    expect(chunked.status).toBeLessThan(500);
  });
});

describe("slow connections", () => {
  let server: TestServer;
  const HEADERS_TIMEOUT = 1000;
  const REQUEST_TIMEOUT = 2000;
  const PER_CLIENT = 100;
  beforeAll(async () => {
    server = await startServer({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: "1000",
      MAX_CONNECTIONS_PER_CLIENT: String(PER_CLIENT),
    });
  });
  afterAll(() => server?.stop());

  interface Slow {
    closed: Promise<void>;
    answer: () => string;
    socket: net.Socket;
    isClosed: () => boolean;
  }

  /**
   * A connection from 127.0.0.2 (another client than the health checks on
   * 127.0.0.1) that sends `head` and then one more byte of `trickle` every 100 ms.
   */
  function slowConnection(port: number, head: string, trickle: string): Slow {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: "127.0.0.2" });
    let answer = "";
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("latin1");
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(trickle[i++ % trickle.length]!);
      }, 100);
    });
    let isClosed = false;
    const closed = new Promise<void>((resolve) => socket.on("close", () => (clearInterval(timer), (isClosed = true), resolve())));
    return { closed, answer: () => answer, socket, isClosed: () => isClosed };
  }

  it("300 slow-header connections from one client: past the cap closed at once, the rest cut off by the headers timeout; /health answers throughout", async () => {
    const port = Number(new URL(server.url).port);
    const started = Date.now();
    const slow = Array.from({ length: 300 }, () => slowConnection(port, "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n", "X-Slow: aaaaaaaa\r\n"));
    let open = slow.length;
    const allClosed = Promise.all(slow.map((s) => s.closed.then(() => open--)));

    // Health checks from another address every 100 ms until every slow connection is gone, at most 10 s.
    const health: number[] = [];
    const deadline = Date.now() + 10_000;
    while (open > 0 && Date.now() < deadline) {
      const res = await fetch(`${server.url}/api/v1/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
      health.push(res?.status ?? 0);
      await res?.arrayBuffer();
      await pause(100, "the pace of the health probes while the slow connections are open");
    }
    const stillOpen = open;
    const timedOut = slow.filter((s) => s.isClosed() && s.answer().startsWith("HTTP/1.1 408")).length;
    const refused = slow.filter((s) => s.isClosed() && s.answer() === "").length;
    for (const s of slow) s.socket.destroy();
    await allClosed;
    console.log(
      `slow connections: ${slow.length}, refused at once ${refused}, 408 by the headers timeout ${timedOut}, still open after ${Date.now() - started} ms: ${stillOpen}; health checks ${health.filter((s) => s === 200).length}/${health.length} ok`,
    );
    expect(stillOpen).toBe(0);
    expect(refused).toBeGreaterThanOrEqual(slow.length - PER_CLIENT);
    expect(timedOut + refused).toBe(slow.length);
    // Every check began while slow connections were still open; how many fit depends on the machine's load.
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((s) => s === 200)).toBe(true);

    // The closed connections no longer count: the same client is served again.
    const again = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/v1/health", localAddress: "127.0.0.2", agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject);
    });
    expect(again).toBe(200);
  });

  it("a body sent one byte at a time is cut off by the request timeout", async () => {
    const port = Number(new URL(server.url).port);
    const slow = slowConnection(port, `POST /en/lists HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n`, "a");
    const cut = await Promise.race([slow.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), REQUEST_TIMEOUT + 5000))]);
    slow.socket.destroy();
    expect(cut).toBe(true);
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
  });
});

describe("configuration", () => {
  it("timeouts and caps have safe defaults and are validated", async () => {
    const { parseEnv } = await import("~/env.server");
    expect(parseEnv({})).toMatchObject({
      PAGE_MAX_BODY_BYTES: 65536,
      WEBHOOK_MAX_BODY_BYTES: 5 * MiB,
      HTTP_HEADERS_TIMEOUT_MS: 20_000,
      HTTP_REQUEST_TIMEOUT_MS: 300_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000,
      MAX_CONNECTIONS: 10_000,
      MAX_CONNECTIONS_PER_CLIENT: 256,
    });
    expect(() => parseEnv({ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "1000" })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => parseEnv({ MAX_CONNECTIONS: "0" })).toThrow(/MAX_CONNECTIONS/);
    expect(() => parseEnv({ PAGE_MAX_BODY_BYTES: "10" })).toThrow(/PAGE_MAX_BODY_BYTES/);
    expect(() => parseEnv({ HTTP_REQUEST_TIMEOUT_MS: "soon" })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });
});
