// Link-preview images (SPEC 4.4 `GET /og/image/{file}`). A list's card is
// named by the hash of what it shows (`<sha256>.png`), so its URL changes
// whenever the content does and each file can be cached forever. Building the
// tags only records the card's inputs (`<sha>.json` under DATA_DIR/og); the
// PNG is rendered on the first request for it, in a worker thread, and kept
// beside them. Unknown names and failed renders get the default card.
// Several instances share the card files the way they share locally stored
// product images: through a shared DATA_DIR.
//
// Product images on a card are only the service's own stored copies: files
// of DATA_DIR/images (local driver) or objects `images/<name>` of the S3
// bucket (s3 driver), read by name, bounded in size and time. A remote URL
// is never fetched. The renderer (resvg) decodes every image whole, in native
// memory that no worker limit covers, so it only gets images of at most a
// tile's size: larger ones are cropped and scaled to the tile here (libvips,
// within IMAGE_MAX_PIXELS), and images whose header is unreadable or over the
// limit are left off. Copies stored before product images were bounded go
// through the same check.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { writeFileAtomic } from "~/lib/fs/write-atomic.server";
import { WorkerPool, workerEntry } from "~/lib/worker-pool.server";
import { overPixelLimit, rasterSize, shrinkRaster } from "~/lib/images/raster.server";
import { AwsClient } from "aws4fetch";
import { readLocalImage, sniffImage } from "~/domains/media/image-store.server";
import type { OgCard } from "./og-render";

export const IMMUTABLE = "public, max-age=31536000, immutable";
/** The default card may become a real one later (a render that failed): caches keep it briefly. */
export const FALLBACK_CACHE = "public, max-age=300";

/** Bump when the card's layout changes, so every name changes with it. */
const LAYOUT_VERSION = 2;
const CARD_FILE = /^([0-9a-f]{64})\.png$/;
// Stored names the card can draw (satori reads png, jpeg and gif).
const IMAGE_NAME = /^[0-9a-f]{64}\.(?:png|jpg|gif)$/;
/** Largest product image a card reads, and the time a read from the bucket may take. */
const CARD_IMAGE_LIMITS = { maxBytes: 5 * 1024 * 1024, timeoutMs: 5_000 };
/** Side of the largest gallery tile of og-render.ts (a square of the content's height): no image is drawn from more pixels. */
const CARD_TILE = 502;

/** A product image in the service's own storage: a file of DATA_DIR/images, or the object `images/<file>` of the S3 bucket. */
export interface StoredImageRef {
  store: "local" | "s3";
  file: string;
}

/** What a list's card shows; product images by stored name, never by remote URL. */
export interface CardSpec {
  title: string;
  subtitle: string;
  caption: string;
  images: StoredImageRef[];
}

const cardsDir = () => path.resolve(env.DATA_DIR, "og");
const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** The stored copy an item image URL names (`/media/images/<file>` of this service, or the bucket's public URL); null for anything else. */
export function storedImage(imageUrl: string | null): StoredImageRef | null {
  if (!imageUrl) return null;
  const prefixes: [string, StoredImageRef["store"]][] = [
    ["/media/images/", "local"],
    [`${trimSlash(env.APP_URL)}/media/images/`, "local"],
  ];
  if (env.STORAGE_DRIVER === "s3" && env.S3_PUBLIC_URL) prefixes.push([`${trimSlash(env.S3_PUBLIC_URL)}/images/`, "s3"]);
  for (const [prefix, store] of prefixes) {
    if (!imageUrl.startsWith(prefix)) continue;
    const file = imageUrl.slice(prefix.length);
    return IMAGE_NAME.test(file) ? { store, file } : null;
  }
  return null;
}

/** The card of a list: its written title, subtitle (the owner) and caption (the item count), and up to four stored product images. */
export function listCard(input: { title: string; subtitle: string; caption: string; imageUrls: (string | null)[] }): CardSpec {
  const images = input.imageUrls.map(storedImage).filter((f): f is StoredImageRef => f !== null).slice(0, 4);
  return { title: input.title, subtitle: input.subtitle, caption: input.caption, images };
}

const fileName = (spec: CardSpec) =>
  `${createHash("sha256").update(JSON.stringify({ v: LAYOUT_VERSION, ...spec })).digest("hex")}.png`;

// Names whose inputs this instance already recorded: a share-page view costs no disk access for them.
const recorded = new Set<string>();

/** The file name of `spec`'s card, recording its inputs for the first request of the image. */
export async function cardFile(spec: CardSpec): Promise<string> {
  const name = fileName(spec);
  if (recorded.has(name)) return name;
  const specPath = path.join(cardsDir(), name.replace(/\.png$/, ".json"));
  try {
    if (!existsSync(specPath)) await writeFileAtomic(specPath, JSON.stringify(spec));
    if (recorded.size >= 50_000) recorded.clear();
    recorded.add(name);
  } catch (err) {
    // The tags still name the file; its request then gets the default card.
    log.error("preview card not recorded", errorFields(err));
  }
  return name;
}

let pool: WorkerPool<OgCard, Uint8Array> | undefined;
const renderers = () =>
  (pool ??= new WorkerPool(workerEntry(import.meta.url, "app/domains/previews/og-worker.mjs"), {
    size: 1,
    taskTimeoutMs: 10_000,
    maxQueue: 50,
    queueTimeoutMs: 20_000,
    // The JavaScript heaps; resvg's native memory is bounded by the image sizes dataUri() lets through.
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
  }));

// The bucket's address and credentials are operator configuration (as for
// the image store's writes), so a plain signed fetch is right here.
let s3: AwsClient | undefined;
const s3Client = () =>
  (s3 ??= new AwsClient({
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    service: "s3",
    region: env.S3_REGION,
    retries: 1,
  }));

/** The object `images/<file>` of the bucket; null when it is missing or over the size limit. Throws on other failures (the card is then retried later). */
async function readS3Image(file: string): Promise<Buffer | null> {
  const { maxBytes, timeoutMs } = CARD_IMAGE_LIMITS;
  const url = `${trimSlash(env.S3_ENDPOINT!)}/${env.S3_BUCKET}/images/${file}`;
  const res = await s3Client().fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.status === 404 || Number(res.headers.get("content-length") ?? 0) > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    if (res.status !== 404) log.warn("preview image over the size limit", { file });
    return null;
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`S3 GET images/${file} answered HTTP ${res.status}`);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      log.warn("preview image over the size limit", { file });
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, bytes);
}

