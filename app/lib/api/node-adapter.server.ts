// The API core straight on node:http (the node:http path, app/server/main.ts):
// IncomingMessage in, ServerResponse out, with no Web Request/Response in
// between.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { drainNodeBody, readNodeBody } from "./body.server";
import type { ApiReply, ApiRequest, HeaderReader } from "./http";
import { env } from "~/env.server";

class NodeHeaders implements HeaderReader {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name] ?? this.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly headers: NodeHeaders;
  private bodyTaken = false;
  private streamed = false;

  constructor(
    private readonly req: IncomingMessage,
    readonly pathname: string,
    readonly search: string,
    private readonly res?: ServerResponse,
  ) {
    this.method = req.method ?? "GET";
    this.headers = new NodeHeaders(req.headers);
  }

  get url(): string {
    return `http://${this.req.headers.host ?? "localhost"}${this.pathname}${this.search}`;
  }

  readBody(limit: number): Promise<Buffer | undefined> {
    this.bodyTaken = true;
    return readNodeBody(this.req, limit);
  }

  bodyStream(): AsyncIterable<Uint8Array> {
    this.bodyTaken = true;
    this.streamed = true;
    // Stopping early must not destroy the socket: the reply still has to go out on it.
    return this.req.iterator({ destroyOnReturn: false });
  }

  discardBody(): Promise<void> | void {
    const { headers } = this.req;
    if (this.streamed) {
      // A streamed body the handler stopped reading (e.g. over a size limit):
      // the reply goes out first, then the rest is drained (past the cap the
      // connection is dropped), so the client reads the answer instead of a reset.
      if (this.req.readableEnded || this.req.destroyed) return;
      let started = false;
      const drain = () => {
        if (!started) void drainNodeBody(this.req, env.MAX_BODY_BYTES);
        started = true;
      };
      if (this.res && !this.res.writableFinished) this.res.once("finish", drain).once("close", drain);
      else drain();
      return;
    }
    // Most requests have no body at all: nothing to wait for.
    if (this.bodyTaken || (!headers["transfer-encoding"] && (!headers["content-length"] || headers["content-length"] === "0"))) return;
    this.bodyTaken = true;
    return drainNodeBody(this.req, env.MAX_BODY_BYTES);
  }
}

/** The request as the API reads it; `pathname` and `search` split from req.url by the server; `res` lets a half-read streamed body drain after the reply. */
export function apiRequestOfNode(req: IncomingMessage, pathname: string, search: string, res?: ServerResponse): ApiRequest {
  return new NodeApiRequest(req, pathname, search, res);
}

/** Writes the reply; a streamed body (a handler's Response) is piped with backpressure. */
export async function sendReply(res: ServerResponse, reply: ApiReply): Promise<void> {
  const { body } = reply;
  const headers = reply.headers.map;
  if (body === null) {
    res.writeHead(reply.status, headers);
    res.end();
  } else if (typeof body === "string" || body instanceof Uint8Array) {
    if (headers["content-length"] === undefined) headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    res.writeHead(reply.status, headers);
    res.end(body);
  } else {
    res.writeHead(reply.status, headers);
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (res.destroyed) {
          await reader.cancel();
          return;
        }
        if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
      }
      res.end();
    } catch (err) {
      res.destroy(err as Error);
    }
  }
}
