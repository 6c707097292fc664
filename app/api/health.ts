import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { healthCheck } from "~/domains/system/system.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Health check: 200 when the database answers",
      description:
        "503 `service_unavailable` (with `status: \"unavailable\"` and `checks.database: \"down\"`) when it does not answer within `DATABASE_HEALTH_TIMEOUT_MS` (default 1 s). " +
        "`checks.capacity` and `capacity` describe the answering worker: `saturated` while it is at `MAX_REQUESTS_IN_FLIGHT`, would keep a new request waiting for a database connection longer than `DATABASE_QUEUE_WAIT_MS`, or has refused a request (503 with Retry-After) within the last 10 s; still a 200.",
      response: z.object({
        status: z.literal("ok"),
        checks: z.object({
          database: z.literal("ok"),
          capacity: z.enum(["ok", "saturated"]).optional().describe("Absent where the server runs without its bound (dev server)"),
        }),
        latency_ms: z.number().describe("Time the database check took"),
        capacity: z
          .object({
            in_flight: z.number().int().describe("Requests this worker is answering now that count against the bound (not /health, not share pages)"),
            max_in_flight: z.number().int().describe("MAX_REQUESTS_IN_FLIGHT"),
            shed: z.number().int().describe("Requests this worker refused with 503 since it started"),
            database_waiting: z.number().int().optional().describe("PostgreSQL: requests waiting for a pooled connection now (absent before the first query and on SQLite)"),
            database_wait_ms: z.number().int().optional().describe("PostgreSQL: how long a request joining that queue now would wait, as estimated from how long connections are held"),
            max_database_wait_ms: z.number().int().optional().describe("DATABASE_QUEUE_WAIT_MS: past it new requests get 503 with Retry-After at once"),
          })
          .optional(),
      }),
      errors: { service_unavailable: 503 },
      example: {},
    },
    () => healthCheck(),
  ),
});
export const action = loader;
