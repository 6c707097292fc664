// Reads a JSON request body with a size cap that also holds for chunked
// bodies (no Content-Length): reading stops at the first byte over the cap.
import { env } from "~/env.server";
import { ApiError } from "./errors";

// Reading (and discarding) the rest of an oversized body lets the client
// receive the 413 instead of a reset connection; past this much we give up
// and drop the connection.
const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<void> {
  let drained = 0;
  const cap = Math.max(DRAIN_CAP_BYTES, limit * 4);
  while (drained < cap) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
  }
  await reader.cancel().catch(() => {});
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;

export async function readJsonBody(request: Request, limit = env.MAX_BODY_BYTES): Promise<unknown> {
  const tooLarge = () => new ApiError(413, "payload_too_large", `Request body exceeds ${limit} bytes`);
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const declared = request.headers.get("content-length");
  if (declared && Number(declared) > limit) {
    await drain(reader, limit);
    throw tooLarge();
  }

  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drain(reader, limit);
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

/**
 * Reads and drops a body nobody read (a request rejected before its body was
 * needed), so the keep-alive connection stays usable for the next request.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed || request.body.locked) return;
  await drain(request.body.getReader(), env.MAX_BODY_BYTES).catch(() => {});
}
