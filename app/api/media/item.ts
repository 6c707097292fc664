// `PATCH /media/{id}` (position, status, poster) and `DELETE /media/{id}`.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { deleteMedia, updateMedia } from "~/domains/media/creator-media.server";
import { mediaId, mediaPartnerId, mediaSchema } from "./schemas";

const params = z.object({ id: z.string().describe("Media id") });

export const loader = endpoint({
  PATCH: route(
    "partner",
    {
      summary: "Reorder, show or hide a media item, or set a video's poster",
      description: "`status` is `active` or `hidden`; a media item rejected by moderation keeps its status (409 `media_rejected`). `posterPath: null` removes a poster. Field codes: `invalid_position`, `invalid_status`, `invalid_poster_path`; no field is 400 `nothing_to_update`.",
      params,
      body: z.object({
        position: z.number().int().min(0).max(1_000_000).optional(),
        status: z.enum(["active", "hidden"]).optional(),
        posterPath: z.string().max(200).nullable().optional(),
      }),
      codes: { invalid: { position: "invalid_position", status: "invalid_status", posterPath: "invalid_poster_path" } },
      response: mediaSchema,
      errors: { no_partner: 403, invalid_id: 400, nothing_to_update: 400, media_rejected: 409, not_found: 404 },
    },
    ({ partner, params, body }) => {
      const partnerId = mediaPartnerId(partner);
      return updateMedia(partnerId, mediaId(params.id), body);
    },
  ),
  DELETE: route(
    "partner",
    {
      summary: "Delete a media item and its stored object",
      description: "Removes the row, the stored object and the posters pointing at it.",
      params,
      response: z.object({ deleted: z.literal(true), id: z.number().int() }),
      errors: { no_partner: 403, invalid_id: 400, not_found: 404 },
    },
    ({ partner, params }) => {
      const partnerId = mediaPartnerId(partner);
      return deleteMedia(partnerId, mediaId(params.id));
    },
  ),
});
export const action = loader;
