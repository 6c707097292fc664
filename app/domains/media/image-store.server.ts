// Product images are copied into the service's own storage so lists keep
// working when a shop's CDN URL changes, and so list pages never hotlink a
// third party. Names are content hashes: the same image is stored once and
// its URL never changes (served as immutable).
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import { env } from "~/env.server";
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

async function storeS3(key: string, body: Buffer, contentType: string): Promise<void> {
  const client = new AwsClient({
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    service: "s3",
    region: env.S3_REGION,
    retries: 2,
  });
  // The endpoint is operator configuration, not user input: plain fetch is right here.
  const url = `${env.S3_ENDPOINT!.replace(/\/+$/, "")}/${env.S3_BUCKET}/${key}`;
  const res = await client.fetch(url, {
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
 * they claim to be) or Error when storage fails.
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
  const name = `${createHash("sha256").update(res.body).digest("hex")}.${actual}`;
  const contentType = CONTENT_TYPES[actual];
  if (env.STORAGE_DRIVER === "s3") {
    const key = `images/${name}`;
    await storeS3(key, res.body, contentType);
    return { path: key, url: `${env.S3_PUBLIC_URL!.replace(/\/+$/, "")}/${key}`, contentType, bytes: res.body.length };
  }
  await storeLocal(name, res.body);
  const appPath = `/media/images/${name}`;
  return { path: appPath, url: `${env.APP_URL.replace(/\/+$/, "")}${appPath}`, contentType, bytes: res.body.length };
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
