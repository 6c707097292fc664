// Every path under /api/v1 that no route claims.
import { endpoint, route } from "~/api/endpoint.server";
import { notFound } from "~/lib/api/errors";

const missing = route(
  "none",
  { summary: "Any path no route claims: 404 not_found", tag: "errors" },
  ({ url }) => {
    throw notFound("not_found", `No route for ${url.pathname}`);
  },
);

export const loader = endpoint({ GET: missing, POST: missing, PUT: missing, PATCH: missing, DELETE: missing });
export const action = loader;
