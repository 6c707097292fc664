// The guarded fetcher (GUIDE section 8), imported in-process. Two local
// servers are allowed through FETCH_TEST_ALLOW_HOSTS by exact host:port; a
// third one listens too but is not allowed, so refusals are the guard's
// doing and not a closed port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

type Mod = typeof import("~/lib/net/guarded-fetch.server");
let mod: Mod;
let allowed: http.Server;
let second: http.Server;
let notAllowed: http.Server;
let A: string; // http://127.0.0.1:<allowed port>
let C: string; // second allowed origin
let blockedPort: number;
const logLines: string[] = [];

function listen(handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}
const portOf = (s: http.Server) => (s.address() as AddressInfo).port;
function close(s: http.Server | undefined): Promise<void> {
  if (!s) return Promise.resolve();
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let data = "";
  for await (const chunk of req) data += chunk;
  return data;
}

const handler: http.RequestListener = async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  const p = url.pathname;
  if (p === "/ok") return res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("hello");
  if (p === "/echo") {
    const body = await readBody(req);
    return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method, headers: req.headers, body }));
  }
  if (p === "/redirect") return res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to")! }).end();
  if (p.startsWith("/hop/")) {
    const n = Number(p.slice(5));
    return n > 0 ? res.writeHead(302, { location: `/hop/${n - 1}` }).end() : res.writeHead(200).end("arrived");
  }
  if (p === "/loop") return res.writeHead(301, { location: "/loop" }).end();
  if (p === "/big") return res.writeHead(200, { "content-type": "text/plain", "content-length": 2_000_000 }).end(Buffer.alloc(2_000_000, 97));
  if (p === "/big-chunked") {
    res.writeHead(200, { "content-type": "text/plain" });
    for (let i = 0; i < 100; i++) res.write(Buffer.alloc(20_000, 98));
    return res.end();
  }
  if (p === "/gzip-bomb") {
    const zipped = zlib.gzipSync(Buffer.alloc(5_000_000, 0));
    return res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(zipped);
  }
  if (p === "/gzip") return res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(zlib.gzipSync("unzipped text"));
  if (p === "/slow") return; // never answers
  if (p === "/drip") {
    res.writeHead(200, { "content-type": "text/plain" });
    const t = setInterval(() => res.write("x"), 50);
    res.on("close", () => clearInterval(t));
    return;
  }
  if (p === "/status500") return res.writeHead(500).end("broken");
  if (p === "/html") return res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
  if (p === "/png") return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from("89504e470d0a1a0a", "hex"));
  if (p === "/cookie") return res.writeHead(200, { "set-cookie": ["a=1", "b=2"], "content-type": "text/plain" }).end("c");
  res.writeHead(404).end();
};

beforeAll(async () => {
  allowed = await listen(handler);
  second = await listen(handler);
  notAllowed = await listen((_req, res) => res.end("internal secret"));
  A = `http://127.0.0.1:${portOf(allowed)}`;
  C = `http://127.0.0.1:${portOf(second)}`;
  blockedPort = portOf(notAllowed);
  process.env.FETCH_TEST_ALLOW_HOSTS = `127.0.0.1:${portOf(allowed)}, 127.0.0.1:${portOf(second)}`;
  process.env.LOG_LEVEL = "warn";
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: any, ...rest: any[]) => {
    if (String(chunk).includes("FETCH_TEST_ALLOW_HOSTS")) logLines.push(String(chunk));
    return write(chunk, ...rest);
  });
  mod = await import("~/lib/net/guarded-fetch.server");
});

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([close(allowed), close(second), close(notAllowed)]);
});

const opts = { maxBytes: 1_000_000, timeoutMs: 3000 };

async function failure(url: string, extra: Partial<Parameters<Mod["guardedFetch"]>[1]> = {}) {
  try {
    await mod.guardedFetch(url, { ...opts, ...extra });
  } catch (err) {
    expect(err).toBeInstanceOf(mod.FetchError);
    return err as InstanceType<Mod["FetchError"]>;
  }
  throw new Error(`fetch of ${url} succeeded`);
}

