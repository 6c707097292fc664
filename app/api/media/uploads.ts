// `POST /media/uploads`: starts a creator media upload (SPEC 7.5).
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { MEDIA_MIMES, startUpload } from "~/domains/media/creator-media.server";
import { mediaPartnerId, numericId, uploadSchema } from "./schemas";

export const loader = endpoint({
  POST: route(
    "partner",
    {
      summary: "Start an image or video upload for one of the partner's shops",
      description:
        "Declares the file: type (jpg, png, webp, MP4, MOV) and size (images up to MEDIA_MAX_IMAGE_BYTES, default 10 MiB; videos up to MEDIA_MAX_VIDEO_BYTES, default 200 MiB). Then PUT the bytes to `uploadUrl` (whole) or `uploadUrl/chunks/{index}`, and finalize. On the Creator Free plan a shop holding 5 ready videos gets 402 `plan_limit_reached`. " +
        "Another type, or a `kind` that disagrees with `mime`, is 400 `unsupported_mime`; `bytes` must be a positive integer or numeric string (400 `invalid_bytes`), `shopId` numeric (400 `invalid_shop_id`); over the kind's limit is 413 `file_too_large`.",
      body: z.object({
        shopId: numericId.describe("A PlatformShop id of the partner"),
        kind: z.enum(["image", "video"]).optional().describe("Must agree with mime"),
        mime: z.enum(MEDIA_MIMES),
        bytes: numericId.describe("Declared size in bytes"),
        fileName: z.string().max(255).optional(),
      }),
      codes: {
        missing: { shopId: "invalid_shop_id", mime: "unsupported_mime", bytes: "invalid_bytes" },
        invalid: { shopId: "invalid_shop_id", kind: "unsupported_mime", mime: "unsupported_mime", bytes: "invalid_bytes" },
      },
      response: uploadSchema,
      status: 201,
      errors: { no_partner: 403, unsupported_mime: 400, file_too_large: 413, plan_limit_reached: 402, not_found: 404 },
    },
    async ({ partner, body }) => {
      const partnerId = mediaPartnerId(partner);
      const upload = await startUpload(partnerId, { ...body, shopId: Number(body.shopId), bytes: Number(body.bytes) });
      return json(upload, { status: 201 });
    },
  ),
});
export const action = loader;
