// Service status and health.
import { db } from "~/db.server";
import { ApiError } from "~/lib/api/errors";

export const API_VERSION = "1.1.0";

export function serviceStatus() {
  return { name: "Wishlist API", version: API_VERSION, status: "ok", time: new Date().toISOString() };
}

/** 200 when the database answers, 503 `service_unavailable` otherwise. */
export async function healthCheck() {
  const started = performance.now();
  try {
    // Reads a real table (not just SELECT 1) so a damaged or emptied database fails too.
    await db.$queryRawUnsafe(`SELECT 1 FROM "_prisma_migrations" LIMIT 1`);
  } catch {
    throw new ApiError(503, "service_unavailable", "Database is not reachable", {
      status: "unavailable",
      checks: { database: "down" },
    });
  }
  return { status: "ok", checks: { database: "ok" }, latency_ms: Math.round((performance.now() - started) * 10) / 10 };
}
