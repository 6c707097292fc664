// Loader of the deprecated script paths (SPEC 9, app/routes/*[.]js.ts):
// a permanent redirect to the canonical file, query kept.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "~/http/error-reply.server";
import { DEPRECATED_SCRIPT_PATHS } from "~/domains/shop-scripts/shop-scripts.server";
import { ApiError, notFound } from "~/lib/api/errors";
import { applySecurityHeaders } from "~/lib/http/security-headers";

export function redirectDeprecatedScript({ request }: LoaderFunctionArgs): Response {
  const url = new URL(request.url);
  const target = DEPRECATED_SCRIPT_PATHS[url.pathname];
  if (!target) return errorResponse(notFound("not_found"), request);
  if (request.method !== "GET" && request.method !== "HEAD") {
    return errorResponse(new ApiError(405, "method_not_allowed", "Use GET", {}, { Allow: "GET, HEAD" }), request);
  }
  const response = new Response(null, { status: 301, headers: { location: target + url.search, "cache-control": "public, max-age=86400" } });
  applySecurityHeaders(response.headers, url.pathname);
  return response;
}
