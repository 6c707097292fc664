// Static files of build/client: served from an in-memory index
// built at boot (app/server/static-files.ts), with year-long caching for
// hashed assets, ETag revalidation, HEAD, compressed copies, and nothing
// outside the index ever reachable.
import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { root } from "../support/server.ts";
import { until } from "../support/wait.ts";

let base: string;
beforeAll(() => {
  base = inject("server").url;
});

const clientDir = path.join(root, "build/client");
// The largest built script: big enough to be worth compressing.
const asset = readdirSync(path.join(clientDir, "assets"))
  .filter((name) => name.endsWith(".js"))
  .map((name) => ({ name, bytes: readFileSync(path.join(clientDir, "assets", name)) }))
  .sort((a, b) => b.bytes.length - a.bytes.length)[0]!;
const assetPath = `/assets/${asset.name}`;

const get = (p: string, init: RequestInit = {}) => fetch(base + p, { redirect: "manual", ...init });

/** A raw request (fetch would decompress and hide Content-Encoding). */
function raw(p: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + p, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("hashed assets", () => {
  it("are served with their bytes, a JavaScript type, a year of immutable caching, an ETag and nosniff", async () => {
    const res = await get(assetPath);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(asset.bytes)).toBe(true);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answer 304 without a body when If-None-Match names the ETag (strong or weak)", async () => {
    const etag = (await get(assetPath)).headers.get("etag")!;
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await get(assetPath, { headers: { "if-none-match": tag } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
    expect((await get(assetPath, { headers: { "if-none-match": '"stale"' } })).status).toBe(200);
  });

  it("answer HEAD with the headers of GET and no body", async () => {
    const res = await get(assetPath, { method: "HEAD", headers: { "accept-encoding": "identity" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(asset.bytes.length));
    expect(res.headers.get("etag")).toMatch(/^"/);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const)("go out %s-compressed to clients that accept it (once the copy is made), the same bytes once decoded", async (encoding, decode) => {
    // The compressed copy is made in the background on the first request that asks for it; until then, the plain bytes.
    const res = await until(
      `a ${encoding} copy of the asset`,
      () => raw(assetPath, { "accept-encoding": encoding }),
      (res) => {
        if (res.headers["content-encoding"] === undefined) expect(res.body.equals(asset.bytes)).toBe(true);
        return res.headers["content-encoding"] !== undefined;
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe(encoding);
    expect(res.headers["vary"]).toMatch(/accept-encoding/i);
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(asset.bytes.length);
    expect(decode(res.body).equals(asset.bytes)).toBe(true);
  });

  it("go out uncompressed when the client refuses every encoding", async () => {
    const res = await raw(assetPath, { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.equals(asset.bytes)).toBe(true);
  });
});

describe("other files of build/client", () => {
  it("are cached for an hour", async () => {
    const res = await get("/favicon.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await res.text()).toBe(readFileSync(path.join(clientDir, "favicon.svg"), "utf8"));
  });
});

describe("paths that are not a built file", () => {
  it("fall through to the app's 404 page", async () => {
    const res = await get("/assets/no-such-file.js");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
  });

  it.each(["/..%2fpackage.json", "/assets/..%2f..%2fpackage.json", "/assets/%2e%2e/%2e%2e/package.json", "/%2e%2e%2f%2e%2e%2fpackage.json", "/.gitkeep"])(
    "%s reaches no file outside the index",
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('"wishlist-service"');
    }
  );

  it("a write to an asset path is not answered with the file", async () => {
    const res = await get(assetPath, { method: "POST", headers: { origin: base } });
    expect(res.status).not.toBe(200);
    expect(res.headers.get("etag")).toBeNull();
  });
});
