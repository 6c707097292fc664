// Creator media (SPEC 7.5, 7.4 no_partner, 8.4): uploads streamed whole or in
// chunks against size limits (small ones configured here, and the 10 MiB
// default), type checked from the bytes, finalised under the Creator Free
// video quota, listed, updated, deleted and served; partners see only their own.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, apiFor } from "../support/api.ts";
import { freshDatabaseUrl } from "../support/database.ts";
import { provisioner } from "../support/provision.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

const IMAGE_MAX = 64 * 1024;
const VIDEO_MAX = 256 * 1024;
const CHUNK = 16 * 1024;
const MiB = 1024 * 1024;

const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const JPEG_HEAD = Buffer.from("ffd8ffe000104a464946", "hex");
const WEBP_HEAD = Buffer.concat([Buffer.from("RIFF"), Buffer.from([40, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isommp41")]);
const MOV_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from("ftypqt  "), Buffer.from([0, 0, 2, 0]), Buffer.from("qt  ")]);
/** A file of `size` bytes starting with a format's signature. */
const file = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 7)]);

let small: TestServer;
let big: TestServer;
let api: Api;
let bigApi: Api;
let smallDir: string;
let prov: Awaited<ReturnType<typeof provisioner>>;
let createPat: (partnerId: number) => Promise<string>;
const q = (text: string, params: unknown[] = []) => sql<any>(small.databaseUrl, text, params);

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl();
  smallDir = mkdtempSync(path.join(tmpdir(), "media-small-"));
  small = await startServer({
    DATABASE_URL: databaseUrl,
    DATA_DIR: smallDir,
    MEDIA_MAX_IMAGE_BYTES: String(IMAGE_MAX),
    MEDIA_MAX_VIDEO_BYTES: String(VIDEO_MAX),
    MEDIA_CHUNK_BYTES: String(CHUNK),
  });
  // Default limits (10 MiB images), same database.
  big = await startServer({ DATABASE_URL: databaseUrl, DATA_DIR: mkdtempSync(path.join(tmpdir(), "media-big-")) });
  api = await apiFor(small);
  bigApi = await apiFor(big);
  prov = await provisioner(small);
  const tokens = await import("~/domains/partners/access-tokens.server");
  createPat = async (partnerId) => (await tokens.createPersonalAccessToken(partnerId, { name: "creator" })).token;
});

afterAll(async () => {
  await small?.stop();
  await big?.stop();
});

afterAll(() => {
  // No request may have left an undeclared error code behind.
  expect(small.output()).not.toContain("undocumented error code");
  expect(big.output()).not.toContain("undocumented error code");
  expect(small.output()).not.toContain("unhandled error");
});

/** A partner (plan), one of its shops and a personal access token. */
async function creator(plan = "free") {
  const partner = await prov.partner(plan);
  const shop = await prov.shop(partner.id);
  return { partnerId: partner.id, shopId: shop.id, token: await createPat(partner.id) };
}
type Creator = Awaited<ReturnType<typeof creator>>;

function start(c: { token: string }, body: unknown, on = api) {
  return on.post("/media/uploads", { token: c.token, body });
}

async function started(c: Creator, mime: string, bytes: number, on = api) {
  const res = await start(c, { shopId: c.shopId, mime, bytes }, on);
  expect(res.status, res.text).toBe(201);
  return res.body as { uploadId: string; storagePath: string; uploadUrl: string; chunkSize: number };
}

/** A PUT with a known-length body (Content-Length set). */
async function put(c: { token: string }, pathname: string, body: Buffer, on = api) {
  const res = await fetch(on.baseUrl + pathname, {
    method: "PUT",
    headers: { apikey: on.anonKey, authorization: `Bearer ${c.token}`, "content-type": "application/octet-stream" },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/**
 * A PUT whose body is generated as it is sent (chunked transfer, no
 * Content-Length): `total` bytes, `head` first. Stops writing as soon as the
 * answer arrives; resolves with it and how many bytes were written by then.
 */
function streamPut(on: Api, token: string, pathname: string, head: Buffer, total: number): Promise<{ status: number; body: any; sent: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(on.baseUrl + pathname);
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: "PUT", headers: { apikey: on.anonKey, authorization: `Bearer ${token}` } }, (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, sent: sentWhenAnswered });
      });
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    const block = Buffer.alloc(64 * 1024, 7);
    const pump = () => {
      while (!answered && sent < total) {
        let chunk = sent === 0 ? Buffer.concat([head, block]) : block;
        chunk = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const shopFiles = (shopId: number, dir = smallDir) => {
  const folder = path.join(dir, "media", String(shopId));
  return existsSync(folder) ? readdirSync(folder) : [];
};

async function uploadWhole(c: Creator, mime: string, body: Buffer, on = api) {
  const up = await started(c, mime, body.length, on);
  const res = await put(c, `/media/uploads/${up.uploadId}`, body, on);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ complete: true, receivedBytes: body.length });
  return up;
}

