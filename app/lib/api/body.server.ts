// Reads a JSON request body with a size cap that also holds for chunked
// bodies (no Content-Length): reading stops at the first byte over the cap.
import { env } from "~/env.server";
import { ApiError } from "./errors";

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;

export async function readJsonBody(request: Request, limit = env.MAX_BODY_BYTES): Promise<unknown> {
  const tooLarge = () => new ApiError(413, "payload_too_large", `Request body exceeds ${limit} bytes`);
  const declared = request.headers.get("content-length");
  if (declared && Number(declared) > limit) throw tooLarge();
  if (!request.body) return undefined;

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;

  const type = request.headers.get("content-type");
  if (type && !JSON_TYPE.test(type)) {
    throw new ApiError(415, "unsupported_media_type", "Request body must be JSON (Content-Type: application/json)");
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_json", "Request body is not valid JSON");
  }
}
