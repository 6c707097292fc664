// Image copies: copyImage runs in-process (local driver writing into the
// DATA_DIR of a real app server, which then serves the copy), and once more
// with the s3 driver against a fake S3 endpoint that records PUTs.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type TestServer } from "../support/server.ts";

type Store = typeof import("~/domains/media/image-store.server");

// Minimal files with the real signatures of each format.
const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(32, 1)]);
const JPEG = Buffer.concat([Buffer.from("ffd8ffe000104a464946", "hex"), Buffer.alloc(32, 2)]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([40, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(28, 3)]);
const GIF = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(20, 4)]);
const AVIF = Buffer.concat([Buffer.from([0, 0, 0, 28]), Buffer.from("ftypmif1"), Buffer.from([0, 0, 0, 0]), Buffer.from("mif1avifmiaf"), Buffer.alloc(16, 5)]);
// Only ever copied with the s3 driver.
const FRESH = Buffer.concat([Buffer.from("ffd8ffdb", "hex"), Buffer.alloc(40, 9)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
const HTML = Buffer.from("<!doctype html><html><script>alert(1)</script></html>");

const images: Record<string, { type: string; body: Buffer }> = {
  "/cat.png": { type: "image/png", body: PNG },
  "/photo.jpg": { type: "image/jpeg", body: JPEG },
  "/fresh.jpg": { type: "image/jpeg", body: FRESH },
  "/photo-mislabelled.jpg": { type: "image/jpg", body: JPEG },
  "/pic.webp": { type: "image/webp", body: WEBP },
  "/anim.gif": { type: "image/gif", body: GIF },
  "/new.avif": { type: "image/avif", body: AVIF },
  "/svg-as-png": { type: "image/png", body: SVG },
  "/html-as-png": { type: "image/png", body: HTML },
  "/logo.svg": { type: "image/svg+xml", body: SVG },
  "/page": { type: "text/html", body: HTML },
  "/png-as-jpeg": { type: "image/jpeg", body: PNG },
  "/huge.png": { type: "image/png", body: Buffer.concat([PNG, Buffer.alloc(11 * 1024 * 1024)]) },
};

let origin: http.Server;
let O: string;
let dataDir: string;
let server: TestServer;
let store: Store;

function listen(handler: http.RequestListener): Promise<http.Server> {
  const s = http.createServer(handler);
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}
const portOf = (s: http.Server) => (s.address() as AddressInfo).port;
function close(s: http.Server | undefined): Promise<void> {
  if (!s) return Promise.resolve();
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}

/** Imports the store afresh under the given configuration (env is parsed at import). */
async function loadStore(vars: Record<string, string | undefined>): Promise<Store> {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  vi.resetModules();
  return import("~/domains/media/image-store.server");
}

async function copyFailure(s: Store, url: string): Promise<{ code: string; message: string }> {
  try {
    await s.copyImage(url);
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error(`copy of ${url} succeeded`);
}

beforeAll(async () => {
  origin = await listen((req, res) => {
    const img = images[new URL(req.url ?? "/", "http://x").pathname];
    if (!img) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": img.type, "content-length": img.body.length }).end(img.body);
  });
  O = `http://127.0.0.1:${portOf(origin)}`;
  dataDir = mkdtempSync(path.join(tmpdir(), "wish-media-"));
  server = await startServer({ DATA_DIR: dataDir });
  store = await loadStore({
    DATA_DIR: dataDir,
    APP_URL: server.url,
    STORAGE_DRIVER: "local",
    FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${portOf(origin)}`,
    LOG_LEVEL: "error",
  });
});

afterAll(async () => {
  await server?.stop();
  await close(origin);
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("copyImage (local driver) and GET /media/images/:file", () => {
  it("copies an image and the app serves the stored copy with its type and immutable caching", async () => {
    const stored = await store.copyImage(`${O}/cat.png`);
    expect(stored).toEqual({
      path: `/media/images/${sha(PNG)}.png`,
      url: `${server.url}/media/images/${sha(PNG)}.png`,
      contentType: "image/png",
      bytes: PNG.length,
    });
    const res = await fetch(stored.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // Revalidation by ETag.
    const again = await fetch(stored.url, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it.each([
    ["/photo.jpg", "jpg", "image/jpeg", JPEG],
    ["/photo-mislabelled.jpg", "jpg", "image/jpeg", JPEG],
    ["/pic.webp", "webp", "image/webp", WEBP],
    ["/anim.gif", "gif", "image/gif", GIF],
    ["/new.avif", "avif", "image/avif", AVIF],
  ] as const)("stores %s as .%s served as %s", async (source, ext, type, bytes) => {
    const stored = await store.copyImage(`${O}${source}`);
    expect(stored.path).toBe(`/media/images/${sha(bytes)}.${ext}`);
    const res = await fetch(`${server.url}${stored.path}`);
    expect(res.headers.get("content-type")).toBe(type);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("stores the same image once (content-addressed, no temp files left)", async () => {
    const a = await store.copyImage(`${O}/cat.png`);
    const b = await store.copyImage(`${O}/cat.png?size=large`);
    expect(a.path).toBe(b.path);
    const files = readdirSync(path.join(dataDir, "images"));
    expect(files.filter((f) => f.startsWith(sha(PNG)))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it.each(["/svg-as-png", "/html-as-png", "/logo.svg", "/page", "/png-as-jpeg"])(
    "refuses %s (SVG, HTML, or bytes that disagree with the declared type) and stores nothing",
    async (source) => {
      const before = readdirSync(path.join(dataDir, "images")).length;
      expect((await copyFailure(store, `${O}${source}`)).code).toBe("bad_content_type");
      expect(readdirSync(path.join(dataDir, "images"))).toHaveLength(before);
    },
  );

  it("refuses images over 10 MB", async () => {
    expect((await copyFailure(store, `${O}/huge.png`)).code).toBe("too_large");
  });

  it("goes through the guarded fetcher: private addresses are refused", async () => {
    expect((await copyFailure(store, "http://169.254.169.254/latest/meta-data/x.png")).code).toBe("blocked_address");
    expect((await copyFailure(store, `http://[::1]:${portOf(origin)}/cat.png`)).code).toBe("blocked_address");
  });

  it.each([
    "/media/images/not-a-hash.png",
    `/media/images/${"a".repeat(64)}.png`,
    `/media/images/${"a".repeat(64)}.svg`,
    `/media/images/${"A".repeat(64)}.png`,
    "/media/images/..%2F..%2Fetc%2Fpasswd",
    "/media/images/%2e%2e%2fwishlist.db",
  ])("GET %s is a JSON 404 not_found", async (p) => {
    const res = await fetch(`${server.url}${p}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("readLocalImage accepts only strict content-hash names", async () => {
    for (const name of ["../../etc/passwd", `../images/${"a".repeat(64)}.png`, `${"a".repeat(64)}.png/`, ""]) {
      expect(await store.readLocalImage(name), name).toBeNull();
    }
  });
});

describe("copyImage (s3 driver)", () => {
  interface Put {
    method: string;
    url: string;
    headers: http.IncomingHttpHeaders;
    body: Buffer;
  }
  const puts: Put[] = [];
  let s3: http.Server;
  let failNext = false;

  beforeAll(async () => {
    s3 = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      puts.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      if (failNext) return res.writeHead(403, { "content-type": "application/xml" }).end("<Error><Code>AccessDenied</Code></Error>");
      res.writeHead(200, { etag: '"x"' }).end();
    });
  });

  afterAll(async () => {
    await close(s3);
  });

  it("PUTs the image to the bucket, signed with SigV4, and links the public URL", async () => {
    const s3Store = await loadStore({
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: `http://127.0.0.1:${portOf(s3)}`,
      S3_BUCKET: "wish-images",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "AKIDEXAMPLE",
      S3_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      S3_PUBLIC_URL: "https://cdn.example.com/",
    });
    const stored = await s3Store.copyImage(`${O}/fresh.jpg`);
    const key = `images/${sha(FRESH)}.jpg`;
    expect(stored).toEqual({ path: key, url: `https://cdn.example.com/${key}`, contentType: "image/jpeg", bytes: FRESH.length });
    expect(puts).toHaveLength(1);
    const put = puts[0];
    expect(put.method).toBe("PUT");
    expect(put.url).toBe(`/wish-images/${key}`);
    expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request/);
    expect(put.headers["content-type"]).toBe("image/jpeg");
    expect(put.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(put.body.equals(FRESH)).toBe(true);
    // Nothing of it lands in the local directory.
    expect(readdirSync(path.join(dataDir, "images")).filter((f) => f.startsWith(sha(FRESH)))).toEqual([]);
  });

  it("a failing bucket makes the copy fail", async () => {
    failNext = true;
    const s3Store = await loadStore({});
    await expect(s3Store.copyImage(`${O}/cat.png`)).rejects.toThrow(/403/);
  });
});
