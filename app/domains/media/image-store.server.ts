// Product images are copied into the service's own storage so lists keep
// working when a shop's CDN URL changes, and so list pages never hotlink a
// third party. Names are content hashes: the same image is stored once and
// its URL never changes (served as immutable). What is stored is bounded in
// pixels: over IMAGE_MAX_PIXELS an image is refused before anything decodes
// it, over IMAGE_MAX_SIDE it is scaled down and the smaller copy is stored
// (and named by its own hash).
import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import { env } from "~/env.server";
import { overPixelLimit, rasterSize, shrinkRaster, type RasterFormat, type RasterSize } from "~/lib/images/raster.server";
import { FetchError, guardedFetch } from "~/lib/net/guarded-fetch.server";
import { writeFileAtomic } from "~/lib/fs/write-atomic.server";

export interface StoredImage {
  /** Local: the app path (`/media/images/<sha256>.<ext>`); s3: the object key (`images/<sha256>.<ext>`). */
  path: string;
  /** Absolute URL the image is shown from. */
  url: string;
  contentType: string;
  bytes: number;
}

export const IMAGE_LIMITS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 10_000 };
const CACHE_CONTROL = "public, max-age=31536000, immutable";

type ImageKind = "jpg" | "png" | "webp" | "gif" | "avif";

const CONTENT_TYPES: Record<ImageKind, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};
// Declared types accepted from origins; image/jpg and image/pjpeg are common mislabels of JPEG.
const DECLARED: Record<string, ImageKind> = {
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/pjpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
};
// What a scaled-down copy is written as: the same format, but AVIF (slow to
// encode) becomes WebP; a GIF keeps its first frame.
const SHRUNK: Record<ImageKind, { format: RasterFormat; kind: ImageKind }> = {
  jpg: { format: "jpeg", kind: "jpg" },
  png: { format: "png", kind: "png" },
  webp: { format: "webp", kind: "webp" },
  gif: { format: "gif", kind: "gif" },
  avif: { format: "webp", kind: "webp" },
};
const ACCEPTED_TYPES = new RegExp(`^(${Object.keys(DECLARED).map((t) => t.replace("/", "\\/")).join("|")})$`);
const FILE_NAME = /^[0-9a-f]{64}\.(jpg|png|webp|gif|avif)$/;

/** The image format from its first bytes; null for anything else (SVG, HTML, …). */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  const ascii = bytes.subarray(0, 12).toString("latin1");
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "webp";
  if (bytes.length >= 16 && ascii.slice(4, 8) === "ftyp") {
    // ISO-BMFF: major brand, then compatible brands up to the end of the ftyp box.
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
    const brands = [ascii.slice(8, 12)];
    for (let i = 16; i + 4 <= boxSize; i += 4) brands.push(bytes.subarray(i, i + 4).toString("latin1"));
    if (brands.some((b) => b === "avif" || b === "avis")) return "avif";
  }
  return null;
}

function imagesDir(): string {
  return path.resolve(env.DATA_DIR, "images");
}

async function storeLocal(name: string, body: Buffer): Promise<void> {
  const dir = imagesDir();
  const target = path.join(dir, name);
  // Content-addressed: an existing file already holds exactly these bytes.
  if (await stat(target).then(() => true, () => false)) return;
  await writeFileAtomic(target, body);
}

function s3Client(): AwsClient {
  return new AwsClient({
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    service: "s3",
    region: env.S3_REGION,
    retries: 2,
  });
}

// The endpoint is operator configuration, not user input: plain fetch is right here.
const s3Url = (key: string) => `${env.S3_ENDPOINT!.replace(/\/+$/, "")}/${env.S3_BUCKET}/${key}`;

async function storeS3(key: string, body: Buffer, contentType: string): Promise<void> {
  const res = await s3Client().fetch(s3Url(key), {
    method: "PUT",
    body: new Uint8Array(body),
    headers: { "content-type": contentType, "cache-control": CACHE_CONTROL },
  });
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`S3 PUT ${key} answered HTTP ${res.status}`);
}

/**
 * Copies an image from a user-supplied URL into storage. Throws FetchError
 * (fetch failures; `bad_content_type` also when the bytes are not the image
 * they claim to be, `too_large` also for too many pixels) or Error when
 * storage fails.
 */
