// Creator media (SPEC 7.5, 8.4): images and videos of a partner's platform
// shop. An upload is started with the declared file, its bytes are streamed
// into storage (whole, or in chunks of MEDIA_CHUNK_BYTES), checked against the
// size limit as they arrive and against the declared type by their first
// bytes, then finalised into a Media row. Nothing holds a whole file in memory
// (but an image's with the s3 driver, read back once to check its pixels). An
// image whose header describes more than IMAGE_MAX_PIXELS is refused when its
// last byte arrives: whoever shows it would have to decode all of them.
import { randomBytes } from "node:crypto";
import { db, type Media, type MediaUpload } from "~/db.server";
import { lockShopRow } from "./creator-media.sql.server";
import { parseDatabaseUrl } from "~/db/url";
import { baseUrl, env } from "~/env.server";
import { ApiError, badRequest, notFound } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { getPlan } from "~/domains/plans/plans";
import { overPixelLimit } from "~/lib/images/raster.server";
import {
  completeObject,
  deleteObject,
  objectExists,
  objectRasterSize,
  objectUrl,
  sniffImage,
  writeObjectPart,
  type ObjectDraft,
} from "./image-store.server";

export type MediaKind = "image" | "video";

/** The accepted types, their kind and file extension. */
export const MEDIA_TYPES = {
  "image/jpeg": { kind: "image", ext: "jpg" },
  "image/png": { kind: "image", ext: "png" },
  "image/webp": { kind: "image", ext: "webp" },
  "video/mp4": { kind: "video", ext: "mp4" },
  "video/quicktime": { kind: "video", ext: "mov" },
} as const satisfies Record<string, { kind: MediaKind; ext: string }>;
export type MediaMime = keyof typeof MEDIA_TYPES;
export const MEDIA_MIMES = Object.keys(MEDIA_TYPES) as [MediaMime, ...MediaMime[]];

/** ready: finalised; active / hidden: set by the creator; rejected: set by moderation only. */
export const MEDIA_STATUSES = ["ready", "active", "hidden", "rejected"] as const;
/** Videos that count against the Creator Free quota: finalised and not rejected. */
const QUOTA_STATUSES = ["ready", "active", "hidden"];
/** The Free plan is the one with a video limit (the plan table holds it). */
const FREE_PLAN_VIDEO_LIMIT = getPlan("free")!.readyVideoLimit!;

