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
import { authenticatePersonalAccessToken, PAT_PREFIX } from "~/domains/partners/access-tokens.server";
import { partnerOfUser } from "~/domains/partners/partners.server";
import { verifyWidgetToken, type WidgetClaims } from "~/domains/widget/token.server";
import { meteringHeaders, type MeteredKey } from "~/domains/metering/request-headers.server";
import { log, errorFields } from "~/lib/log.server";
import { discardBody, readJsonBody } from "./body.server";
import { applyCors, preflightHeaders } from "./cors";
import { ApiError, errorBody, forbidden, unauthorized } from "./errors";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * none: no credentials at all (crawlers, share pages).
 * apikey: only the anon key (outside the service's own origin).
 * user: anon key + a user token (401 `unauthorized` without).
 * widget: anon key + `X-Widget-Token` bound to the calling origin (403 `forbidden` without).
 * widget+user: both of the above.
 * partner: anon key + a personal access token or a portal user's token.
 * service: the server-side SERVICE_KEY in `x-service-key` (internal routes); no anon key, no user.
 */
export type AuthMode = "none" | "apikey" | "user" | "widget" | "widget+user" | "partner" | "service";

/** Who a partner route acts for: the partner of a personal access token, or of a portal user (null if none). */
export interface PartnerPrincipal {
  partnerId: number | null;
  userId: string | null;
}

export interface Ctx<A extends AuthMode> {
  request: Request;
  url: URL;
  params: Record<string, string | undefined>;
  /** Parsed JSON body; undefined when there is none. */
  body: unknown;
  user: A extends "user" | "widget+user" ? Identity : undefined;
  widget: A extends "widget" | "widget+user" ? WidgetClaims : undefined;
  partner: A extends "partner" ? PartnerPrincipal : undefined;
  /** Names the public key this request counts against (X-RateLimit-* headers, SPEC 8.3). */
  meterKey: (key: MeteredKey) => void;
}

interface Route<A extends AuthMode> {
  auth: A;
  handler: (ctx: Ctx<A>) => Promise<unknown> | unknown;
}

type AnyRoute = { [A in AuthMode]: Route<A> }[AuthMode];
type Routes = { [M in Method]?: AnyRoute };

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function route<A extends AuthMode>(auth: A, handler: Route<A>["handler"]): Route<A> {
  return { auth, handler };
}

export function endpoint(routes: Routes) {
  const methods = Object.keys(routes);
  const handle = async ({ request, params }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> => {
    const origin = request.headers.get("origin");
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: preflightHeaders(origin, methods) });
    let metered: MeteredKey | null = null;
    const ctx = {
      request,
      url: new URL(request.url),
      params,
      body: undefined,
      user: undefined,
      widget: undefined,
      partner: undefined,
      meterKey: (key: MeteredKey) => void (metered = key),
    } as Ctx<AuthMode>;
    let response: Response;
    try {
      const method = (request.method === "HEAD" ? "GET" : request.method) as Method;
      const routeDef = routes[method];
      if (!routeDef) {
        throw new ApiError(405, "method_not_allowed", `Use ${methods.join(", ")}`);
      }
      response = await run(routeDef as Route<AuthMode>, ctx);
    } catch (err) {
      response = errorResponse(err, request);
    }
    await discardBody(request);
    applyCors(response.headers, origin);
    for (const [name, value] of Object.entries(await meteringHeaders(request, ctx.url, metered))) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    return response;
  };
  return handle;
}

async function run(routeDef: Route<AuthMode>, ctx: Ctx<AuthMode>): Promise<Response> {
  const { request } = ctx;
  const auth = routeDef.auth;
  if (auth === "service") requireServiceKey(request);
  else if (auth !== "none") await requireAnonKey(request);
  if (auth === "widget" || auth === "widget+user") {
    const widget = await requireWidget(request);
    Object.assign(ctx, { widget });
    ctx.meterKey({ id: widget.apiKeyId, requestPlan: widget.requestPlan });
  }
  if (auth === "user" || auth === "widget+user") Object.assign(ctx, { user: await requireUser(request) });
  if (auth === "partner") Object.assign(ctx, { partner: await requirePartner(request) });
  if (BODY_METHODS.has(request.method)) ctx.body = await readJsonBody(request);
  const result = await routeDef.handler(ctx);
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

/** 403 `forbidden` unless a valid widget token minted for this origin (or the service's own pages) is sent. */
async function requireWidget(request: Request): Promise<WidgetClaims> {
  const token = request.headers.get("x-widget-token");
  const widget = token ? await verifyWidgetToken(token) : null;
  if (!widget) throw forbidden("forbidden", "Missing or invalid X-Widget-Token");
  const origin = request.headers.get("origin");
  if (origin && origin !== widget.origin && origin !== appOrigin) {
    throw forbidden("forbidden", "This widget token was issued for another origin");
  }
  return widget;
}

/** A personal access token (`wpat_…`) or a portal user's token; 401 `unauthorized` otherwise. */
async function requirePartner(request: Request): Promise<PartnerPrincipal> {
  const token = bearerToken(request);
  if (token?.startsWith(PAT_PREFIX)) {
    const pat = await authenticatePersonalAccessToken(token);
    if (!pat) throw unauthorized("Personal access token is invalid, revoked or expired");
    return { partnerId: pat.partnerId, userId: null };
  }
  const identity = token ? await authenticateUserToken(token) : null;
  if (!identity) throw unauthorized("Missing or invalid token");
  return { partnerId: await partnerOfUser(identity.userId), userId: identity.userId };
}
