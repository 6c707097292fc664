// GET /images/proxy?url= (SPEC 7.3, 7.5): images from a local fixture origin
// (FETCH_TEST_ALLOW_HOSTS), type read from the bytes, size cap, the origin's
// error status passed on, private addresses refused, cache.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blackBitmapPng } from "../support/images.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { expectAllDocumented, expectError, fixtureServer } from "../support/fixtures.ts";

const MAX = 100_000;
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(32, 2)]);
const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([40, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(32, 3)]);
const avif = Buffer.concat([Buffer.from([0, 0, 0, 28]), Buffer.from("ftypavif"), Buffer.alloc(4), Buffer.from("avifmif1miaf"), Buffer.alloc(32, 4)]);

let origin: Awaited<ReturnType<typeof fixtureServer>>;
let blocked: Awaited<ReturnType<typeof fixtureServer>>;
let server: InProcessServer;

const image = (body: Buffer, type: string, headers: Record<string, string> = {}) => (_req: unknown, res: any) =>
  res.writeHead(200, { "content-type": type, "content-length": body.length, ...headers }).end(body);

beforeAll(async () => {
  // 144 million pixels in about 20 KB: under the byte cap, far over IMAGE_MAX_PIXELS (40 million).
  const bomb = await blackBitmapPng(12_000, 12_000);
  origin = await fixtureServer({
    "/bomb.png": image(bomb, "image/png"),
    "/a.png": image(png, "image/png", { "cache-control": "public, max-age=600" }),
    "/a.jpg": image(jpeg, "image/jpeg"),
    "/a.gif": image(gif, "image/gif"),
    "/a.webp": image(webp, "image/webp"),
    "/a.avif": image(avif, "image/avif"),
    // The type comes from the bytes: a PNG sent as octet-stream is a PNG.
    "/untyped": image(png, "application/octet-stream"),
    "/nostore.png": image(png, "image/png", { "cache-control": "no-store" }),
    "/page.png": image(Buffer.from("<html><script>alert(1)</script></html>"), "image/png"),
    "/a.svg": image(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), "image/svg+xml"),
    "/big.png": image(Buffer.concat([png, Buffer.alloc(MAX + 1)]), "image/png"),
    // No Content-Length: the cap stops the stream itself.
    "/endless.png": (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.write(png);
      res.end(Buffer.alloc(MAX * 2));
    },
    "/missing.png": (_req, res) => res.writeHead(404, { "content-type": "text/plain" }).end("no"),
    "/down.png": (_req, res) => res.writeHead(503, { "content-type": "text/plain" }).end("down"),
    "/moved.png": (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
  });
  // A second local server NOT on the allow-list: a private address like any other.
  blocked = await fixtureServer({ "/a.png": image(png, "image/png") });
  server = await startInProcess({ FETCH_TEST_ALLOW_HOSTS: origin.hostPort, IMAGE_PROXY_MAX_BYTES: String(MAX) });
});

afterAll(async () => {
  if (server) expectAllDocumented(server.output());
  await server?.stop();
  await origin?.close();
  await blocked?.close();
});

const proxy = (url: string | null) =>
  server.fetch(`${server.baseUrl}/images/proxy${url === null ? "" : `?url=${encodeURIComponent(url)}`}`);

async function errorOf(res: Response) {
  return { status: res.status, body: await res.json() };
}

describe("GET /images/proxy", () => {
  it("serves each image type with the type read from its bytes", async () => {
    for (const [path, body, type] of [
      ["/a.png", png, "image/png"],
      ["/a.jpg", jpeg, "image/jpeg"],
      ["/a.gif", gif, "image/gif"],
      ["/a.webp", webp, "image/webp"],
      ["/a.avif", avif, "image/avif"],
      ["/untyped", png, "image/png"],
    ] as const) {
      const res = await proxy(origin.origin + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("keeps images as long as the origin allows (Cache-Control), not no-store ones", async () => {
    expect((await proxy(`${origin.origin}/a.png`)).status).toBe(200);
    const before = origin.hits.filter((p) => p === "/a.png").length;
    const res = await proxy(`${origin.origin}/a.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cache")).toBe("hit");
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect(origin.hits.filter((p) => p === "/a.png").length).toBe(before);

    for (let i = 0; i < 2; i++) {
      const r = await proxy(`${origin.origin}/nostore.png`);
      expect(r.headers.get("x-cache")).toBe("miss");
      expect(r.headers.get("cache-control")).toBe("no-cache");
    }
    expect(origin.hits.filter((p) => p === "/nostore.png")).toHaveLength(2);
  });

  it("passes the origin's error status on as upstream_error with `status`", async () => {
    expect(await errorOf(await proxy(`${origin.origin}/missing.png`))).toMatchObject({ status: 404, body: { error: "upstream_error", status: 404 } });
    expect(await errorOf(await proxy(`${origin.origin}/down.png`))).toMatchObject({ status: 503, body: { error: "upstream_error", status: 503 } });
  });

  it("refuses what is not an image, and images over the size cap (502 upstream_error)", async () => {
    for (const path of ["/page.png", "/a.svg"]) {
      expect(await errorOf(await proxy(origin.origin + path))).toMatchObject({
        status: 502,
        body: { error: "upstream_error", status: 502, reason: "not_an_image" },
      });
    }
    for (const path of ["/big.png", "/endless.png"]) {
      expect(await errorOf(await proxy(origin.origin + path))).toMatchObject({
        status: 502,
        body: { error: "upstream_error", status: 502, reason: "too_large" },
      });
    }
  });

  it("refuses an image whose header describes more than IMAGE_MAX_PIXELS (502 upstream_error, too_many_pixels)", async () => {
    const res = await proxy(`${origin.origin}/bomb.png`);
    expect(await errorOf(res)).toMatchObject({
      status: 502,
      body: { error: "upstream_error", status: 502, reason: "too_many_pixels" },
    });
    // Not kept either: asked again, the origin is asked again.
    await proxy(`${origin.origin}/bomb.png`);
    expect(origin.hits.filter((p) => p === "/bomb.png")).toHaveLength(2);
  });

  it("400 invalid_or_disallowed_url: missing, malformed, not http(s), private addresses, redirects to them", async () => {
    for (const url of [
      null,
      "",
      "not a url",
      "ftp://example.com/a.png",
      "javascript:alert(1)",
      `${blocked.origin}/a.png`,
      "http://10.0.0.1/a.png",
      "http://localhost/a.png",
      "http://[::1]/a.png",
      `${origin.origin}/moved.png`,
    ]) {
      const res = await proxy(url);
      expectError({ status: res.status, body: await res.json(), headers: res.headers, text: "" }, 400, "invalid_or_disallowed_url");
    }
    expect(blocked.hits).toEqual([]);
  });
});
