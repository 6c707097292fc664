// Every route of the public API is declared with `endpoint()`, exported as
// both `loader` and `action` of its route module. It answers
// CORS preflights, checks the anon key and credentials, reads the JSON body,
// calls the handler and turns whatever it throws into the SPEC error body.
import { createHash, timingSafeEqual } from "node:crypto";
import { json } from "@remix-run/node";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appOrigin, env } from "~/env.server";
import { getAnonKey } from "~/domains/secrets/secrets.server";
import { authenticateUserToken, type Identity } from "~/domains/identity/identity.server";
import { log, errorFields } from "~/lib/log.server";
import { discardBody, readJsonBody } from "./body.server";
import { applyCors, preflightHeaders } from "./cors";
import { ApiError, errorBody, unauthorized } from "./errors";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * none: no credentials at all (crawlers, share pages).
 * apikey: only the anon key (outside the service's own origin).
 * user: anon key + a user token.
 * service: the server-side SERVICE_KEY in `x-service-key` (internal routes); no anon key, no user.
 */
export type AuthMode = "none" | "apikey" | "user" | "service";

export interface Ctx<A extends AuthMode> {
  request: Request;
  url: URL;
  params: Record<string, string | undefined>;
  /** Parsed JSON body; undefined when there is none. */
  body: unknown;
  user: A extends "user" ? Identity : undefined;
}

interface Route<A extends AuthMode> {
  auth: A;
  handler: (ctx: Ctx<A>) => Promise<unknown> | unknown;
}

type Routes = { [M in Method]?: Route<"none"> | Route<"apikey"> | Route<"user"> | Route<"service"> };

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function route<A extends AuthMode>(auth: A, handler: Route<A>["handler"]): Route<A> {
  return { auth, handler };
}

export function endpoint(routes: Routes) {
  const methods = Object.keys(routes);
  const handle = async ({ request, params }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> => {
    const origin = request.headers.get("origin");
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: preflightHeaders(origin, methods) });
    let response: Response;
    try {
      const method = (request.method === "HEAD" ? "GET" : request.method) as Method;
      const routeDef = routes[method];
      if (!routeDef) {
        throw new ApiError(405, "method_not_allowed", `Use ${methods.join(", ")}`);
      }
      response = await run(routeDef as Route<AuthMode>, request, params);
    } catch (err) {
      response = errorResponse(err, request);
    }
    await discardBody(request);
    applyCors(response.headers, origin);
    return response;
  };
  return handle;
}

async function run(routeDef: Route<AuthMode>, request: Request, params: Ctx<AuthMode>["params"]): Promise<Response> {
  if (routeDef.auth === "service") requireServiceKey(request);
  else if (routeDef.auth !== "none") await requireAnonKey(request);
  const user = routeDef.auth === "user" ? await requireUser(request) : undefined;
  const body = BODY_METHODS.has(request.method) ? await readJsonBody(request) : undefined;
  const result = await routeDef.handler({ request, url: new URL(request.url), params, body, user } as Ctx<AuthMode>);
  if (result instanceof Response) return result;
  return json(result);
}

export function errorResponse(err: unknown, request: Request): Response {
  const { status, body, unexpected } = errorBody(err);
  if (unexpected) {
    log.error("unhandled error", { method: request.method, path: new URL(request.url).pathname, ...errorFields(err) });
  }
  return json(body, { status });
}

/** SPEC section 5 rule 1: calls from outside the service's own origin carry the anon key. */
async function requireAnonKey(request: Request): Promise<void> {
  const sameOrigin =
    request.headers.get("origin") === appOrigin || request.headers.get("sec-fetch-site") === "same-origin";
  if (sameOrigin) return;
  const presented = request.headers.get("apikey");
  if (!presented || presented !== (await getAnonKey())) {
    throw unauthorized("Missing or invalid apikey header");
  }
}

/** Internal routes: only callers holding SERVICE_KEY; with no key configured they are closed. */
function requireServiceKey(request: Request): void {
  const presented = request.headers.get("x-service-key");
  if (!env.SERVICE_KEY || !presented) throw unauthorized("Missing or invalid x-service-key header");
  // Digests have equal length, so the comparison leaks neither content nor length.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  if (!timingSafeEqual(digest(presented), digest(env.SERVICE_KEY))) {
    throw unauthorized("Missing or invalid x-service-key header");
  }
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

async function requireUser(request: Request): Promise<Identity> {
  const token = bearerToken(request);
  const identity = token ? await authenticateUserToken(token) : null;
  if (!identity) throw unauthorized("Missing or invalid user token");
  return identity;
}
