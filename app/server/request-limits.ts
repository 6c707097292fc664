// Limits the HTTP server (main.ts) applies before any route outside /api/v1
// runs (docs/operations.md "Request limits"): a body cap per path class, counted while
// reading so chunked bodies are capped too, and a cap on open connections per
// client address. /api/v1 routes cap their own bodies (MAX_BODY_BYTES, media uploads).
import { IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
export { readBoundedBody, TOO_LARGE } from "~/lib/api/bounded-body";

export interface BodyLimits {
  PAGE_MAX_BODY_BYTES: number;
  WEBHOOK_MAX_BODY_BYTES: number;
}

const WEBHOOKS = /^\/webhooks(\/|$)/;

/**
 * The body cap of a path outside /api/v1: a form's for pages, Shopify's sizes
 * for /webhooks/*. Shopify documents no maximum for HTTPS deliveries
 * (shopify.dev/docs/apps/build/webhooks/subscribe/https); its event-bus
 * deliveries go up to 1,000,000 bytes and send `{"id": …}` above that
 * (shopify.dev/changelog/amazon-eventbridge-webhook-payload-size-limit-increased-to-1-mb),
 * so the 5 MiB default leaves five times the largest documented payload.
 */
export function bodyLimitFor(pathname: string, limits: BodyLimits): number {
  return WEBHOOKS.test(pathname) ? limits.WEBHOOK_MAX_BODY_BYTES : limits.PAGE_MAX_BODY_BYTES;
}

/** Whether a body follows the headers (RFC 9112 section 6.3: Transfer-Encoding, or a Content-Length other than 0). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && Number(length) !== 0;
}

/**
 * A request that reads `body` and is `req` in everything else (socket,
 * method, target, headers), for the handlers after the cap: `req`'s own body
 * has been read to check it.
 */
export function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.trailers = req.trailers;
  copy.rawTrailers = req.rawTrailers;
  copy.complete = true;
  if (body.length > 0) copy.push(body);
  copy.push(null);
  return copy;
}

/**
 * Closes connections past `max` open ones from one peer address at once, so
 * one client cannot hold every socket the process can open. `exempt` peers
 * (trusted proxies, which carry many clients) are not counted. `max` 0 = no cap.
 */
export function capConnectionsPerClient(server: Server, max: number, exempt: (address: string) => boolean, onRefused: () => void): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || exempt(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      onRefused();
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** How long an over-cap request's connection stays open after its 413 has been written. */
export const LINGER_MS = 2000;

/**
 * After a 413 to a body still arriving: discard what the client sends until
 * it has had time to read the answer, then close. Closing at once (or after
 * a fixed number of bytes) while the client still writes makes the kernel
 * answer with a reset, which can destroy the unread 413 on the client's side.
 * Nothing is kept in memory; the time, not the size, is bounded.
 */
export function lingerThenClose(req: IncomingMessage, res: ServerResponse): void {
  req.on("data", () => undefined);
  req.on("error", () => undefined);
  // A body that ended meanwhile leaves the connection usable for the client's next request.
  const close = () => setTimeout(() => req.complete || req.socket.destroy(), LINGER_MS).unref();
  if (res.writableFinished) close();
  else res.once("finish", close);
}

/** Node checks the header and request timeouts on an interval (default 30 s); small timeouts need a shorter one. */
export function timeoutCheckInterval(headersTimeoutMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4)));
}
