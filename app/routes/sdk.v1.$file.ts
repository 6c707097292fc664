// GET /sdk/v1/{widget,basket-integration}.js (the v1 alias) and their
// content-hashed copies (SPEC 9); anything else under /sdk/v1 is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "~/api/endpoint.server";
import { ALIAS_CACHE_CONTROL, PINNED_CACHE_CONTROL, sdkScript } from "~/domains/sdk/scripts.server";
import { ApiError, notFound } from "~/lib/api/errors";
import { applySecurityHeaders } from "~/lib/http/security-headers";

export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  try {
    const script = await sdkScript(params.file ?? "");
    if (!script) throw notFound("not_found", "No such script");
    const headers = {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": script.pinned ? PINNED_CACHE_CONTROL : ALIAS_CACHE_CONTROL,
      etag: script.etag,
      // Shop pages load it cross-origin, also with crossorigin + integrity (SRI) and under COEP.
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
    };
    const match = request.headers.get("if-none-match");
    const response =
      match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === script.etag)
        ? new Response(null, { status: 304, headers })
        : new Response(request.method === "HEAD" ? null : new Uint8Array(script.body), {
            headers: { ...headers, "content-length": String(script.body.length) },
          });
    applySecurityHeaders(response.headers, new URL(request.url).pathname);
    return response;
  } catch (err) {
    return errorResponse(err, request);
  }
}

export async function action({ request }: LoaderFunctionArgs): Promise<Response> {
  return errorResponse(new ApiError(405, "method_not_allowed", "Use GET", {}, { Allow: "GET, HEAD" }), request);
}
