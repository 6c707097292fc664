// Serves product images copied into local storage (STORAGE_DRIVER=local).
// Names are content hashes, so responses are cacheable forever.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { readLocalImage } from "~/domains/media/image-store.server";
import { errorResponse } from "~/http/error-reply.server";
import { ApiError, notFound } from "~/lib/api/errors";
import { securityHeaders } from "~/lib/http/security-headers";

export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  try {
    const image = await readLocalImage(params.file ?? "");
    if (!image) throw notFound("not_found");
    const headers = {
      "content-type": image.contentType,
      "cache-control": "public, max-age=31536000, immutable",
      ...securityHeaders(new URL(request.url).pathname, { html: false }),
      etag: image.etag,
    };
    if (request.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : new Uint8Array(image.body), {
      headers: { ...headers, "content-length": String(image.body.length) },
    });
  } catch (err) {
    return errorResponse(err, request);
  }
}

export async function action({ request }: LoaderFunctionArgs): Promise<Response> {
  return errorResponse(new ApiError(405, "method_not_allowed", "Use GET"), request);
}
