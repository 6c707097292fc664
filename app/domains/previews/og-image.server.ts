// Link-preview images (SPEC 4.4 `GET /og/image/{file}`). A list's card is
// named by the hash of what it shows (`<sha256>.png`), so its URL changes
// whenever the content does and each file can be cached forever. Building the
// tags only records the card's inputs (`<sha>.json` under DATA_DIR/og); the
// PNG is rendered on the first request for it, in a worker thread, and kept
// beside them. Unknown names and failed renders get the default card.
// Several instances share the card files the way they share locally stored
// product images: through a shared DATA_DIR.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { env } from "~/env.server";
import { log, errorFields } from "~/lib/log.server";
import { writeFileAtomic } from "~/lib/fs/write-atomic.server";
import { WorkerPool } from "~/lib/worker-pool.server";
import { readLocalImage } from "~/domains/media/image-store.server";
import { shareTexts, type ShareLang } from "~/domains/lists/share-texts";
import type { OgCard } from "./og-render";

export const IMMUTABLE = "public, max-age=31536000, immutable";
/** The default card may become a real one later (a render that failed): caches keep it briefly. */
export const FALLBACK_CACHE = "public, max-age=300";

/** Bump when the card's layout changes, so every name changes with it. */
const LAYOUT_VERSION = 2;
const CARD_FILE = /^([0-9a-f]{64})\.png$/;
const STORED_IMAGE = /\/media\/images\/([0-9a-f]{64}\.(?:png|jpg|gif))$/;

/** What a list's card shows; product images by stored file name, never by remote URL. */
export interface CardSpec {
  title: string;
  subtitle: string;
  caption: string;
  imageFiles: string[];
}

const cardsDir = () => path.resolve(env.DATA_DIR, "og");

/** The stored copy's file name of an item image served by this service (local store); null for anything else. */
export function storedImageFile(imageUrl: string | null): string | null {
  if (!imageUrl) return null;
  const appUrl = env.APP_URL.replace(/\/+$/, "");
  if (!imageUrl.startsWith("/media/images/") && !imageUrl.startsWith(`${appUrl}/media/images/`)) return null;
  return imageUrl.match(STORED_IMAGE)?.[1] ?? null;
}

/** The card of a list: name, owner, item count and up to four stored product images. */
export function listCard(input: { name: string; ownerName: string; itemCount: number; imageUrls: (string | null)[]; lang: ShareLang }): CardSpec {
  const t = shareTexts(input.lang);
  const imageFiles = input.imageUrls.map(storedImageFile).filter((f): f is string => f !== null).slice(0, 4);
  return { title: input.name || t.defaultTitle, subtitle: t.byOwner(input.ownerName), caption: t.wishes(input.itemCount), imageFiles };
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

function workerFile(): URL {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++) {
    for (const candidate of [path.join(dir, "og-worker.mjs"), path.join(dir, "app/domains/previews/og-worker.mjs")]) {
      if (existsSync(candidate)) return pathToFileURL(candidate);
    }
    dir = path.dirname(dir);
  }
  throw new Error("app/domains/previews/og-worker.mjs not found");
}

let pool: WorkerPool<OgCard, Uint8Array> | undefined;
const renderers = () =>
  (pool ??= new WorkerPool(workerFile(), {
    size: 1,
    taskTimeoutMs: 10_000,
    maxQueue: 50,
    queueTimeoutMs: 20_000,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  }));

async function dataUri(file: string): Promise<string | null> {
  const image = await readLocalImage(file);
  return image ? `data:${image.contentType};base64,${image.body.toString("base64")}` : null;
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
  const spec = JSON.parse(specText) as CardSpec;
  const images = (await Promise.all(spec.imageFiles.map(dataUri))).filter((u): u is string => u !== null);
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