describe("guardedFetch: refused addresses", () => {
  it("refuses 127.0.0.1 (a listening port that is not in the test allowance)", async () => {
    expect((await failure(`http://127.0.0.1:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("refuses 10.0.0.0/8 (10.1.2.3)", async () => {
    expect((await failure("http://10.1.2.3/")).code).toBe("blocked_address");
  });

  it("refuses the metadata address 169.254.169.254", async () => {
    expect((await failure("http://169.254.169.254/latest/meta-data/")).code).toBe("blocked_address");
  });

  it("refuses [::1]", async () => {
    expect((await failure(`http://[::1]:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("refuses IPv4-mapped loopback [::ffff:127.0.0.1]", async () => {
    expect((await failure(`http://[::ffff:127.0.0.1]:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("refuses decimal-encoded loopback http://2130706433/", async () => {
    expect((await failure(`http://2130706433:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("refuses hex-encoded loopback http://0x7f000001/ and http://0x7f.0.0.1/", async () => {
    expect((await failure(`http://0x7f000001:${blockedPort}/`)).code).toBe("blocked_address");
    expect((await failure(`http://0x7f.0.0.1:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("refuses octal-encoded loopback http://0177.0.0.1/", async () => {
    expect((await failure(`http://0177.0.0.1:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("refuses a host name that resolves to loopback (localhost), checked after DNS resolution", async () => {
    expect((await failure(`http://localhost:${blockedPort}/`)).code).toBe("blocked_address");
  });

  it("the test allowance is exact: localhost on an allowed port is still refused", async () => {
    expect((await failure(`http://localhost:${portOf(allowed)}/ok`)).code).toBe("blocked_address");
  });

  it.each([
    "http://0.0.0.0/",
    "http://127.1/",
    "http://[::]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://192.0.0.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
  ])("refuses special-purpose address %s", async (url) => {
    expect((await failure(url)).code).toBe("blocked_address");
  });

  it.each(["file:///etc/passwd", "ftp://example.com/x", "gopher://example.com/", "javascript:alert(1)", "not a url"])(
    "refuses non-http(s) URL %s as invalid_url",
    async (url) => {
      expect((await failure(url)).code).toBe("invalid_url");
    },
  );

  it("classifies public unicast addresses as allowed", () => {
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(mod.isPublicAddress(ip), ip).toBe(true);
    for (const ip of ["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "::ffff:10.0.0.1", "2001:db8::1", "garbage"]) {
      expect(mod.isPublicAddress(ip), ip).toBe(false);
    }
  });
});

describe("guardedFetch: ports", () => {
  // Refused before any connection: no DNS lookup and no socket, so these need no network.
  it.each(["http://93.184.216.34:8080/", "https://93.184.216.34:22/", "http://example.com:6379/", "https://example.com:8443/x", "http://[2606:4700:4700::1111]:25/"])(
    "refuses public hosts on a port other than 80 and 443: %s",
    async (url) => {
      const err = await failure(url);
      expect(err.code).toBe("blocked_address");
      expect(err.message).toBe("Only ports 80 and 443 can be fetched");
    },
  );

  it("refuses a redirect hop to a public host on another port", async () => {
    const err = await failure(`${A}/redirect?to=${encodeURIComponent("http://93.184.216.34:3306/")}`);
    expect(err).toMatchObject({ code: "blocked_address", message: "Only ports 80 and 443 can be fetched" });
  });

  it("an explicit :80 or :443 passes the port rule (and then the address rule decides)", async () => {
    expect((await failure("http://10.0.0.1:80/")).message).toBe("The address is not allowed");
    expect((await failure("https://10.0.0.1:443/")).message).toBe("The address is not allowed");
  });

  it("an exact FETCH_TEST_ALLOW_HOSTS host:port may use its own port", async () => {
    expect((await mod.guardedFetch(`${A}/ok`, opts)).status).toBe(200);
  });
});

describe("guardedFetch: redirects", () => {
  const via = (to: string, status = 302) => `${A}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it("refuses a redirect from an allowed server to a private port that is not allowed", async () => {
    expect((await failure(via(`http://127.0.0.1:${blockedPort}/`))).code).toBe("blocked_address");
  });

  it("refuses a redirect from an allowed server to http://169.254.169.254/", async () => {
    expect((await failure(via("http://169.254.169.254/latest/meta-data/"))).code).toBe("blocked_address");
  });

  it("refuses a redirect to a name resolving to loopback and to a non-http scheme", async () => {
    expect((await failure(via(`http://localhost:${blockedPort}/`))).code).toBe("blocked_address");
    expect((await failure(via("file:///etc/passwd"))).code).toBe("invalid_url");
  });

  it("follows allowed redirects and reports the final URL", async () => {
    const res = await mod.guardedFetch(`${A}/hop/3`, opts);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("arrived");
    expect(res.url).toBe(`${A}/hop/0`);
  });

  it("stops after maxRedirects (default 3)", async () => {
    expect((await failure(`${A}/hop/4`)).code).toBe("too_many_redirects");
    expect((await failure(`${A}/loop`)).code).toBe("too_many_redirects");
    expect((await failure(`${A}/hop/1`, { maxRedirects: 0 })).code).toBe("too_many_redirects");
  });

  it("303 turns a POST into a GET without body; 307 keeps method and body", async () => {
    const seeOther = await mod.guardedFetch(via(`${A}/echo`, 303), { ...opts, method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(JSON.parse(seeOther.body.toString())).toMatchObject({ method: "GET", body: "" });
    const temporary = await mod.guardedFetch(via(`${A}/echo`, 307), { ...opts, method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" } });
    expect(JSON.parse(temporary.body.toString())).toMatchObject({ method: "POST", body: '{"a":1}' });
  });

  it("keeps credentials on the same origin and drops them across origins", async () => {
    const headers = { authorization: "Bearer secret", "x-signature": "sig", accept: "application/json" };
    const same = JSON.parse((await mod.guardedFetch(via(`${A}/echo`), { ...opts, headers })).body.toString());
    expect(same.headers).toMatchObject({ authorization: "Bearer secret", "x-signature": "sig" });
    const cross = JSON.parse((await mod.guardedFetch(via(`${C}/echo`), { ...opts, headers })).body.toString());
    expect(cross.headers.authorization).toBeUndefined();
    expect(cross.headers["x-signature"]).toBeUndefined();
    expect(cross.headers.accept).toBe("application/json");
  });
});

describe("guardedFetch: allowed requests and limits", () => {
  it("fetches from the allowed local server", async () => {
    const res = await mod.guardedFetch(`${A}/ok`, opts);
    expect(res).toMatchObject({ url: `${A}/ok`, status: 200, contentType: "text/plain" });
    expect(res.body.toString()).toBe("hello");
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("sends a fixed User-Agent, no cookies, and POST bodies with caller headers (webhook use)", async () => {
    const res = await mod.guardedFetch(`${A}/echo`, {
      ...opts,
      method: "POST",
      body: '{"event":"basket"}',
      headers: { "content-type": "application/json", "x-signature": "abc", cookie: "session=1", "user-agent": "spoofed" },
    });
    const echoed = JSON.parse(res.body.toString());
    expect(echoed.method).toBe("POST");
    expect(echoed.body).toBe('{"event":"basket"}');
    expect(echoed.headers["x-signature"]).toBe("abc");
    expect(echoed.headers["user-agent"]).toMatch(/^WishlistBot\/1\.0 \(\+http/);
    expect(echoed.headers.cookie).toBeUndefined();
  });

  it("keeps response cookies out of later requests and still exposes the headers", async () => {
    const res = await mod.guardedFetch(`${A}/cookie`, opts);
    expect(res.headers.get("set-cookie")).toContain("a=1");
    const echoed = JSON.parse((await mod.guardedFetch(`${A}/echo`, opts)).body.toString());
    expect(echoed.headers.cookie).toBeUndefined();
  });

  it("decodes gzip bodies", async () => {
    expect((await mod.guardedFetch(`${A}/gzip`, opts)).body.toString()).toBe("unzipped text");
  });

  it("refuses bodies over maxBytes: by Content-Length, while streaming, and after decompression", async () => {
    expect((await failure(`${A}/big`, { maxBytes: 1000 })).code).toBe("too_large");
    expect((await failure(`${A}/big-chunked`, { maxBytes: 100_000 })).code).toBe("too_large");
    expect((await failure(`${A}/gzip-bomb`, { maxBytes: 1_000_000 })).code).toBe("too_large");
  });

  it("times out a server that never answers and one that never finishes the body", async () => {
    const started = Date.now();
    expect((await failure(`${A}/slow`, { timeoutMs: 300 })).code).toBe("timeout");
    expect((await failure(`${A}/drip`, { timeoutMs: 300 })).code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("checks the content type when asked (HTML where an image was expected)", async () => {
    expect((await failure(`${A}/html`, { acceptContentType: /^image\/(png|jpeg)$/ })).code).toBe("bad_content_type");
    const png = await mod.guardedFetch(`${A}/png`, { ...opts, acceptContentType: /^image\/(png|jpeg)$/ });
    expect(png.contentType).toBe("image/png");
  });

  it("reports non-2xx answers as http_error with the status", async () => {
    const err = await failure(`${A}/status500`);
    expect(err.code).toBe("http_error");
    expect(err.status).toBe(500);
  });

  it("logs a warning about the test allowance once, however many fetches", () => {
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toContain('"level":"warn"');
  });

  it("reports a refused connection on an allowed host:port as network_error", async () => {
    const dead = await listen(() => {});
    const port = portOf(dead);
    await close(dead);
    process.env.FETCH_TEST_ALLOW_HOSTS += `,127.0.0.1:${port}`;
    vi.resetModules();
    const fresh: Mod = await import("~/lib/net/guarded-fetch.server");
    await expect(fresh.guardedFetch(`http://127.0.0.1:${port}/`, opts)).rejects.toMatchObject({ code: "network_error" });
  });
});
