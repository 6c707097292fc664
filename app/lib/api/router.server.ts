// Dispatches every request under /api/v1 to its route module (the table in
// app/routes.ts). Remix matches routes by flattening and ranking its whole
// route tree on every request, which made route matching the largest cost of
// a cheap API call; here the table is compiled once and matched with one
// regular expression per route.
import type { AppLoadContext } from "@remix-run/node";
import { API_ROUTES } from "~/routes";
import type { ApiReply, ApiRequest } from "./http";

type Handler = (args: { request: ApiRequest; params: Record<string, string | undefined>; context: AppLoadContext }) => Promise<ApiReply>;

interface CompiledRoute {
  /** The pattern's first segment when it is static ("" for the root), else null (a parameter or splat). */
  first: string | null;
  regex: RegExp;
  keys: string[];
  rank: number[];
  handler: Handler;
}

const PREFIX = "/api/v1";

// Every API route module, bundled by Vite; keyed like the table's file names.
const modules = import.meta.glob<{ loader: Handler }>(["../../api/**/*.ts", "!../../api/dispatch.ts", "!../../api/*.server.ts"], { eager: true });

function moduleFor(file: string): Handler {
  const mod = modules[`../../${file}`];
  if (!mod?.loader) throw new Error(`API route module ${file} is missing or has no loader`);
  return mod.loader;
}

function compile(path: string, file: string): CompiledRoute {
  const segments = path.replace(/^api\/v1\/?/, "").split("/").filter(Boolean);
  const keys: string[] = [];
  const parts = segments.map((segment) => {
    if (segment === "*") {
      keys.push("*");
      return "(?:/(.*))?";
    }
    if (segment.startsWith(":")) {
      keys.push(segment.slice(1));
      return "/([^/]+)";
    }
    return "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  const head = segments[0];
  return {
    first: head === undefined ? "" : head === "*" || head.startsWith(":") ? null : head,
    regex: new RegExp(`^${parts.join("")}/?$`),
    keys,
    rank: segments.map((s) => (s === "*" ? 1 : s.startsWith(":") ? 2 : 3)),
    handler: moduleFor(file),
  };
}

/** Routes with a splat go last; otherwise static segments outrank parameters, position by position. */
function byRank(a: CompiledRoute, b: CompiledRoute): number {
  const splat = Number(a.keys.includes("*")) - Number(b.keys.includes("*"));
  if (splat !== 0) return splat;
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (b.rank[i] ?? 0) - (a.rank[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const table = API_ROUTES.map(([path, file]) => compile(path, file)).sort(byRank);
// Candidates by the request's first path segment, in table order: a route
// whose first segment is another static word can never match, so most
// requests try a handful of patterns instead of the whole table.
const anyFirst = table.filter((route) => route.first === null);
const byFirstSegment = new Map<string, CompiledRoute[]>();
for (const route of table) {
  if (route.first !== null && !byFirstSegment.has(route.first)) {
    byFirstSegment.set(route.first, table.filter((r) => r.first === null || r.first === route.first));
  }
}
// The table's `api/v1/*` entry answers every path no route claims.
const catchAll = compile("api/v1/*", API_ROUTES.find(([path]) => path === "api/v1/*")![1]);

/**
 * The decoded segment, or null for bad percent-encoding (`%ff`, a lone
 * surrogate's bytes `%ed%a0%80`, …) and for NUL (`%00`: no id holds it, and
 * PostgreSQL cannot compare text with it).
 */
function decode(value: string): string | null {
  try {
    const decoded = decodeURIComponent(value);
    return decoded.includes("\0") ? null : decoded;
  } catch {
    return null;
  }
}

/** The table's routes with their modules' handlers, in table order (for the generated API description). */
export function apiRouteTable(): Array<{ path: string; file: string; handler: Handler }> {
  return API_ROUTES.map(([path, file]) => ({ path, file, handler: moduleFor(file) }));
}

/** Answers a request under /api/v1 (both servers: the lean one and the Remix resource route). */
export function dispatchApi(request: ApiRequest, context: AppLoadContext): Promise<ApiReply> {
  const pathname = request.pathname.slice(PREFIX.length) || "/";
  const slash = pathname.indexOf("/", 1);
  const first = pathname.slice(1, slash === -1 ? undefined : slash);
  for (const route of byFirstSegment.get(first) ?? anyFirst) {
    const match = route.regex.exec(pathname === "/" ? "" : pathname);
    if (!match) continue;
    const params: Record<string, string | undefined> = {};
    let decodable = true;
    for (let i = 0; i < route.keys.length; i++) {
      const raw = match[i + 1];
      const value = raw === undefined ? undefined : decode(raw);
      if (value === null) decodable = false;
      else params[route.keys[i]] = value;
    }
    // A parameter that is not valid percent-encoded UTF-8 names nothing that can exist: 404 `not_found`.
    if (!decodable) return catchAll.handler({ request, context, params: {} });
    return route.handler({ request, context, params });
  }
  // Unreachable: the table ends with the catch-all not-found route.
  throw new Error(`no API route for ${pathname}`);
}
