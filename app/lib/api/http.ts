// The small request and reply the API core works on, independent of the
// server in front of it: the node:http path (app/lib/api/node-adapter.server.ts)
// builds them straight from IncomingMessage/ServerResponse, the Remix
// resource route (app/lib/api/web-adapter.server.ts) from a Web Request.
// No Web Request/Response objects on the hot path: creating one costs more
// than a cheap route's whole work.

/** Read access to request headers (names case-insensitive); `Headers` satisfies it. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What the API reads from a request. */
export interface ApiRequest {
  readonly method: string;
  /** Absolute URL (scheme and host from the request; nothing depends on them). */
  readonly url: string;
  /** Raw (undecoded) path and query string ("" or "?…"). */
  readonly pathname: string;
  readonly search: string;
  readonly headers: HeaderReader;
  /**
   * The whole body, capped at `limit` bytes: undefined when empty; past the
   * cap (declared or counted) 413 `payload_too_large` after draining it.
   */
  readBody(limit: number): Promise<Buffer | undefined>;
  /**
   * The body as it arrives, chunk by chunk, for routes that stream it
   * (`rawBody`) instead of buffering. A reader that stops early leaves the
   * rest unread: it is drained (up to a cap) after the reply is sent.
   */
  bodyStream(): AsyncIterable<Uint8Array>;
  /** Reads and drops a body nobody read, so a keep-alive connection stays usable. */
  discardBody(): Promise<void> | void;
}

/** A header container to change: Web `Headers` and ReplyHeaders both fit. */
export interface MutableHeaders {
  get(name: string): string | null;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
}

/** Response headers, lowercase names; `set-cookie` may repeat. */
export class ReplyHeaders implements MutableHeaders {
  readonly map: Record<string, string | string[]> = Object.create(null);

  constructor(init?: Record<string, string>) {
    if (init) for (const name in init) this.map[name.toLowerCase()] = init[name];
  }

  get(name: string): string | null {
    const value = this.map[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  has(name: string): boolean {
    return this.map[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.map[name.toLowerCase()] = value;
  }

  /** Like Headers#append: set-cookie lines stay separate, other values join with ", ". */
  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.map[key];
    if (current === undefined) this.map[key] = value;
    else if (key === "set-cookie") this.map[key] = Array.isArray(current) ? [...current, value] : [current, value];
    else this.map[key] = `${Array.isArray(current) ? current.join(", ") : current}, ${value}`;
  }

  delete(name: string): void {
    delete this.map[name.toLowerCase()];
  }

  /** Copies every header of a Web `Headers` (set-cookie lines kept apart). */
  static from(headers: Headers): ReplyHeaders {
    const reply = new ReplyHeaders();
    headers.forEach((value, name) => {
      if (name !== "set-cookie") reply.map[name] = value;
    });
    const cookies = headers.getSetCookie();
    if (cookies.length) reply.map["set-cookie"] = cookies.length === 1 ? cookies[0] : cookies;
    return reply;
  }
}

/**
 * What the API answers: a body already encoded (JSON text, bytes), none, or
 * the body of a Response a handler returned (scripts, images, documents).
 */
export interface ApiReply {
  status: number;
  headers: ReplyHeaders;
  body: string | Uint8Array | null | ReadableStream<Uint8Array>;
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A JSON reply (what Remix's `json()` answered: same Content-Type). */
export function jsonReply(data: unknown, status = 200, headers?: Record<string, string>): ApiReply {
  const replyHeaders = new ReplyHeaders(headers);
  if (!replyHeaders.has("content-type")) replyHeaders.map["content-type"] = JSON_CONTENT_TYPE;
  return { status, headers: replyHeaders, body: JSON.stringify(data) ?? null };
}

/** A Response a handler returned, as a reply (its body is passed on, not read here). */
export function replyOfResponse(response: Response): ApiReply {
  return { status: response.status, headers: ReplyHeaders.from(response.headers), body: response.body };
}

/** What code that only reads request headers needs (an ApiRequest or a Web Request). */
export interface WithHeaders {
  readonly headers: HeaderReader;
}
