import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { healthCheck } from "~/domains/system/system.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Health check: 200 when the database answers",
      description: "503 `service_unavailable` (with `status: \"unavailable\"` and `checks.database: \"down\"`) when it does not.",
      response: z.object({
        status: z.literal("ok"),
        checks: z.object({ database: z.literal("ok") }),
        latency_ms: z.number().describe("Time the database check took"),
      }),
      errors: { service_unavailable: 503 },
      example: {},
    },
    () => healthCheck(),
  ),
});
export const action = loader;
