import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { endpointSummary } from "~/api/openapi.server";

const Endpoint = z.object({
  method: z.string(),
  path: z.string().describe("Relative to {base_url}"),
  auth: z.string().describe("The credentials the route needs"),
  summary: z.string(),
});

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "Every route in one list: method, path, auth and one line",
      tag: "meta",
      response: z.object({ version: z.string(), endpoints: z.array(Endpoint) }),
      example: {},
    },
    () => endpointSummary(),
  ),
});
export const action = loader;
