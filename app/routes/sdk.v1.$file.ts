// GET /sdk/v1/{widget,basket-integration}.js (the v1 alias) and their
// content-hashed copies (SPEC 9); anything else under /sdk/v1 is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "~/http/error-reply.server";
import { sdkScriptReply } from "~/api/script-files.server";
import { ApiError } from "~/lib/api/errors";
import { responseOfReply } from "~/lib/api/web-adapter.server";

// `npm start` answers GET/HEAD before Remix (app/api/script-files.server.ts); this serves remix vite:dev.
export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  const ifNoneMatch = request.headers.get("if-none-match");
  return responseOfReply(await sdkScriptReply({ method: request.method, pathname, ifNoneMatch }, params.file ?? ""));
}

export async function action({ request }: LoaderFunctionArgs): Promise<Response> {
  return errorResponse(new ApiError(405, "method_not_allowed", "Use GET", {}, { Allow: "GET, HEAD" }), request);
}
