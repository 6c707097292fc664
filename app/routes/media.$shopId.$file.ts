// Serves creator media stored locally (STORAGE_DRIVER=local) at
// `/media/<shopId>/<file>`, the object's storage path: finalised items only
// (not rejected ones), with byte ranges for video players.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { servableMedia } from "~/domains/media/creator-media.server";
import { localObject } from "~/domains/media/image-store.server";
import { errorResponse } from "~/http/error-reply.server";
import { ApiError, notFound } from "~/lib/api/errors";
import { securityHeaders } from "~/lib/http/security-headers";

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `size`; null when absent or not satisfiable as one range. */
function byteRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  try {
    const key = `media/${params.shopId ?? ""}/${params.file ?? ""}`;
    const media = await servableMedia(key);
    const object = media ? await localObject(key) : null;
    if (!media || !object) throw notFound("not_found");
    const headers: Record<string, string> = {
      "content-type": media.mime,
      "cache-control": "public, max-age=3600",
      ...securityHeaders(new URL(request.url).pathname, { html: false }),
      "accept-ranges": "bytes",
    };
    const range = byteRange(request.headers.get("range"), object.size);
    if (range === "unsatisfiable") {
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${object.size}` } });
    }
    const { start, end } = range ?? { start: 0, end: object.size - 1 };
    const length = object.size === 0 ? 0 : end - start + 1;
    headers["content-length"] = String(length);
    if (range) headers["content-range"] = `bytes ${start}-${end}/${object.size}`;
    const body =
      request.method === "HEAD" || length === 0
        ? null
        : (Readable.toWeb(createReadStream(object.file, { start, end })) as ReadableStream<Uint8Array>);
    return new Response(body, { status: range ? 206 : 200, headers });
  } catch (err) {
    return errorResponse(err, request);
  }
}

export async function action({ request }: LoaderFunctionArgs): Promise<Response> {
  return errorResponse(new ApiError(405, "method_not_allowed", "Use GET"), request);
}
