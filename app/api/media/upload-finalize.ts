// `POST /media/uploads/{uploadId}/finalize`: turns a complete upload into a media item.
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { finalizeUpload } from "~/domains/media/creator-media.server";
import { mediaPartnerId, mediaSchema, uploadIdParams } from "./schemas";

export const loader = endpoint({
  POST: route(
    "partner",
    {
      summary: "Finalise a complete upload into a media item (status ready)",
      description:
        "`storagePath` is the one the upload was given; a video's optional `posterPath` is the storagePath of an image of the same shop. Creator Free plan: a shop holds at most 5 ready videos (402 `plan_limit_reached`). " +
        "Another `storagePath` is 400 `invalid_storage_path`, a `posterPath` that is no image of the shop 400 `invalid_poster_path`; not all declared bytes stored yet is 409 `object_not_found`.",
      params: uploadIdParams,
      body: z.object({
        storagePath: z.string().max(200),
        posterPath: z.string().max(200).nullable().optional(),
      }),
      codes: {
        missing: { storagePath: "invalid_storage_path" },
        invalid: { storagePath: "invalid_storage_path", posterPath: "invalid_poster_path" },
      },
      response: mediaSchema,
      status: 201,
      errors: { no_partner: 403, object_not_found: 409, plan_limit_reached: 402, not_found: 404 },
    },
    async ({ partner, params, body }) => {
      const partnerId = mediaPartnerId(partner);
      return json(await finalizeUpload(partnerId, params.uploadId, body), { status: 201 });
    },
  ),
});
export const action = loader;
