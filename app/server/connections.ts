// How long a connection of the HTTP server (main.ts) lives, beyond Node's
// timeouts (request-limits.ts):
// - Recycled after `maxRequests` requests: that answer carries
//   `Connection: close` and the connection closes after it, so a keep-alive
//   client reconnects and the cluster hands the new connection to the next
//   worker (a restarted worker gets its share within seconds). Node's own
//   `server.maxRequestsPerSocket` only asks: on Node 20 it keeps the socket
//   open and answers every further request on it with an empty 503.
// - Drained on shutdown: stop accepting, close idle keep-alive connections,
//   let the requests in flight finish within a grace period, each answer with
//   `Connection: close` (also a request that arrives meanwhile on an open
//   connection), so no client sends another request on a closing connection.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface DrainResult {
  /** Time from the start of the drain until the last connection closed. */
  ms: number;
  /** Requests still unanswered when the grace period ran out (their connections were cut). */
  cut: number;
}

export interface Connections {
  /** Every request passes here first (main.ts `handle`). */
  track(req: IncomingMessage, res: ServerResponse): void;
  /** Requests being answered now. */
  readonly inFlight: number;
  drain(graceMs: number): Promise<DrainResult>;
}

/** `maxRequests` 0 = no limit per connection. */
export function connections(server: Server, maxRequests: number): Connections {
  const open = new Set<ServerResponse>();
  const served = new WeakMap<Socket, number>();
  let draining = false;
  // A connection whose answer was already on its way with keep-alive becomes idle once it is sent.
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  // Node closes the connection after an answer whose Connection header says so.
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("connection", "close");
  };

  return {
    track(req, res) {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (draining || (maxRequests > 0 && count >= maxRequests)) closeAfter(res);
      open.add(res);
      res.once("close", () => {
        open.delete(res);
        if (draining) closeIdleSoon();
      });
    },
    get inFlight() {
      return open.size;
    },
    drain(graceMs) {
      const started = Date.now();
      draining = true;
      for (const res of open) closeAfter(res);
      return new Promise((resolve) => {
        let cut = 0;
        const timer = setTimeout(() => {
          cut = open.size;
          server.closeAllConnections();
        }, graceMs);
        // Stops accepting at once; Node (≥ 19) closes the idle keep-alive connections here too.
        server.close(() => {
          clearTimeout(timer);
          resolve({ ms: Date.now() - started, cut });
        });
        closeIdleSoon();
      });
    },
  };
}
