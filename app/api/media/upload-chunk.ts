// `PUT /media/uploads/{uploadId}/chunks/{index}`: one chunk of a chunked upload.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { receiveBody } from "~/domains/media/creator-media.server";
import { badRequest } from "~/lib/api/errors";
import { BODY_ERRORS, mediaPartnerId, uploadIdParams, uploadSchema } from "./schemas";

export const loader = endpoint({
  PUT: route(
    "partner",
    {
      summary: "Upload chunk {index} (0-based, in order) of a started upload",
      description:
        "Every chunk but the last holds exactly `chunkSize` bytes (400 `invalid_chunk` otherwise, nothing kept); a chunk other than `nextChunk` is 409 `chunk_out_of_order`. Past the declared size 413 `file_too_large` and the upload is deleted (likewise, with the last chunk, an image whose header describes more than IMAGE_MAX_PIXELS pixels); the first chunk's bytes must be the declared type (400 `unsupported_mime`, upload deleted). The last chunk completes the object.",
      params: uploadIdParams.extend({ index: z.string().describe("0, 1, 2, …") }),
      rawBody: true,
      response: uploadSchema,
      errors: { ...BODY_ERRORS, invalid_chunk: 400, not_found: 404 },
    },
    ({ partner, params, request }) => {
      const partnerId = mediaPartnerId(partner);
      // Taken first: whatever is answered, the rest of the body is drained after the reply.
      const body = request.bodyStream();
      if (params.index === undefined || !/^\d{1,6}$/.test(params.index)) throw badRequest("invalid_chunk", "The chunk index is not a number");
      return receiveBody(partnerId, params.uploadId, Number(params.index), body, request.headers.get("content-length"));
    },
  ),
});
export const action = loader;