/** `media/<shopId>/<32 hex>.<ext>`: the only storage paths there are. */
export const STORAGE_PATH = /^media\/\d{1,15}\/[0-9a-f]{32}\.(jpg|png|webp|mp4|mov)$/;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Bytes of the head needed to tell the type (the ftyp box's brands included). */
const SNIFF_BYTES = 64;
/** A writer that crashed mid-request leaves its lock; after this long another request may take over. */
const STALE_LOCK_MS = 15 * 60_000;

export const maxBytesOf = (kind: MediaKind) => (kind === "image" ? env.MEDIA_MAX_IMAGE_BYTES : env.MEDIA_MAX_VIDEO_BYTES);

const IMAGE_BRANDS = new Set(["avif", "avis", "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);
const QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

/** The media type of a file from its first bytes; null when it is none of MEDIA_TYPES. */
export function sniffMedia(head: Buffer): MediaMime | null {
  const image = sniffImage(head);
  if (image === "jpg") return "image/jpeg";
  if (image === "png") return "image/png";
  if (image === "webp") return "image/webp";
  if (image) return null;
  if (head.length < 12) return null;
  const box = head.subarray(4, 8).toString("latin1");
  if (box === "ftyp") {
    const major = head.subarray(8, 12).toString("latin1");
    if (major === "qt  ") return "video/quicktime";
    if (IMAGE_BRANDS.has(major)) return null;
    return "video/mp4";
  }
  // QuickTime files written without an ftyp box start with one of its classic atoms.
  return QUICKTIME_ATOMS.has(box) ? "video/quicktime" : null;
}

const fileTooLarge = (limit: number) => new ApiError(413, "file_too_large", `The file exceeds ${limit} bytes`, { max_bytes: limit });

function isPg(): boolean {
  return parseDatabaseUrl(env.DATABASE_URL).kind !== "sqlite";
}

/** The shop, if it belongs to the partner; 404 `not_found` otherwise (another partner's shop looks unknown). */
async function ownShop(partnerId: number, shopId: number) {
  const shop = await db.platformShop.findFirst({ where: { id: shopId, partnerId }, select: { id: true, partnerId: true } });
  if (!shop) throw notFound("not_found", `No shop ${shopId} of this partner`);
  return shop;
}

async function partnerIsFree(partnerId: number): Promise<boolean> {
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { plan: true } });
  return (partner?.plan ?? "free") === "free";
}

const quotaReached = () =>
  new ApiError(402, "plan_limit_reached", `The Creator Free plan allows ${FREE_PLAN_VIDEO_LIMIT} ready videos per shop; upgrade for more`, {
    plan: "free",
    limit: FREE_PLAN_VIDEO_LIMIT,
  });

type Db = typeof db;
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
const countQuotaVideos = (tx: Tx | Db, shopId: number) =>
  tx.media.count({ where: { shopId, kind: "video", status: { in: QUOTA_STATUSES } } });

// ---------------------------------------------------------------- uploads

export interface StartUploadInput {
  shopId: number;
  kind?: MediaKind;
  mime: MediaMime;
  bytes: number;
  fileName?: string;
}

export async function startUpload(partnerId: number, input: StartUploadInput) {
  const type = MEDIA_TYPES[input.mime];
  if (input.kind && input.kind !== type.kind) {
    throw badRequest("unsupported_mime", `${input.mime} is not an ${input.kind} type`);
  }
  const limit = maxBytesOf(type.kind);
  if (input.bytes > limit) throw fileTooLarge(limit);
  const shop = await ownShop(partnerId, input.shopId);
  if (type.kind === "video" && (await partnerIsFree(shop.partnerId)) && (await countQuotaVideos(db, shop.id)) >= FREE_PLAN_VIDEO_LIMIT) {
    throw quotaReached();
  }
  const id = randomBytes(16).toString("hex");
  const storagePath = `media/${shop.id}/${randomBytes(16).toString("hex")}.${type.ext}`;
  const upload = await db.mediaUpload.create({
    data: { id, shopId: shop.id, partnerId: shop.partnerId, kind: type.kind, mime: input.mime, declaredBytes: input.bytes, storagePath },
  });
  return uploadJson(upload);
}

type UploadRow = Pick<MediaUpload, "id" | "shopId" | "kind" | "mime" | "declaredBytes" | "storagePath" | "receivedBytes" | "chunks" | "complete">;

function uploadJson(upload: UploadRow) {
  return {
    uploadId: upload.id,
    shopId: upload.shopId,
    kind: upload.kind as MediaKind,
    mime: upload.mime,
    bytes: upload.declaredBytes,
    storagePath: upload.storagePath,
    uploadUrl: `${baseUrl}/media/uploads/${upload.id}`,
    chunkSize: env.MEDIA_CHUNK_BYTES,
    receivedBytes: upload.receivedBytes,
    nextChunk: upload.chunks,
    complete: upload.complete,
  };
}

async function ownUpload(partnerId: number, uploadId: string | undefined) {
  const upload = uploadId && UPLOAD_ID.test(uploadId) ? await db.mediaUpload.findFirst({ where: { id: uploadId, shop: { partnerId } } }) : null;
  if (!upload) throw notFound("not_found", "No such upload");
  return upload;
}

/** An upload's state, e.g. to resume it at `nextChunk`. */
export async function uploadStatus(partnerId: number, uploadId: string | undefined) {
  return uploadJson(await ownUpload(partnerId, uploadId));
}

/** An error of the body that ends the upload: its partial object is deleted with it. */
class FatalUploadError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/**
 * Stores a request body into an upload: the whole file (`index` null) or
 * chunk `index` (0-based, in order; each `MEDIA_CHUNK_BYTES` long but the
 * last). Over the declared size, or not the declared type: 413 / 400 and the
 * upload is gone. A short body: 400, nothing of it kept, the client may retry.
 */
export async function receiveBody(partnerId: number, uploadId: string | undefined, index: number | null, body: AsyncIterable<Uint8Array>, declaredLength: string | null) {
  const upload = await ownUpload(partnerId, uploadId);
  const chunked = index !== null;
  const expected = upload.chunks;
  if (upload.complete) throw new ApiError(409, "chunk_out_of_order", "The upload is complete; finalise it", { next_chunk: null });
  if ((chunked && index !== expected) || (!chunked && expected !== 0)) {
    throw new ApiError(409, "chunk_out_of_order", `Expected chunk ${expected}`, { next_chunk: expected });
  }
  const remaining = upload.declaredBytes - upload.receivedBytes;
  const allowed = chunked ? Math.min(env.MEDIA_CHUNK_BYTES, remaining) : remaining;
  // Past the declared size (itself within the kind's limit) the upload ends.
  const overLimit = () => new FatalUploadError(fileTooLarge(upload.declaredBytes));
  const overChunk = () => badRequest("invalid_chunk", `A chunk holds at most ${env.MEDIA_CHUNK_BYTES} bytes (chunkSize)`);
  const length = declaredLength !== null && /^\d+$/.test(declaredLength) ? Number(declaredLength) : null;
  if (length !== null && length > allowed) {
    if (length > remaining) {
      await discardUpload(upload);
      throw fileTooLarge(upload.declaredBytes);
    }
    throw overChunk();
  }

  // One writer at a time (across processes): claim the upload at the chunk count read above.
  const now = new Date();
  const claimed = await db.mediaUpload.updateMany({
    where: { id: upload.id, chunks: expected, complete: false, OR: [{ lockedAt: null }, { lockedAt: { lt: new Date(now.getTime() - STALE_LOCK_MS) } }] },
    data: { lockedAt: now },
  });
  if (claimed.count === 0) throw new ApiError(409, "chunk_out_of_order", "Another request is writing to this upload", { next_chunk: expected });

  const mime = upload.mime as MediaMime;
  let counted = 0;
  // Counts bytes as they pass on to storage, stops past the limit, and checks the type from the first bytes.
  async function* checked(): AsyncGenerator<Uint8Array> {
    let head: Buffer | null = expected === 0 ? Buffer.alloc(0) : null;
    const checkHead = () => {
      if (head && sniffMedia(head) !== mime) {
        throw new FatalUploadError(badRequest("unsupported_mime", `The file's bytes are not ${mime}`));
      }
      head = null;
    };
    for await (const chunk of body) {
      counted += chunk.byteLength;
      if (counted > allowed) throw counted + upload.receivedBytes > upload.declaredBytes ? overLimit() : overChunk();
      if (head) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length >= SNIFF_BYTES) checkHead();
      }
      yield chunk;
    }
    checkHead();
    if (counted < allowed) {
      throw chunked
        ? badRequest("invalid_chunk", `A chunk but the last holds exactly ${env.MEDIA_CHUNK_BYTES} bytes; this one has ${counted}`)
        : badRequest("invalid_bytes", `The body has ${counted} bytes; ${upload.declaredBytes} were declared`);
    }
  }

  const draft: ObjectDraft = { s3UploadId: upload.s3UploadId, parts: JSON.parse(upload.s3Parts) };
  try {
    const firstPart = chunked ? index + 1 : 1;
    const written = await writeObjectPart(upload.storagePath, mime, draft, upload.receivedBytes, firstPart, checked(), env.MEDIA_CHUNK_BYTES);
    const receivedBytes = upload.receivedBytes + written.bytes;
    const complete = receivedBytes === upload.declaredBytes;
    if (complete) {
      await completeObject(upload.storagePath, written.draft);
      if (upload.kind === "image") await checkPixels(upload.storagePath);
    }
    const updated = await db.mediaUpload.update({
      where: { id: upload.id },
      data: {
        receivedBytes,
        chunks: expected + 1,
        complete,
        lockedAt: null,
        s3UploadId: written.draft.s3UploadId,
        s3Parts: JSON.stringify(written.draft.parts),
      },
    });
    return uploadJson(updated);
  } catch (err) {
    if (err instanceof FatalUploadError) {
      await discardUpload(upload);
      throw err.error;
    }
    await db.mediaUpload.update({ where: { id: upload.id }, data: { lockedAt: null } }).catch(() => {});
    throw err;
  }
}

