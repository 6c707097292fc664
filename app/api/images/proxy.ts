// `GET /images/proxy?url=<image URL>`: a remote image re-served through the guarded fetcher (SPEC 7.3, 7.5).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { ApiError } from "~/lib/api/errors";
import { httpUrlSchema } from "~/lib/api/schemas";
import { log, errorFields } from "~/lib/log.server";
import { proxyImage } from "~/domains/images/image-proxy.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Fetch a remote JPEG, PNG, GIF, WebP or AVIF image (public hosts, 5 MB, 10 s) and serve it, cached",
      description:
        "The type is read from the bytes and served as such. `upstream_error` carries the origin's status as HTTP status and in `status` " +
        "(502 when the origin sent no image, too many bytes, an image of more than IMAGE_MAX_PIXELS pixels by its header, or a non-error status; 504 on timeout), with `reason`.",
      query: z.object({ url: httpUrlSchema }),
      codes: { missing: { url: "invalid_or_disallowed_url" }, invalid: { url: "invalid_or_disallowed_url" } },
      produces: "image/*",
      errors: { invalid_or_disallowed_url: 400, upstream_error: 0, internal_server_error: 500 },
    },
    async ({ query }) => {
      try {
        const image = await proxyImage(query.url);
        return new Response(new Uint8Array(image.body), {
          status: 200,
          headers: {
            "content-type": image.contentType,
            "content-length": String(image.body.length),
            "cache-control": image.maxAge > 0 ? `public, max-age=${image.maxAge}` : "no-cache",
            "x-cache": image.cache,
            "content-security-policy": "default-src 'none'; sandbox",
          },
        });
      } catch (err) {
        if (err instanceof ApiError) throw err;
        log.error("image proxy failed", errorFields(err));
        throw new ApiError(500, "internal_server_error", "The image could not be proxied");
      }
    },
  ),
});
export const action = loader;
