// A bound on the requests one worker answers at once (MAX_REQUESTS_IN_FLIGHT,
// docs/operations.md "Capacity and the connection budget"), and on the wait
// for a pooled PostgreSQL connection (DATABASE_QUEUE_WAIT_MS). Past either a
// request is refused at once with 503 `service_unavailable` and
// Retry-After, before any route, body or database work, so an overloaded
// process keeps answering quickly instead of queueing every request behind
// the others (latency and memory grow with the queue, and requests queued on
// the pool end as 503s after DATABASE_CONNECT_TIMEOUT_MS anyway, having held
// a place all that time). main.ts exempts /health, which reports the
// saturation, and the share pages, which must keep working.
import type { IncomingMessage, ServerResponse } from "node:http";
import { overloaded } from "~/lib/api/errors";
import { databaseQueue, publishCapacity, SATURATED_WINDOW_MS, type Capacity } from "~/lib/http/capacity";

export interface LoadShedding {
  /**
   * Counts `res` until it ends and returns true, or, at the bound, answers it
   * with 503 and returns false.
   */
  admit(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  capacity(): Capacity;
}

/** At most one "requests shed" line per this long, with the count. */
const LOG_EVERY_MS = 10_000;

export function loadShedding(
  limit: number,
  headersFor: (pathname: string) => Record<string, string>,
  log: { warn(msg: string, fields?: Record<string, unknown>): void },
): LoadShedding {
  let inFlight = 0;
  let shed = 0;
  let lastShedAt = -Infinity;
  let unlogged = 0;
  let lastLoggedAt = -Infinity;

  const queueFull = () => {
    const queue = databaseQueue();
    return queue !== null && queue.waitMs > queue.maxWaitMs;
  };
  const capacity = (): Capacity => ({
    inFlight,
    limit,
    shed,
    saturated: inFlight >= limit || queueFull() || performance.now() - lastShedAt < SATURATED_WINDOW_MS,
    ...(databaseQueue() && { databaseQueue: databaseQueue()! }),
  });
  publishCapacity(capacity);

  return {
    capacity,
    admit(req, res, pathname) {
      if (inFlight < limit && !queueFull()) {
        inFlight++;
        // "close" fires once per response, whether it finished or the client went away.
        res.once("close", () => inFlight--);
        return true;
      }
      shed++;
      unlogged++;
      lastShedAt = performance.now();
      if (lastShedAt - lastLoggedAt >= LOG_EVERY_MS) {
        log.warn("requests shed", { shed: unlogged, max_requests_in_flight: limit, database_queue: databaseQueue() ?? undefined });
        lastLoggedAt = lastShedAt;
        unlogged = 0;
      }
      const error = overloaded();
      const body = JSON.stringify(error.body());
      res.writeHead(error.status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        ...error.headers,
        ...headersFor(pathname),
      });
      // Node discards an unread request body before the connection's next request.
      res.end(req.method === "HEAD" ? undefined : body);
      return false;
    },
  };
}