/** An image over IMAGE_MAX_PIXELS ends its upload (413, as a file over the byte limit does). */
async function checkPixels(storagePath: string): Promise<void> {
  const size = await objectRasterSize(storagePath, env.MEDIA_MAX_IMAGE_BYTES);
  if (size && overPixelLimit(size)) {
    throw new FatalUploadError(
      new ApiError(413, "file_too_large", `The image has ${size.width}×${size.height} pixels, more than ${env.IMAGE_MAX_PIXELS}`, {
        max_pixels: env.IMAGE_MAX_PIXELS,
        width: size.width,
        height: size.height,
      }),
    );
  }
}

async function discardUpload(upload: { id: string; storagePath: string; s3UploadId: string | null; s3Parts: string }) {
  await db.mediaUpload.deleteMany({ where: { id: upload.id } });
  await deleteObject(upload.storagePath, { s3UploadId: upload.s3UploadId, parts: [] }).catch((err) =>
    log.warn("media object not deleted", { path: upload.storagePath, ...errorFields(err) }),
  );
}

/** An upload not finalised this long after it started is abandoned (resuming takes minutes, not days). */
export const UPLOADS_KEPT_MS = 24 * 3_600_000;

/**
 * Deletes up to `batch` abandoned uploads (oldest first, found through the
 * `createdAt` index) with their partial or finished-but-unclaimed objects;
 * returns how many. An upload a request is writing to right now stays: the
 * row goes only while it is unlocked (or its lock is stale), checked in the
 * same statement, and its object only once the row is gone.
 */