async function finalized(c: Creator, mime: string, body: Buffer, extra: Record<string, unknown> = {}) {
  const up = await uploadWhole(c, mime, body);
  const res = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: c.token, body: { storagePath: up.storagePath, ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("starting an upload", () => {
  it("answers the upload and where to send it", async () => {
    const c = await creator();
    const res = await start(c, { shopId: String(c.shopId), kind: "image", mime: "image/png", bytes: "1000", fileName: "cat.png" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      uploadId: expect.stringMatching(/^[0-9a-f]{32}$/),
      shopId: c.shopId,
      kind: "image",
      mime: "image/png",
      bytes: 1000,
      storagePath: expect.stringMatching(new RegExp(`^media/${c.shopId}/[0-9a-f]{32}\\.png$`)),
      uploadUrl: `${small.baseUrl}/media/uploads/${res.body.uploadId}`,
      chunkSize: CHUNK,
      receivedBytes: 0,
      nextChunk: 0,
      complete: false,
    });
  });

  it("checks shop, type and size", async () => {
    const c = await creator();
    const other = await creator();
    const cases: Array<[unknown, number, string]> = [
      [{ mime: "image/png", bytes: 10 }, 400, "invalid_shop_id"],
      [{ shopId: "abc", mime: "image/png", bytes: 10 }, 400, "invalid_shop_id"],
      [{ shopId: -1, mime: "image/png", bytes: 10 }, 400, "invalid_shop_id"],
      [{ shopId: 1.5, mime: "image/png", bytes: 10 }, 400, "invalid_shop_id"],
      [{ shopId: c.shopId, mime: "image/gif", bytes: 10 }, 400, "unsupported_mime"],
      [{ shopId: c.shopId, mime: "text/html", bytes: 10 }, 400, "unsupported_mime"],
      [{ shopId: c.shopId, bytes: 10 }, 400, "unsupported_mime"],
      [{ shopId: c.shopId, kind: "video", mime: "image/png", bytes: 10 }, 400, "unsupported_mime"],
      [{ shopId: c.shopId, kind: "audio", mime: "image/png", bytes: 10 }, 400, "unsupported_mime"],
      [{ shopId: c.shopId, mime: "image/png" }, 400, "invalid_bytes"],
      [{ shopId: c.shopId, mime: "image/png", bytes: "12a" }, 400, "invalid_bytes"],
      [{ shopId: c.shopId, mime: "image/png", bytes: 0 }, 400, "invalid_bytes"],
      [{ shopId: c.shopId, mime: "image/png", bytes: -5 }, 400, "invalid_bytes"],
      [{ shopId: c.shopId, mime: "image/png", bytes: 2.5 }, 400, "invalid_bytes"],
      [{ shopId: c.shopId, mime: "image/png", bytes: IMAGE_MAX + 1 }, 413, "file_too_large"],
      [{ shopId: c.shopId, mime: "video/mp4", bytes: VIDEO_MAX + 1 }, 413, "file_too_large"],
      [{ shopId: other.shopId, mime: "image/png", bytes: 10 }, 404, "not_found"],
      [{ shopId: 99_999_999, mime: "image/png", bytes: 10 }, 404, "not_found"],
    ];
    for (const [body, status, error] of cases) {
      const res = await start(c, body);
      expect([JSON.stringify(body), res.status, res.body?.error]).toEqual([JSON.stringify(body), status, error]);
    }
    expect((await start(c, { shopId: c.shopId, mime: "image/png", bytes: IMAGE_MAX })).status).toBe(201);
    expect((await start(c, { shopId: c.shopId, mime: "video/quicktime", bytes: VIDEO_MAX })).status).toBe(201);
  });

  it("403 no_partner for a portal user without a partner, on every media route", async () => {
    const user = await api.anonymousUser();
    const t = { token: user.accessToken };
    const c = await creator();
    const calls = [
      () => start(t, { shopId: c.shopId, mime: "image/png", bytes: 10 }),
      () => api.get(`/media?shopId=${c.shopId}`, t),
      () => api.request("PATCH", "/media/1", { ...t, body: { position: 1 } }),
      () => api.delete("/media/1", t),
      () => put(t, "/media/uploads/0123456789abcdef0123456789abcdef", Buffer.from("x")),
      () => api.get("/media/uploads/0123456789abcdef0123456789abcdef", t),
      () => put(t, "/media/uploads/0123456789abcdef0123456789abcdef/chunks/0", Buffer.from("x")),
      () => api.post("/media/uploads/0123456789abcdef0123456789abcdef/finalize", { ...t, body: { storagePath: "media/1/x.png" } }),
    ];
    for (const call of calls) {
      const res = await call();
      expect([res.status, res.body.error]).toEqual([403, "no_partner"]);
    }
    expect((await api.get(`/media?shopId=${c.shopId}`)).status).toBe(401);
  });
});

describe("size limits, streamed", () => {
  it("an image at the limit is stored whole; one byte more is cut off and its partial object deleted", async () => {
    const c = await creator();
    const up = await uploadWhole(c, "image/png", file(PNG_HEAD, IMAGE_MAX));
    expect(existsSync(path.join(smallDir, up.storagePath))).toBe(true);

    // Declared at the limit, streamed one byte over (no Content-Length).
    const over = await started(c, "image/png", IMAGE_MAX);
    const res = await streamPut(api, c.token, `/media/uploads/${over.uploadId}`, PNG_HEAD, IMAGE_MAX + 1);
    expect([res.status, res.body.error]).toEqual([413, "file_too_large"]);
    expect(shopFiles(c.shopId)).toEqual([path.basename(up.storagePath)]);
    // The upload is gone with it.
    expect((await put(c, `/media/uploads/${over.uploadId}`, file(PNG_HEAD, 100))).body.error).toBe("not_found");

    // A Content-Length over the declared size is refused before reading.
    const declared = await started(c, "image/png", 1000);
    const early = await put(c, `/media/uploads/${declared.uploadId}`, file(PNG_HEAD, 1001));
    expect([early.status, early.body.error]).toEqual([413, "file_too_large"]);
  });

  it("a video at the limit is stored in chunks; one byte more in the last chunk is cut off", async () => {
    const c = await creator();
    const video = file(MP4_HEAD, VIDEO_MAX);
    const up = await started(c, "video/mp4", VIDEO_MAX);
    for (let i = 0; i * CHUNK < VIDEO_MAX; i++) {
      const res = await put(c, `/media/uploads/${up.uploadId}/chunks/${i}`, video.subarray(i * CHUNK, (i + 1) * CHUNK));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ nextChunk: i + 1, receivedBytes: (i + 1) * CHUNK, complete: (i + 1) * CHUNK === VIDEO_MAX });
    }
    const fin = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: c.token, body: { storagePath: up.storagePath } });
    expect(fin.status, fin.text).toBe(201);
    const served = await fetch(fin.body.url);
    expect(served.headers.get("content-type")).toBe("video/mp4");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(Buffer.from(await served.arrayBuffer()).equals(video)).toBe(true);

    const over = await started(c, "video/mp4", VIDEO_MAX);
    const last = VIDEO_MAX / CHUNK - 1;
    for (let i = 0; i < last; i++) expect((await put(c, `/media/uploads/${over.uploadId}/chunks/${i}`, video.subarray(i * CHUNK, (i + 1) * CHUNK))).status).toBe(200);
    const res = await streamPut(api, c.token, `/media/uploads/${over.uploadId}/chunks/${last}`, Buffer.alloc(0), CHUNK + 1);
    expect([res.status, res.body.error]).toEqual([413, "file_too_large"]);
    expect(shopFiles(c.shopId)).toEqual([path.basename(up.storagePath)]);
    expect((await put(c, `/media/uploads/${over.uploadId}/chunks/${last}`, Buffer.alloc(CHUNK))).body.error).toBe("not_found");
  });

  it("a 250 MB stream against the 64 KiB image limit is answered 413 long before it is sent", async () => {
    const c = await creator();
    const up = await started(c, "image/png", IMAGE_MAX);
    const res = await streamPut(api, c.token, `/media/uploads/${up.uploadId}`, PNG_HEAD, 250 * MiB);
    expect([res.status, res.body.error]).toEqual([413, "file_too_large"]);
    // The answer came while most of the body was still unsent: the server stopped reading, it did not buffer.
    expect(res.sent).toBeLessThan(50 * MiB);
    expect(shopFiles(c.shopId)).toEqual([]);
    // The server is fine afterwards.
    expect((await api.get(`/media?shopId=${c.shopId}`, { token: c.token })).status).toBe(200);
  });

  it("default limit: a 10 MiB image is accepted, 10 MiB + 1 streamed from a generator is cut off", async () => {
    const c = await creator();
    await uploadWhole(c, "image/jpeg", file(JPEG_HEAD, 10 * MiB), bigApi);
    const tooBig = await start(c, { shopId: c.shopId, mime: "image/jpeg", bytes: 10 * MiB + 1 }, bigApi);
    expect([tooBig.status, tooBig.body.error]).toEqual([413, "file_too_large"]);
    const up = await started(c, "image/jpeg", 10 * MiB, bigApi);
    const res = await streamPut(bigApi, c.token, `/media/uploads/${up.uploadId}`, JPEG_HEAD, 10 * MiB + 1);
    expect([res.status, res.body.error]).toEqual([413, "file_too_large"]);
    const video = await start(c, { shopId: c.shopId, mime: "video/mp4", bytes: 200 * MiB + 1 }, bigApi);
    expect([video.status, video.body.error]).toEqual([413, "file_too_large"]);
  });
});

