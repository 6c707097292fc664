// Reads a node request body up to a cap, counted while reading, so chunked
// bodies (no Content-Length) are capped too. Shared by the API's body reader
// (body.server.ts) and the HTTP server's caps outside /api/v1
// (app/server/request-limits.ts). No dependencies: the server loads it first.
import type { IncomingMessage } from "node:http";

export const TOO_LARGE = Symbol("body too large");

/**
 * The whole body when it is at most `limit` bytes, or TOO_LARGE as soon as it
 * is known to be larger: at once for a larger Content-Length, else at the
 * first chunk past the limit. What is over stays unread, for the caller to
 * drain or drop. Rejects when the client goes away before the end.
 */
export function readBoundedBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE);
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      cleanup();
      resolve(TOO_LARGE);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      if (req.readableEnded) return;
      cleanup();
      reject(new Error("request body aborted"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}