export async function pruneAbandonedUploads(batch: number, now = Date.now()): Promise<{ deleted: number; more: boolean }> {
  const unlocked = { OR: [{ lockedAt: null }, { lockedAt: { lt: new Date(now - STALE_LOCK_MS) } }] };
  const old = await db.mediaUpload.findMany({
    where: { createdAt: { lt: new Date(now - UPLOADS_KEPT_MS) } },
    orderBy: { createdAt: "asc" },
    take: batch,
    select: { id: true, storagePath: true, s3UploadId: true },
  });
  let deleted = 0;
  for (const upload of old) {
    const { count } = await db.mediaUpload.deleteMany({ where: { id: upload.id, ...unlocked } });
    if (count === 0) continue;
    deleted++;
    await deleteObject(upload.storagePath, { s3UploadId: upload.s3UploadId, parts: [] }).catch((err) =>
      log.warn("media object not deleted", { path: upload.storagePath, ...errorFields(err) }),
    );
  }
  // A full batch of which some were locked: the rest waits for the next run rather than re-reading the locked ones.
  return { deleted, more: old.length === batch && deleted === old.length };
}

/** A poster: an image (not rejected) the same shop finalised; 400 `invalid_poster_path` otherwise. */
async function checkPoster(shopId: number, posterPath: string): Promise<void> {
  const poster = STORAGE_PATH.test(posterPath)
    ? await db.media.findFirst({ where: { storagePath: posterPath, shopId, kind: "image", status: { not: "rejected" } }, select: { id: true } })
    : null;
  if (!poster) throw badRequest("invalid_poster_path", "posterPath must be the storagePath of an image of the same shop");
}

