import { endpoint, route } from "~/api/endpoint.server";
import { previewImage } from "~/domains/previews/og-image.server";

export const loader = endpoint({
  GET: route("none", async ({ params, request }) => {
    const image = await previewImage(params.file ?? "");
    const headers = { "content-type": "image/png", "cache-control": image.cacheControl, etag: image.etag };
    if (request.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : new Uint8Array(image.png), {
      headers: { ...headers, "content-length": String(image.png.length) },
    });
  }),
});
export const action = loader;