describe("upload bodies", () => {
  it("checks the type from the bytes, not the declared mime", async () => {
    const c = await creator();
    for (const [mime, head] of [
      ["image/png", PNG_HEAD],
      ["image/jpeg", JPEG_HEAD],
      ["image/webp", WEBP_HEAD],
      ["video/mp4", MP4_HEAD],
      ["video/quicktime", MOV_HEAD],
    ] as const) {
      await uploadWhole(c, mime, file(head, 2000));
    }
    for (const [mime, head] of [
      ["image/jpeg", PNG_HEAD], // a PNG named .jpg
      ["image/png", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'>")],
      ["video/quicktime", MP4_HEAD],
      ["video/mp4", MOV_HEAD],
      ["video/mp4", PNG_HEAD],
    ] as const) {
      const up = await started(c, mime, 2000);
      const res = await put(c, `/media/uploads/${up.uploadId}`, file(head, 2000));
      expect([mime, res.status, res.body.error]).toEqual([mime, 400, "unsupported_mime"]);
      expect((await put(c, `/media/uploads/${up.uploadId}`, file(head, 2000))).status).toBe(404);
    }
    // The first chunk of a chunked upload is checked the same way.
    const chunked = await started(c, "video/mp4", CHUNK + 10);
    const bad = await put(c, `/media/uploads/${chunked.uploadId}/chunks/0`, file(MOV_HEAD, CHUNK));
    expect([bad.status, bad.body.error]).toEqual([400, "unsupported_mime"]);
    expect((await api.get(`/media/uploads/${chunked.uploadId}`, { token: c.token })).body.error).toBe("not_found");
    expect(shopFiles(c.shopId)).toHaveLength(5);
    expect(shopFiles(c.shopId).some((f) => f.endsWith(".part"))).toBe(false);
  });

  it("a short whole body is 400 invalid_bytes and can be sent again", async () => {
    const c = await creator();
    const up = await started(c, "image/png", 3000);
    const short = await put(c, `/media/uploads/${up.uploadId}`, file(PNG_HEAD, 2999));
    expect([short.status, short.body.error]).toEqual([400, "invalid_bytes"]);
    const fin = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: c.token, body: { storagePath: up.storagePath } });
    expect([fin.status, fin.body.error]).toEqual([409, "object_not_found"]);
    expect((await put(c, `/media/uploads/${up.uploadId}`, file(PNG_HEAD, 3000))).status).toBe(200);
  });

  it("chunks go in order, each chunkSize long but the last", async () => {
    const c = await creator();
    const body = file(MP4_HEAD, 2 * CHUNK + 100);
    const up = await started(c, "video/mp4", body.length);
    const at = (i: number) => body.subarray(i * CHUNK, (i + 1) * CHUNK);
    const skip = await put(c, `/media/uploads/${up.uploadId}/chunks/1`, at(1));
    expect([skip.status, skip.body.error, skip.body.next_chunk]).toEqual([409, "chunk_out_of_order", 0]);
    const bad = await put(c, `/media/uploads/${up.uploadId}/chunks/x`, at(0));
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_chunk"]);
    const short = await put(c, `/media/uploads/${up.uploadId}/chunks/0`, at(0).subarray(0, CHUNK - 1));
    expect([short.status, short.body.error]).toEqual([400, "invalid_chunk"]);
    const long = await put(c, `/media/uploads/${up.uploadId}/chunks/0`, Buffer.concat([at(0), Buffer.alloc(1)]));
    expect([long.status, long.body.error]).toEqual([400, "invalid_chunk"]);
    expect((await put(c, `/media/uploads/${up.uploadId}/chunks/0`, at(0))).status).toBe(200);
    const whole = await put(c, `/media/uploads/${up.uploadId}`, body);
    expect([whole.status, whole.body.error]).toEqual([409, "chunk_out_of_order"]);
    const notYet = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: c.token, body: { storagePath: up.storagePath } });
    expect([notYet.status, notYet.body.error]).toEqual([409, "object_not_found"]);
    expect((await put(c, `/media/uploads/${up.uploadId}/chunks/1`, at(1))).status).toBe(200);
    const state = await api.get(`/media/uploads/${up.uploadId}`, { token: c.token });
    expect(state.body).toMatchObject({ uploadId: up.uploadId, receivedBytes: 2 * CHUNK, nextChunk: 2, complete: false });
    const done = await put(c, `/media/uploads/${up.uploadId}/chunks/2`, at(2));
    expect(done.body).toMatchObject({ complete: true, receivedBytes: body.length, nextChunk: 3 });
    const again = await put(c, `/media/uploads/${up.uploadId}/chunks/3`, Buffer.alloc(1));
    expect([again.status, again.body.error]).toEqual([409, "chunk_out_of_order"]);
    const fin = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: c.token, body: { storagePath: up.storagePath } });
    expect(fin.status).toBe(201);
    const served = await fetch(fin.body.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true);
    const range = await fetch(fin.body.url, { headers: { range: "bytes=4-11" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 4-11/${body.length}`);
    expect(Buffer.from(await range.arrayBuffer()).toString("latin1")).toBe("ftypisom");
  });

  it("another partner's upload is not found", async () => {
    const c = await creator();
    const other = await creator();
    const up = await started(c, "image/png", 100);
    expect((await put(other, `/media/uploads/${up.uploadId}`, file(PNG_HEAD, 100))).body.error).toBe("not_found");
    expect((await put(other, `/media/uploads/${up.uploadId}/chunks/0`, file(PNG_HEAD, 100))).body.error).toBe("not_found");
    expect((await api.get(`/media/uploads/${up.uploadId}`, { token: other.token })).body.error).toBe("not_found");
    const fin = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: other.token, body: { storagePath: up.storagePath } });
    expect([fin.status, fin.body.error]).toEqual([404, "not_found"]);
    expect((await put(c, `/media/uploads/${up.uploadId}`, file(PNG_HEAD, 100))).status).toBe(200);
  });
});

describe("finalising", () => {
  it("creates a ready media item; checks storagePath and posterPath", async () => {
    const c = await creator();
    const other = await creator();
    const poster = await finalized(c, "image/png", file(PNG_HEAD, 500));
    const otherImage = await finalized(other, "image/png", file(PNG_HEAD, 500));
    const up = await uploadWhole(c, "video/mp4", file(MP4_HEAD, 800));
    const fin = (body: unknown) => api.post(`/media/uploads/${up.uploadId}/finalize`, { token: c.token, body });
    for (const [body, error] of [
      [{}, "invalid_storage_path"],
      [{ storagePath: 42 }, "invalid_storage_path"],
      [{ storagePath: "../etc/passwd" }, "invalid_storage_path"],
      [{ storagePath: poster.storagePath }, "invalid_storage_path"],
      [{ storagePath: up.storagePath, posterPath: "not a path" }, "invalid_poster_path"],
      [{ storagePath: up.storagePath, posterPath: 7 }, "invalid_poster_path"],
      [{ storagePath: up.storagePath, posterPath: otherImage.storagePath }, "invalid_poster_path"],
      [{ storagePath: up.storagePath, posterPath: up.storagePath }, "invalid_poster_path"],
    ] as const) {
      const res = await fin(body);
      expect([JSON.stringify(body), res.status, res.body.error]).toEqual([JSON.stringify(body), 400, error]);
    }
    const imageUp = await uploadWhole(c, "image/png", file(PNG_HEAD, 300));
    const imagePoster = await api.post(`/media/uploads/${imageUp.uploadId}/finalize`, {
      token: c.token,
      body: { storagePath: imageUp.storagePath, posterPath: poster.storagePath },
    });
    expect([imagePoster.status, imagePoster.body.error]).toEqual([400, "invalid_poster_path"]);

    const res = await fin({ storagePath: up.storagePath, posterPath: poster.storagePath });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      shopId: c.shopId,
      kind: "video",
      mime: "video/mp4",
      bytes: 800,
      storagePath: up.storagePath,
      url: `${small.url}/${up.storagePath}`,
      posterPath: poster.storagePath,
      posterUrl: `${small.url}/${poster.storagePath}`,
      status: "ready",
      position: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Finalised once: the upload is gone.
    expect((await fin({ storagePath: up.storagePath })).status).toBe(404);
    const unknown = await api.post("/media/uploads/nope/finalize", { token: c.token, body: { storagePath: up.storagePath } });
    expect([unknown.status, unknown.body.error]).toEqual([404, "not_found"]);
  });

  it("Creator Free: a shop holds 5 ready videos (402 at start and at finalize, also when finalised at once); paid plans more", async () => {
    const c = await creator("free");
    for (let i = 0; i < 4; i++) await finalized(c, "video/mp4", file(MP4_HEAD, 100 + i));
    // Two uploads started at 4 videos, both complete; finalised together, only one fits.
    const a = await uploadWhole(c, "video/mp4", file(MP4_HEAD, 200));
    const b = await uploadWhole(c, "video/quicktime", file(MOV_HEAD, 200));
    const results = await Promise.all(
      [a, b].map((u) => api.post(`/media/uploads/${u.uploadId}/finalize`, { token: c.token, body: { storagePath: u.storagePath } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 402]);
    expect(results.find((r) => r.status === 402)!.body.error).toBe("plan_limit_reached");
    const sixth = await start(c, { shopId: c.shopId, mime: "video/mp4", bytes: 100 });
    expect([sixth.status, sixth.body.error]).toEqual([402, "plan_limit_reached"]);
    // Images are not limited.
    await finalized(c, "image/png", file(PNG_HEAD, 100));
    // A rejected video frees its place.
    const [rejected] = await q(`SELECT id FROM "Media" WHERE "shopId" = ? AND kind = 'video' ORDER BY id LIMIT 1`, [c.shopId]);
    await q(`UPDATE "Media" SET status = 'rejected' WHERE id = ?`, [rejected.id]);
    await finalized(c, "video/mp4", file(MP4_HEAD, 300));

    const paid = await creator("starter");
    for (let i = 0; i < 6; i++) await finalized(paid, "video/mp4", file(MP4_HEAD, 100 + i));
    const list = await api.get(`/media?shopId=${paid.shopId}`, { token: paid.token });
    expect(list.body.media.filter((m: { kind: string }) => m.kind === "video")).toHaveLength(6);
  });
});

describe("listing, updating, deleting", () => {
  it("lists by position; updates position, status and poster; deletes row and object", async () => {
    const c = await creator();
    const other = await creator();
    const one = await finalized(c, "image/png", file(PNG_HEAD, 100));
    const two = await finalized(c, "image/webp", file(WEBP_HEAD, 100));
    const video = await finalized(c, "video/mp4", file(MP4_HEAD, 100));
    const list = async () => (await api.get(`/media?shopId=${c.shopId}`, { token: c.token })).body.media.map((m: { id: number }) => m.id);
    expect(await list()).toEqual([one.id, two.id, video.id]);

    const patch = (id: number | string, body: unknown, who = c) => api.request("PATCH", `/media/${id}`, { token: who.token, body });
    expect((await patch(one.id, { position: 5 })).body).toMatchObject({ id: one.id, position: 5 });
    expect(await list()).toEqual([two.id, video.id, one.id]);
    expect((await patch(two.id, { status: "hidden" })).body.status).toBe("hidden");
    expect((await patch(two.id, { status: "active" })).body.status).toBe("active");
    expect((await patch(video.id, { posterPath: one.storagePath })).body.posterPath).toBe(one.storagePath);
    expect((await patch(video.id, { posterPath: null })).body.posterPath).toBeNull();

    for (const [id, body, status, error] of [
      ["abc", { position: 1 }, 400, "invalid_id"],
      ["0", { position: 1 }, 400, "invalid_id"],
      [one.id, { position: -1 }, 400, "invalid_position"],
      [one.id, { position: "2" }, 400, "invalid_position"],
      [one.id, { position: 1.5 }, 400, "invalid_position"],
      [one.id, { status: "ready" }, 400, "invalid_status"],
      [one.id, { status: "rejected" }, 400, "invalid_status"],
      [one.id, {}, 400, "nothing_to_update"],
      [one.id, { other: 1 }, 400, "nothing_to_update"],
      [one.id, { posterPath: two.storagePath }, 400, "invalid_poster_path"],
      [video.id, { posterPath: "media/1/zz.png" }, 400, "invalid_poster_path"],
      [video.id, { posterPath: 12 }, 400, "invalid_poster_path"],
      [99_999_999, { position: 1 }, 404, "not_found"],
    ] as const) {
      const res = await patch(id, body);
      expect([id, JSON.stringify(body), res.status, res.body.error]).toEqual([id, JSON.stringify(body), status, error]);
    }

    // Moderation (no public route) rejects the video: it cannot be re-activated.
    await q(`UPDATE "Media" SET status = 'rejected' WHERE id = ?`, [video.id]);
    const reactivate = await patch(video.id, { status: "active" });
    expect([reactivate.status, reactivate.body.error]).toEqual([409, "media_rejected"]);
    expect((await patch(video.id, { position: 0 })).status).toBe(200);
    expect((await fetch(video.url)).status).toBe(404);

    // Another partner: not found, never data.
    expect((await patch(one.id, { position: 1 }, other)).status).toBe(404);
    expect((await api.delete(`/media/${one.id}`, { token: other.token })).body.error).toBe("not_found");
    const foreignList = await api.get(`/media?shopId=${c.shopId}`, { token: other.token });
    expect([foreignList.status, foreignList.body.error]).toEqual([404, "not_found"]);
    for (const shopId of ["", "abc", "0", "-3"]) {
      const res = await api.get(`/media?shopId=${shopId}`, { token: c.token });
      expect([shopId, res.status, res.body.error]).toEqual([shopId, 400, "invalid_shop_id"]);
    }
    expect((await api.get(`/media`, { token: c.token })).body.error).toBe("invalid_shop_id");

    // Delete: the row, the object and the poster link to it go.
    await q(`UPDATE "Media" SET "posterPath" = ? WHERE id = ?`, [one.storagePath, video.id]);
    expect((await fetch(one.url)).status).toBe(200);
    const del = await api.delete(`/media/${one.id}`, { token: c.token });
    expect([del.status, del.body]).toEqual([200, { deleted: true, id: one.id }]);
    expect((await fetch(one.url)).status).toBe(404);
    expect(existsSync(path.join(smallDir, one.storagePath))).toBe(false);
    expect(await list()).toEqual([video.id, two.id]);
    const [row] = await q(`SELECT "posterPath" FROM "Media" WHERE id = ?`, [video.id]);
    expect(row.posterPath).toBeNull();
    expect((await api.delete(`/media/${one.id}`, { token: c.token })).status).toBe(404);
    expect((await api.delete(`/media/x`, { token: c.token })).body.error).toBe("invalid_id");
  });
});
