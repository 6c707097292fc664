// Request and answer shapes shared by the creator media routes (not a route module itself).
import { z } from "zod";
import type { PartnerPrincipal } from "~/domains/partners/principal";
import { MEDIA_MIMES, MEDIA_STATUSES } from "~/domains/media/creator-media.server";
import { badRequest, forbidden } from "~/lib/api/errors";

/** The partner the creator acts for; without one 403 `no_partner` (media management, SPEC 7.4). */
export function mediaPartnerId(principal: PartnerPrincipal): number {
  if (principal.partnerId === null) throw forbidden("no_partner", "This user is not linked to a partner");
  return principal.partnerId;
}

/** A positive integer, as a JSON number or a numeric string. */
export const numericId = z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[1-9]\d{0,14}$/)]);

/** A numeric path id; 400 `invalid_id` otherwise. */
export function mediaId(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,14}$/.test(value)) throw badRequest("invalid_id", `${JSON.stringify(value ?? "")} is not a media id`);
  return Number(value);
}

export const uploadIdParams = z.object({ uploadId: z.string().describe("The uploadId answered by POST /media/uploads") });

export const uploadSchema = z.object({
  uploadId: z.string(),
  shopId: z.number().int(),
  kind: z.enum(["image", "video"]),
  mime: z.enum(MEDIA_MIMES),
  bytes: z.number().int().describe("Declared size"),
  storagePath: z.string().describe("`media/<shopId>/<file>.<ext>`; send it back to finalize"),
  uploadUrl: z.string().describe("PUT the whole file here, or chunks to `<uploadUrl>/chunks/<index>`"),
  chunkSize: z.number().int().describe("Size of every chunk but the last"),
  receivedBytes: z.number().int(),
  nextChunk: z.number().int().describe("Index of the next chunk to send"),
  complete: z.boolean().describe("All declared bytes are stored; finalize next"),
});

export const mediaSchema = z.object({
  id: z.number().int(),
  shopId: z.number().int(),
  kind: z.enum(["image", "video"]),
  mime: z.enum(MEDIA_MIMES),
  bytes: z.number().int(),
  storagePath: z.string(),
  url: z.string().describe("Where the object is served"),
  posterPath: z.string().nullable(),
  posterUrl: z.string().nullable(),
  status: z.enum(MEDIA_STATUSES),
  position: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** What a body route answers with when its stream breaks the rules. */
export const BODY_ERRORS = {
  no_partner: 403,
  chunk_out_of_order: 409,
  file_too_large: 413,
  unsupported_mime: 400,
};
