import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { previewImage } from "~/domains/previews/og-image.server";
import { etagMatches } from "~/http/shared-cache.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A rendered link-preview image; an unknown file gives the default image",
      description: "Answers 304 without a body when `If-None-Match` matches the image's ETag.",
      params: z.object({ file: z.string().describe("The image file named in a list's og:image") }),
      produces: "image/png",
      example: { params: { file: "default.png" } },
    },
    async ({ params, request }) => {
      const image = await previewImage(params.file ?? "");
      const headers = { "content-type": "image/png", "cache-control": image.cacheControl, etag: image.etag };
      if (etagMatches(request.headers.get("if-none-match"), image.etag)) return new Response(null, { status: 304, headers });
      return new Response(request.method === "HEAD" ? null : new Uint8Array(image.png), {
        headers: { ...headers, "content-length": String(image.png.length) },
      });
    },
  ),
});
export const action = loader;
