import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { serviceStatus } from "~/domains/system/system.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Service status: name, version and time",
      response: z.object({ name: z.string(), version: z.string(), status: z.literal("ok"), time: z.string() }),
      example: {},
    },
    () => serviceStatus(),
  ),
});
export const action = loader;
