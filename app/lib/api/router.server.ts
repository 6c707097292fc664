// A path router compiled once: one regular expression per route, candidates
// picked by the request's first path segment. Remix matches routes by
// flattening and ranking its whole route tree on every request, which made
// route matching the largest cost of a cheap API call. Knows no route of the
// app: app/api/router.server.ts hands it the API's table.

/** A route's path pattern (`shops/:handle`, `ad-studio/*`, relative to the router's prefix) and what answers it. */
export interface RouteEntry<H> {
  path: string;
  handler: H;
}

interface CompiledRoute<H> {
  /** The pattern's first segment when it is static ("" for the root), else null (a parameter or splat). */
  first: string | null;
  regex: RegExp;
  keys: string[];
  rank: number[];
  handler: H;
}

function compile<H>({ path, handler }: RouteEntry<H>): CompiledRoute<H> {
  const segments = path.split("/").filter(Boolean);
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
    handler,
  };
}

/** Routes with a splat go last; otherwise static segments outrank parameters, position by position. */
function byRank<H>(a: CompiledRoute<H>, b: CompiledRoute<H>): number {
  const splat = Number(a.keys.includes("*")) - Number(b.keys.includes("*"));
  if (splat !== 0) return splat;
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (b.rank[i] ?? 0) - (a.rank[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

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

/** What a path matched: the route's handler and its decoded parameters; `decodable` false when a parameter is not valid percent-encoded UTF-8. */
export type Match<H> = { handler: H; params: Record<string, string | undefined>; decodable: boolean };

/** A matcher over `routes`; the first route whose pattern matches a path (after ranking) answers it. */
export function createRouter<H>(routes: ReadonlyArray<RouteEntry<H>>): (pathname: string) => Match<H> | null {
  const table = routes.map(compile).sort(byRank);
  // Candidates by the request's first path segment, in table order: a route
  // whose first segment is another static word can never match, so most
  // requests try a handful of patterns instead of the whole table.
  const anyFirst = table.filter((route) => route.first === null);
  const byFirstSegment = new Map<string, CompiledRoute<H>[]>();
  for (const route of table) {
    if (route.first !== null && !byFirstSegment.has(route.first)) {
      byFirstSegment.set(route.first, table.filter((r) => r.first === null || r.first === route.first));
    }
  }
  return (pathname) => {
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
      return { handler: route.handler, params, decodable };
    }
    return null;
  };
}
