// Service status and health.
import { env } from "~/env.server";
import { noteAvailable, noteUnavailable } from "~/db/availability.server";
import { probeDatabase } from "~/db.server";
import { ApiError } from "~/lib/api/errors";
import { currentCapacity } from "~/lib/http/capacity";

export const API_VERSION = "1.1.0";

export function serviceStatus() {
  return { name: "Wishlist API", version: API_VERSION, status: "ok", time: new Date().toISOString() };
}

/**
 * 200 when the database answers within DATABASE_HEALTH_TIMEOUT_MS, 503
 * `service_unavailable` otherwise: a database that hangs is as down as one
 * that is gone, and a load balancer must hear so before its own check times out.
 */
export async function healthCheck() {
  const started = performance.now();
  try {
    // Reads a real table (not just SELECT 1) so a damaged or emptied database fails too; on SQLite it also takes the write lock.
    await probeDatabase(env.DATABASE_HEALTH_TIMEOUT_MS);
  } catch (err) {
    noteUnavailable(err, "GET /health");
    throw new ApiError(503, "service_unavailable", "Database is not reachable", {
      status: "unavailable",
      checks: { database: "down" },
    });
  }
  noteAvailable();
  return {
    status: "ok",
    checks: { database: "ok", ...capacityCheck() },
    latency_ms: Math.round((performance.now() - started) * 10) / 10,
    ...capacityFigures(),
  };
}

/**
 * Saturation stays a 200: the process still answers (it sheds what it cannot
 * take), and a balancer that pulled every busy instance would move their load
 * onto the rest. It can weigh instances by these figures instead.
 */
function capacityCheck() {
  const capacity = currentCapacity();
  return capacity ? { capacity: capacity.saturated ? ("saturated" as const) : ("ok" as const) } : {};
}

function capacityFigures() {
  const capacity = currentCapacity();
  if (!capacity) return {};
  const queue = capacity.databaseQueue;
  return {
    capacity: {
      in_flight: capacity.inFlight,
      max_in_flight: capacity.limit,
      shed: capacity.shed,
      ...(queue && { database_waiting: queue.waiting, database_wait_ms: queue.waitMs, max_database_wait_ms: queue.maxWaitMs }),
    },
  };
}
