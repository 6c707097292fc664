// Creator media with the s3 storage driver, against a fake S3 endpoint that
// implements multipart uploads: chunks and whole bodies become parts, the
// object appears on completion, an upload cut off at its limit is aborted.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, apiFor } from "../support/api.ts";
import { flatPng } from "../support/images.ts";
import { provisioner } from "../support/provision.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;
const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isommp41")]);
const file = (head: Buffer, size: number) => {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4096) body[i] = i % 251;
  head.copy(body);
  return body;
};

/** Objects and multipart uploads of the fake bucket, and every call it got. */
const objects = new Map<string, Buffer>();
const multipart = new Map<string, { key: string; parts: Map<number, Buffer> }>();
const calls: string[] = [];
let s3: http.Server;
let server: InProcessServer;
let api: Api;
let pat: string;
let shopId: number;

beforeAll(async () => {
  s3 = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const key = decodeURIComponent(url.pathname.replace(/^\/bucket\//, ""));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const uploadId = url.searchParams.get("uploadId");
    calls.push(`${req.method} ${url.search.replace(/=[^&]*/g, "")} ${key}`);
    if (req.method === "POST" && url.searchParams.has("uploads")) {
      const id = `u${multipart.size + 1}`;
      multipart.set(id, { key, parts: new Map() });
      return res.end(`<?xml version="1.0"?><InitiateMultipartUploadResult><Bucket>bucket</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (req.method === "PUT" && uploadId) {
      const n = Number(url.searchParams.get("partNumber"));
      multipart.get(uploadId)!.parts.set(n, body);
      res.setHeader("etag", `"etag-${n}-${body.length}"`);
      return res.end();
    }
    if (req.method === "POST" && uploadId) {
      const upload = multipart.get(uploadId)!;
      const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>"etag-(\d+)-(\d+)"<\/ETag>/g)];
      const parts = numbers.map((m) => upload.parts.get(Number(m[1]))!);
      // Real S3: every part but the last at least 5 MiB.
      if (parts.slice(0, -1).some((p) => p.length < 5 * MiB)) {
        return res.end("<Error><Code>EntityTooSmall</Code></Error>");
      }
      objects.set(key, Buffer.concat(parts));
      multipart.delete(uploadId);
      return res.end(`<CompleteMultipartUploadResult><Key>${key}</Key></CompleteMultipartUploadResult>`);
    }
    if (req.method === "DELETE" && uploadId) {
      multipart.delete(uploadId);
      res.statusCode = 204;
      return res.end();
    }
    if (req.method === "DELETE") {
      objects.delete(key);
      res.statusCode = 204;
      return res.end();
    }
    if (req.method === "HEAD") {
      res.statusCode = objects.has(key) ? 200 : 404;
      return res.end();
    }
    if (req.method === "GET") {
      const object = objects.get(key);
      if (!object) return res.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
      return res.writeHead(200, { "content-length": object.length }).end(object);
    }
    res.statusCode = 400;
    res.end();
  });
  await new Promise<void>((resolve) => s3.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
  server = await startInProcess({
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: endpoint,
    S3_BUCKET: "bucket",
    S3_ACCESS_KEY_ID: "test",
    S3_SECRET_ACCESS_KEY: "test-secret",
    S3_PUBLIC_URL: "https://cdn.example.com",
    MEDIA_CHUNK_BYTES: String(CHUNK),
    MEDIA_MAX_IMAGE_BYTES: String(12 * MiB),
  });
  api = await apiFor(server);
  const prov = await provisioner(server);
  const partner = await prov.partner("free");
  shopId = (await prov.shop(partner.id)).id;
  const tokens = await import("~/domains/partners/access-tokens.server");
  pat = (await tokens.createPersonalAccessToken(partner.id)).token;
});

afterAll(async () => {
  await server?.stop();
  s3?.closeAllConnections();
  await new Promise((resolve) => s3?.close(resolve));
});

afterAll(() => {
  expect(server.output()).not.toContain("undocumented error code");
  expect(server.output()).not.toContain("unhandled error");
});

async function put(pathname: string, body: Buffer) {
  const res = await server.fetch(api.baseUrl + pathname, {
    method: "PUT",
    headers: { apikey: api.anonKey, authorization: `Bearer ${pat}` },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function started(mime: string, bytes: number) {
  const res = await api.post("/media/uploads", { token: pat, body: { shopId, mime, bytes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uploadId: string; storagePath: string };
}

describe("creator media on S3", () => {
  it("a whole body becomes multipart parts of MEDIA_CHUNK_BYTES; finalize links the public URL; delete removes the object", async () => {
    const image = file(PNG_HEAD, 11 * MiB);
    const up = await started("image/png", image.length);
    const res = await put(`/media/uploads/${up.uploadId}`, image);
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(true);
    expect(objects.get(up.storagePath)?.equals(image)).toBe(true);
    expect(calls.filter((c) => c.endsWith(up.storagePath))).toEqual([
      `POST ?uploads ${up.storagePath}`,
      `PUT ?partNumber&uploadId ${up.storagePath}`,
      `PUT ?partNumber&uploadId ${up.storagePath}`,
      `PUT ?partNumber&uploadId ${up.storagePath}`,
      `POST ?uploadId ${up.storagePath}`,
      // An image is read back once to check its pixels.
      `GET  ${up.storagePath}`,
    ]);
    const fin = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: pat, body: { storagePath: up.storagePath } });
    expect(fin.status).toBe(201);
    expect(fin.body.url).toBe(`https://cdn.example.com/${up.storagePath}`);
    const del = await api.delete(`/media/${fin.body.id}`, { token: pat });
    expect(del.status).toBe(200);
    expect(objects.has(up.storagePath)).toBe(false);
  });

  it("chunks become parts; finalize before the last is 409 object_not_found", async () => {
    const video = file(MP4_HEAD, CHUNK + 1000);
    const up = await started("video/mp4", video.length);
    expect((await put(`/media/uploads/${up.uploadId}/chunks/0`, video.subarray(0, CHUNK))).status).toBe(200);
    const early = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: pat, body: { storagePath: up.storagePath } });
    expect([early.status, early.body.error]).toEqual([409, "object_not_found"]);
    const last = await put(`/media/uploads/${up.uploadId}/chunks/1`, video.subarray(CHUNK));
    expect(last.body.complete).toBe(true);
    expect(objects.get(up.storagePath)?.equals(video)).toBe(true);
    const fin = await api.post(`/media/uploads/${up.uploadId}/finalize`, { token: pat, body: { storagePath: up.storagePath } });
    expect(fin.status).toBe(201);
  });

  it("an image of 12,000 × 12,000 pixels: 413 file_too_large with its last byte, and the object is deleted", async () => {
    const bomb = await flatPng(12_000, 12_000);
    const up = await started("image/png", bomb.length);
    const res = await put(`/media/uploads/${up.uploadId}`, bomb);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "file_too_large", max_pixels: 40_000_000, width: 12_000, height: 12_000 });
    expect(objects.has(up.storagePath)).toBe(false);
    expect((await api.get(`/media/uploads/${up.uploadId}`, { token: pat })).status).toBe(404);
  });

  it("over the declared size: 413 and the multipart upload is aborted", async () => {
    const up = await started("image/png", 6 * MiB);
    const res = await put(`/media/uploads/${up.uploadId}`, Buffer.concat([file(PNG_HEAD, 6 * MiB), Buffer.alloc(1)]));
    expect([res.status, res.body.error]).toEqual([413, "file_too_large"]);
    expect(objects.has(up.storagePath)).toBe(false);
    // Refused by Content-Length before reading: nothing was sent to S3 but the cleanup.
    expect(calls.filter((c) => c.endsWith(up.storagePath)).every((c) => c.startsWith("DELETE"))).toBe(true);
    // Streamed past the limit (the first part already stored): aborted.
    const streamed = await started("image/png", 6 * MiB);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(file(PNG_HEAD, 6 * MiB));
        controller.enqueue(new Uint8Array(1));
        controller.close();
      },
    });
    const cut = await server.fetch(`${api.baseUrl}/media/uploads/${streamed.uploadId}`, {
      method: "PUT",
      headers: { apikey: api.anonKey, authorization: `Bearer ${pat}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(cut.status).toBe(413);
    expect(calls).toContain(`DELETE ?uploadId ${streamed.storagePath}`);
    expect(multipart.size).toBe(0);
  });
});