/** A stored image as a data URI for the renderer; null when it is gone, too large or not an image the card can draw. */
async function dataUri(image: StoredImageRef): Promise<string | null> {
  if (!IMAGE_NAME.test(image.file)) return null;
  const body = image.store === "s3" ? (env.STORAGE_DRIVER === "s3" ? await readS3Image(image.file) : null) : (await readLocalImage(image.file))?.body;
  if (!body) return null;
  if (body.length > CARD_IMAGE_LIMITS.maxBytes) {
    log.warn("preview image over the size limit", { file: image.file });
    return null;
  }
  const kind = sniffImage(body);
  if (kind !== "png" && kind !== "jpg" && kind !== "gif") return null;
  const size = await rasterSize(body);
  if (!size || overPixelLimit(size)) {
    log.warn("preview image left off", { file: image.file, reason: size ? "too_many_pixels" : "unreadable", ...size });
    return null;
  }
  if (size.width <= CARD_TILE && size.height <= CARD_TILE) {
    return `data:${kind === "jpg" ? "image/jpeg" : `image/${kind}`};base64,${body.toString("base64")}`;
  }
  // Tiles are squares filled by the image (object-fit: cover): the same crop, made here at the tile's size.
  const format = kind === "jpg" ? "jpeg" : "png";
  const tile = await shrinkRaster(body, { width: CARD_TILE, height: CARD_TILE, fit: "cover", format }).catch((err: Error) => {
    log.warn("preview image left off", { file: image.file, reason: "undecodable", error: err.message });
    return null;
  });
  return tile && `data:image/${format};base64,${tile.body.toString("base64")}`;
}

async function render(card: OgCard): Promise<Buffer> {
  const started = performance.now();
  const png = Buffer.from(await renderers().run(card));
  log.info("preview rendered", { ms: Math.round(performance.now() - started), bytes: png.length, images: card.images.length });
  return png;
}

const inFlight = new Map<string, Promise<Buffer | null>>();

async function renderStored(name: string): Promise<Buffer | null> {
  const pngPath = path.join(cardsDir(), name);
  const cached = await readFile(pngPath).catch(() => null);
  if (cached) return cached;
  const specText = await readFile(pngPath.replace(/\.png$/, ".json"), "utf8").catch(() => null);
  if (!specText) return null;
  // Inputs recorded by the previous layout name local files only (`imageFiles`).
  const spec = JSON.parse(specText) as CardSpec & { imageFiles?: string[] };
  const refs = spec.images ?? (spec.imageFiles ?? []).map((file): StoredImageRef => ({ store: "local", file }));
  const images = (await Promise.all(refs.slice(0, 4).map(dataUri))).filter((u): u is string => u !== null);
  const png = await render({ title: spec.title, subtitle: spec.subtitle, caption: spec.caption, images });
  await writeFileAtomic(pngPath, png);
  return png;
}

let fallback: Promise<Buffer> | undefined;
function defaultCard(): Promise<Buffer> {
  return (fallback ??= render({ title: "Wishlist", subtitle: "Wunschliste · Wishlist", caption: "", images: [] }).catch((err) => {
    fallback = undefined;
    throw err;
  }));
}

/** `GET /og/image/{file}`: the card, or the default card (never an error for a well-formed request). */
export async function previewImage(file: string): Promise<{ png: Buffer; cacheControl: string; etag: string }> {
  const match = CARD_FILE.exec(file);
  if (match) {
    let job = inFlight.get(file);
    if (!job) {
      job = renderStored(file).finally(() => inFlight.delete(file));
      inFlight.set(file, job);
    }
    const png = await job.catch((err) => {
      log.error("preview not rendered", { file, ...errorFields(err) });
      return null;
    });
    if (png) return { png, cacheControl: IMMUTABLE, etag: `"${match[1]}"` };
  }
  const png = await defaultCard();
  return { png, cacheControl: FALLBACK_CACHE, etag: `"default-${LAYOUT_VERSION}"` };
}
