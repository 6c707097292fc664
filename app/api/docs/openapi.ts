import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { openApiJson } from "~/api/openapi.server";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "The OpenAPI 3.1 description of this API (generated from the route table and its schemas)",
      tag: "meta",
      response: z.looseObject({
        openapi: z.literal("3.1.0"),
        info: z.looseObject({ title: z.string(), version: z.string() }),
        paths: z.record(z.string(), z.unknown()),
      }),
      example: {},
    },
    () => new Response(openApiJson(), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" } }),
  ),
});
export const action = loader;
