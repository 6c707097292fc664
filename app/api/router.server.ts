// Dispatches every request under /api/v1 to its route module (the table in
// app/api/route-table.ts), through the generic router of app/lib/api.
import type { AppLoadContext } from "@remix-run/node";
import { createRouter } from "~/lib/api/router.server";
import type { ApiReply, ApiRequest } from "~/lib/api/http";
import { API_ROUTES } from "./route-table";

type Handler = (args: { request: ApiRequest; params: Record<string, string | undefined>; context: AppLoadContext }) => Promise<ApiReply>;

const PREFIX = "/api/v1";

// Every API route module, bundled by Vite; keyed like the table's file names.
const modules = import.meta.glob<{ loader: Handler }>(["./**/*.ts", "!./dispatch.ts", "!./*.server.ts", "!./route-table.ts"], { eager: true });

function moduleFor(file: string): Handler {
  const mod = modules[`./${file.replace(/^api\//, "")}`];
  if (!mod?.loader) throw new Error(`API route module ${file} is missing or has no loader`);
  return mod.loader;
}

const match = createRouter(API_ROUTES.map(([path, file]) => ({ path: path.replace(/^api\/v1\/?/, ""), handler: moduleFor(file) })));
// The table's `api/v1/*` entry answers every path no route claims.
const notFound = moduleFor(API_ROUTES.find(([path]) => path === "api/v1/*")![1]);

/** The table's routes with their modules' handlers, in table order (for the generated API description). */
export function apiRouteTable(): Array<{ path: string; file: string; handler: Handler }> {
  return API_ROUTES.map(([path, file]) => ({ path, file, handler: moduleFor(file) }));
}

/** Answers a request under /api/v1 (both servers: the API server and the Remix resource route). */
export function dispatchApi(request: ApiRequest, context: AppLoadContext): Promise<ApiReply> {
  const pathname = request.pathname.slice(PREFIX.length) || "/";
  const found = match(pathname);
  // Unreachable: the table ends with the catch-all not-found route.
  if (!found) throw new Error(`no API route for ${pathname}`);
  // A parameter that is not valid percent-encoded UTF-8 names nothing that can exist: 404 `not_found`.
  if (!found.decodable) return notFound({ request, context, params: {} });
  return found.handler({ request, context, params: found.params });
}
