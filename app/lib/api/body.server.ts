// Reads a JSON request body with a size cap that also holds for chunked
// bodies (no Content-Length): reading stops at the first byte over the cap.
import type { IncomingMessage } from "node:http";
import { env } from "~/env.server";
import { readBoundedBody, TOO_LARGE } from "./bounded-body";
import { ApiError } from "./errors";
import type { ApiRequest } from "./http";

// Reading (and discarding) the rest of an oversized body lets the client
// receive the 413 instead of a reset connection; past this much we give up
// and drop the connection.
const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<void> {
  let drained = 0;
  const cap = drainCap(limit);
  while (drained < cap) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
  }
  await reader.cancel().catch(() => {});
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;

/** Deeper bodies are refused before parsing: no request shape nests this far, and deep values break recursive code later on. */
export const MAX_JSON_DEPTH = 32;

/** Nesting depth of a JSON text, counting brackets outside strings; stops counting once over `limit`. One linear pass. */
function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

// Node 20 has String#isWellFormed; the TypeScript lib set here (ES2023) does not declare it.
const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

type StringFault = "surrogate" | "nul";

function stringFault(s: string): StringFault | null {
  if (!wellFormed(s)) return "surrogate";
  return s.includes("\u0000") ? "nul" : null;
}

/**
 * The first string or key that cannot be stored: an unpaired UTF-16 surrogate
 * (not Unicode; I-JSON, RFC 7493) or U+0000 (PostgreSQL text cannot hold it).
 * Only `\u` escapes can produce either (raw bytes decode to U+FFFD, raw NUL is not JSON).
 */
function findStringFault(value: unknown): StringFault | null {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      const fault = stringFault(v);
      if (fault) return fault;
    } else if (Array.isArray(v)) {
      for (const inner of v) stack.push(inner);
    } else if (v !== null && typeof v === "object") {
      for (const [key, inner] of Object.entries(v)) {
        const fault = stringFault(key);
        if (fault) return fault;
        stack.push(inner);
      }
    }
  }
  return null;
}

const tooLarge = (limit: number) => new ApiError(413, "payload_too_large", `Request body exceeds ${limit} bytes`);
const drainCap = (limit: number) => Math.max(DRAIN_CAP_BYTES, limit * 4);

/** Reads a Web stream body (the Remix route's Request) with the cap; see ApiRequest#readBody. */
export async function readStreamBody(stream: ReadableStream<Uint8Array> | null, declared: string | null, limit: number): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const reader = stream.getReader();
  if (declared && Number(declared) > limit) {
    await drain(reader, limit);
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drain(reader, limit);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return size === 0 ? undefined : Buffer.concat(chunks, size);
}

/** Reads and drops an unread Web stream body. */
export async function discardStreamBody(stream: ReadableStream<Uint8Array> | null, used: boolean): Promise<void> {
  if (!stream || used || stream.locked) return;
  await drain(stream.getReader(), env.MAX_BODY_BYTES).catch(() => {});
}

/** Reads and drops up to the drain cap of a node request body; past it the connection is dropped. */
export function drainNodeBody(req: IncomingMessage, limit: number): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let drained = 0;
    const cap = drainCap(limit);
    const done = () => {
      req.off("data", onData);
      req.off("end", done);
      req.off("close", done);
      req.off("error", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained >= cap) {
        done();
        req.destroy();
      }
    };
    req.on("data", onData);
    req.on("end", done);
    req.on("close", done);
    req.on("error", done);
  });
}

/** Reads a node request body with the cap; see ApiRequest#readBody. Over the cap: drained (see above), then 413. */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const body = await readBoundedBody(req, limit);
  if (body === TOO_LARGE) {
    await drainNodeBody(req, limit);
    throw tooLarge(limit);
  }
  return body.length === 0 ? undefined : body;
}

/**
 * The request's JSON body (undefined when there is none), after the size cap,
 * the media type, the nesting depth and the string checks.
 */
export async function readJsonBody(request: ApiRequest, limit = env.MAX_BODY_BYTES): Promise<unknown> {
  const bytes = await request.readBody(limit);
  if (!bytes) return undefined;

  const type = request.headers.get("content-type");
  if (type && !JSON_TYPE.test(type)) {
    throw new ApiError(415, "unsupported_media_type", "Request body must be JSON (Content-Type: application/json)");
  }
  const text = bytes.toString("utf8");
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ApiError(400, "invalid_json", `Request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_json", "Request body is not valid JSON");
  }
  const fault = text.includes("\\u") ? findStringFault(value) : null;
  if (fault === "surrogate") {
    throw new ApiError(400, "invalid_json", "Request body contains an unpaired surrogate (\\uD800-\\uDFFF), which is not valid Unicode");
  }
  if (fault === "nul") throw new ApiError(400, "invalid_input", "Request body contains a NUL character (\\u0000)");
  return value;
}
