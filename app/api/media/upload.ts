// `PUT /media/uploads/{uploadId}`: the whole file as the raw body, streamed into storage; `GET`: the upload's state.
import { endpoint, route } from "~/api/endpoint.server";
import { receiveBody, uploadStatus } from "~/domains/media/creator-media.server";
import { BODY_ERRORS, mediaPartnerId, uploadIdParams, uploadSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "Where an upload stands (bytes and chunks stored), to resume it",
      params: uploadIdParams,
      response: uploadSchema,
      errors: { no_partner: 403, not_found: 404 },
    },
    ({ partner, params }) => uploadStatus(mediaPartnerId(partner), params.uploadId),
  ),
  PUT: route(
    "partner",
    {
      summary: "Upload the whole file (raw body, any content type) of a started upload",
      description:
        "The body is streamed into storage and counted: past the declared size 413 `file_too_large` and the upload is deleted (likewise, once complete, an image whose header describes more than IMAGE_MAX_PIXELS pixels); bytes that are not the declared type 400 `unsupported_mime` (upload deleted); fewer bytes than declared 400 `invalid_bytes` (nothing kept; send again).",
      params: uploadIdParams,
      rawBody: true,
      response: uploadSchema,
      errors: { ...BODY_ERRORS, invalid_bytes: 400, not_found: 404 },
    },
    ({ partner, params, request }) =>
      receiveBody(mediaPartnerId(partner), params.uploadId, null, request.bodyStream(), request.headers.get("content-length")),
  ),
});
export const action = loader;