/** Turns a complete upload into a Media row (status `ready`). */
export async function finalizeUpload(partnerId: number, uploadId: string | undefined, input: { storagePath: string; posterPath?: string | null }) {
  const upload = await ownUpload(partnerId, uploadId);
  if (!STORAGE_PATH.test(input.storagePath) || input.storagePath !== upload.storagePath) {
    throw badRequest("invalid_storage_path", "storagePath must be the storagePath this upload was given");
  }
  if (input.posterPath != null) {
    if (upload.kind !== "video") throw badRequest("invalid_poster_path", "Only videos have a poster");
    await checkPoster(upload.shopId, input.posterPath);
  }
  if (!upload.complete || !(await objectExists(upload.storagePath))) {
    throw new ApiError(409, "object_not_found", `The object is not complete in storage yet (${upload.receivedBytes} of ${upload.declaredBytes} bytes)`);
  }
  const free = upload.kind === "video" && (await partnerIsFree(upload.partnerId));
  const media = await db.$transaction(async (tx) => {
    // Serialises finalisations per shop: PostgreSQL locks the shop's row; SQLite transactions take the write lock up front.
    if (isPg()) await lockShopRow(tx, upload.shopId);
    if (free && (await countQuotaVideos(tx, upload.shopId)) >= FREE_PLAN_VIDEO_LIMIT) throw quotaReached();
    const taken = await tx.mediaUpload.deleteMany({ where: { id: upload.id } });
    if (taken.count === 0) throw notFound("not_found", "No such upload");
    const last = await tx.media.aggregate({ where: { shopId: upload.shopId }, _max: { position: true } });
    return tx.media.create({
      data: {
        shopId: upload.shopId,
        partnerId: upload.partnerId,
        kind: upload.kind,
        mime: upload.mime,
        bytes: upload.declaredBytes,
        storagePath: upload.storagePath,
        posterPath: input.posterPath ?? null,
        status: "ready",
        position: (last._max.position ?? -1) + 1,
      },
    });
  });
  return mediaJson(media);
}

// ---------------------------------------------------------------- media

type MediaRow = Pick<Media, "id" | "shopId" | "kind" | "mime" | "bytes" | "storagePath" | "posterPath" | "status" | "position" | "createdAt" | "updatedAt">;

export function mediaJson(media: MediaRow) {
  return {
    id: media.id,
    shopId: media.shopId,
    kind: media.kind as MediaKind,
    mime: media.mime,
    bytes: media.bytes,
    storagePath: media.storagePath,
    url: objectUrl(media.storagePath),
    posterPath: media.posterPath,
    posterUrl: media.posterPath ? objectUrl(media.posterPath) : null,
    status: media.status,
    position: media.position,
    createdAt: media.createdAt.toISOString(),
    updatedAt: media.updatedAt.toISOString(),
  };
}

export async function listMedia(partnerId: number, shopId: number) {
  await ownShop(partnerId, shopId);
  const rows = await db.media.findMany({ where: { shopId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  return rows.map(mediaJson);
}

async function ownMedia(partnerId: number, id: number) {
  const media = await db.media.findFirst({ where: { id, shop: { partnerId } } });
  if (!media) throw notFound("not_found", `No media ${id}`);
  return media;
}

export interface MediaPatch {
  position?: number;
  status?: "active" | "hidden";
  posterPath?: string | null;
}

export async function updateMedia(partnerId: number, id: number, patch: MediaPatch) {
  if (patch.position === undefined && patch.status === undefined && patch.posterPath === undefined) {
    throw badRequest("nothing_to_update", "Send position, status or posterPath");
  }
  const media = await ownMedia(partnerId, id);
  if (patch.status !== undefined && media.status === "rejected") {
    throw new ApiError(409, "media_rejected", "This media was rejected by moderation and cannot be re-activated");
  }
  if (patch.posterPath != null) {
    if (media.kind !== "video") throw badRequest("invalid_poster_path", "Only videos have a poster");
    await checkPoster(media.shopId, patch.posterPath);
  }
  const updated = await db.media.update({
    where: { id: media.id },
    data: { position: patch.position, status: patch.status, posterPath: patch.posterPath },
  });
  return mediaJson(updated);
}

/** Removes the row (and the poster links to it) and the stored object. */
export async function deleteMedia(partnerId: number, id: number) {
  const media = await ownMedia(partnerId, id);
  await db.$transaction([
    db.media.updateMany({ where: { shopId: media.shopId, posterPath: media.storagePath }, data: { posterPath: null } }),
    db.media.deleteMany({ where: { id: media.id } }),
  ]);
  await deleteObject(media.storagePath).catch((err) => log.warn("media object not deleted", { path: media.storagePath, ...errorFields(err) }));
  return { deleted: true, id: media.id };
}

/** A finalised, not rejected media object by storage path, for serving local files. */
export function servableMedia(storagePath: string) {
  if (!STORAGE_PATH.test(storagePath)) return null;
  return db.media.findFirst({ where: { storagePath, status: { not: "rejected" } }, select: { mime: true, bytes: true } });
}