export async function copyImage(sourceUrl: string): Promise<StoredImage> {
  const res = await guardedFetch(sourceUrl, {
    ...IMAGE_LIMITS,
    headers: { accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9" },
    acceptContentType: ACCEPTED_TYPES,
  });
  const declared = DECLARED[res.contentType];
  const actual = sniffImage(res.body);
  // Only bytes that are the declared raster format are stored: never SVG
  // (scripts) or HTML, whatever the origin says.
  if (!actual || actual !== declared) {
    throw new FetchError("bad_content_type", `Content is not a ${res.contentType} image`);
  }
  const { body, kind } = await bounded(res.body, actual);
  const name = `${createHash("sha256").update(body).digest("hex")}.${kind}`;
  const contentType = CONTENT_TYPES[kind];
  if (env.STORAGE_DRIVER === "s3") {
    const key = `images/${name}`;
    await storeS3(key, body, contentType);
    return { path: key, url: `${env.S3_PUBLIC_URL!.replace(/\/+$/, "")}/${key}`, contentType, bytes: body.length };
  }
  await storeLocal(name, body);
  const appPath = `/media/images/${name}`;
  return { path: appPath, url: `${env.APP_URL}${appPath}`, contentType, bytes: body.length };
}

/**
 * The bytes to store: refused (FetchError `too_large`) over IMAGE_MAX_PIXELS
 * by the header alone, scaled down to IMAGE_MAX_SIDE when larger, else as
 * fetched. A header libvips cannot read is stored as fetched: nothing here
 * decodes it, and preview cards skip such images.
 */
async function bounded(body: Buffer, kind: ImageKind): Promise<{ body: Buffer; kind: ImageKind }> {
  const size = await rasterSize(body);
  if (!size) return { body, kind };
  if (overPixelLimit(size)) {
    throw new FetchError("too_large", `The image has ${size.width}×${size.height} pixels, more than ${env.IMAGE_MAX_PIXELS}`);
  }
  if (Math.max(size.width, size.height) <= env.IMAGE_MAX_SIDE) return { body, kind };
  const target = SHRUNK[kind];
  const side = env.IMAGE_MAX_SIDE;
  const shrunk = await shrinkRaster(body, { width: side, height: side, fit: "inside", format: target.format }).catch((err: Error) => {
    throw new FetchError("bad_content_type", `The image cannot be decoded: ${err.message}`);
  });
  return { body: shrunk.body, kind: target.kind };
}

/** A locally stored image by file name; null for invalid names and missing files. */
export async function readLocalImage(file: string): Promise<{ body: Buffer; contentType: string; etag: string } | null> {
  // Strict names only: no path traversal, no other files of DATA_DIR.
  if (!FILE_NAME.test(file)) return null;
  try {
    const body = await readFile(path.join(imagesDir(), file));
    const kind = file.slice(file.indexOf(".") + 1) as ImageKind;
    return { body, contentType: CONTENT_TYPES[kind], etag: `"${file.slice(0, 64)}"` };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "EISDIR") return null;
    throw err;
  }
}

// ---------------------------------------------------------------------------
// Streamed objects (creator media, app/domains/media/creator-media.server.ts):
// written through the same driver, part by part across requests, never held
// whole in memory. Local: appended to a temp file beside the target, renamed
// into place when complete. S3: a multipart upload, one part per `partBytes`.

/** Where an object written in parts stands between requests (stored with the upload). */
export interface ObjectDraft {
  /** S3 multipart upload id (null before the first part, and with the local driver). */
  s3UploadId: string | null;
  parts: Array<{ n: number; etag: string }>;
}

/** An object key of ours: segments of safe characters, no `..`. */
const OBJECT_KEY = /^[a-z]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]+$/;

function localObjectPath(key: string): string {
  if (!OBJECT_KEY.test(key)) throw new Error(`invalid object key ${key}`);
  return path.resolve(env.DATA_DIR, key);
}
const tempPathOf = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.part`);

/** Absolute URL an object is shown from (local: served by the app under `/<key>`). */
export function objectUrl(key: string): string {
  if (env.STORAGE_DRIVER === "s3") return `${env.S3_PUBLIC_URL!.replace(/\/+$/, "")}/${key}`;
  return `${env.APP_URL}/${key}`;
}

/** A local object's file and size, or null (missing, s3 driver, or not a key). */
export async function localObject(key: string): Promise<{ file: string; size: number } | null> {
  if (env.STORAGE_DRIVER !== "local" || !OBJECT_KEY.test(key)) return null;
  const file = localObjectPath(key);
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? { file, size: info.size } : null;
}

/** Whether the complete object is in storage. */
export async function objectExists(key: string): Promise<boolean> {
  if (env.STORAGE_DRIVER === "local") return (await localObject(key)) !== null;
  const res = await s3Client().fetch(s3Url(key), { method: "HEAD" });
  await res.arrayBuffer().catch(() => undefined);
  if (res.status === 404) return false;
  if (!res.ok) throw new Error(`S3 HEAD ${key} answered HTTP ${res.status}`);
  return true;
}

const xmlValue = (xml: string, tag: string) => xml.match(new RegExp(`<${tag}>([^<]*)</${tag}>`))?.[1] ?? null;

// The answer of S3 (a service we call), typed by fetch: domains name no Response of their own.
async function s3Call(key: string, query: string, init: RequestInit & { body?: BodyInit }) {
  const res = await s3Client().fetch(`${s3Url(key)}${query}`, init);
  if (!res.ok) {
    await res.arrayBuffer().catch(() => undefined);
    throw new Error(`S3 ${init.method} ${key}${query} answered HTTP ${res.status}`);
  }
  return res;
}

/**
 * Writes `body` at byte `offset` of the object (what is past `offset` is
 * dropped first: a retried part replaces a failed one). S3 parts are
 * numbered from `firstPart`, each `partBytes` long but the last; only
 * `partBytes` are held in memory at a time. When reading `body` throws
 * (e.g. a size limit), what this call wrote is rolled back and the error passes on.
 */
export async function writeObjectPart(
  key: string,
  contentType: string,
  draft: ObjectDraft,
  offset: number,
  firstPart: number,
  body: AsyncIterable<Uint8Array>,
  partBytes: number,
): Promise<{ bytes: number; draft: ObjectDraft }> {
  if (env.STORAGE_DRIVER === "local") {
    const temp = tempPathOf(localObjectPath(key));
    await mkdir(path.dirname(temp), { recursive: true });
    const handle = await open(temp, offset === 0 ? "w" : "r+");
    let written = 0;
    try {
      await handle.truncate(offset);
      for await (const chunk of body) {
        await handle.write(chunk, 0, chunk.byteLength, offset + written);
        written += chunk.byteLength;
      }
    } catch (err) {
      await handle.truncate(offset).catch(() => {});
      throw err;
    } finally {
      await handle.close();
    }
    return { bytes: written, draft };
  }
  let s3UploadId = draft.s3UploadId;
  if (!s3UploadId) {
    const res = await s3Call(key, "?uploads", { method: "POST", headers: { "content-type": contentType, "cache-control": CACHE_CONTROL } });
    s3UploadId = xmlValue(await res.text(), "UploadId");
    if (!s3UploadId) throw new Error(`S3 CreateMultipartUpload ${key} answered no UploadId`);
  }
  const parts = draft.parts.filter((p) => p.n < firstPart);
  let n = firstPart;
  let written = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    const buffer = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const res = await s3Call(key, `?partNumber=${n}&uploadId=${encodeURIComponent(s3UploadId!)}`, { method: "PUT", body: new Uint8Array(buffer) });
    await res.arrayBuffer().catch(() => undefined);
    parts.push({ n, etag: res.headers.get("etag") ?? "" });
    n++;
  };
  try {
    for await (const chunk of body) {
      let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      while (rest.byteLength > 0) {
        const take = Math.min(rest.byteLength, partBytes - pendingBytes);
        pending.push(rest.subarray(0, take));
        pendingBytes += take;
        written += take;
        rest = rest.subarray(take);
        if (pendingBytes === partBytes) await flush();
      }
    }
    if (pendingBytes > 0) await flush();
  } catch (err) {
    // A multipart upload begun by this call is nobody else's to abort.
    if (!draft.s3UploadId) await abortMultipart(key, s3UploadId).catch(() => {});
    throw err;
  }
  return { bytes: written, draft: { s3UploadId, parts } };
}

/**
 * The pixel size in the header of a complete object holding an image (see
 * rasterSize: no pixels are decoded); null when no header can be read. Local:
 * read from the file; S3: the object is fetched (at most `maxBytes`).
 */
export async function objectRasterSize(key: string, maxBytes: number): Promise<RasterSize | null> {
  if (env.STORAGE_DRIVER === "local") return rasterSize(localObjectPath(key));
  const res = await s3Call(key, "", { method: "GET" });
  if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  return rasterSize(Buffer.from(await res.arrayBuffer()));
}

/** Puts the finished object in place (local: rename; S3: complete the multipart upload). */
export async function completeObject(key: string, draft: ObjectDraft): Promise<void> {
  if (env.STORAGE_DRIVER === "local") {
    const file = localObjectPath(key);
    await rename(tempPathOf(file), file);
    return;
  }
  if (!draft.s3UploadId) throw new Error(`S3 object ${key} has no multipart upload`);
  const xml = `<CompleteMultipartUpload>${draft.parts
    .map((p) => `<Part><PartNumber>${p.n}</PartNumber><ETag>${p.etag.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</ETag></Part>`)
    .join("")}</CompleteMultipartUpload>`;
  const res = await s3Call(key, `?uploadId=${encodeURIComponent(draft.s3UploadId)}`, {
    method: "POST",
    body: xml,
    headers: { "content-type": "application/xml" },
  });
  // S3 can answer 200 with an error document.
  const text = await res.text();
  if (text.includes("<Error>")) throw new Error(`S3 CompleteMultipartUpload ${key} failed: ${xmlValue(text, "Code")}`);
}

async function abortMultipart(key: string, uploadId: string): Promise<void> {
  const res = await s3Client().fetch(`${s3Url(key)}?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" });
  await res.arrayBuffer().catch(() => undefined);
}

/** Removes an object and anything half-written of it; missing pieces are fine. */
export async function deleteObject(key: string, draft?: ObjectDraft): Promise<void> {
  if (env.STORAGE_DRIVER === "local") {
    const file = localObjectPath(key);
    await unlink(tempPathOf(file)).catch(() => {});
    await unlink(file).catch(() => {});
    return;
  }
  if (draft?.s3UploadId) await abortMultipart(key, draft.s3UploadId);
  const res = await s3Client().fetch(s3Url(key), { method: "DELETE" });
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${key} answered HTTP ${res.status}`);
}
