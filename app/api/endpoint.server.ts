// Every route of the public API is declared with `endpoint()`, exported as
// both `loader` and `action` of its route module. It answers
// CORS preflights, checks the anon key and credentials, reads the JSON body,
// calls the handler and turns whatever it throws into the SPEC error body.
import { createHash, timingSafeEqual } from "node:crypto";
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { appOrigin, env } from "~/env.server";
import { getAnonKey } from "~/domains/secrets/secrets.server";
import { authenticateUserToken, type Identity } from "~/domains/identity/identity.server";
import { requireLiveSession } from "~/domains/identity/session-revocations.server";
import { widgetKeyWorks } from "~/domains/keys/key-status.server";
import { authenticatePersonalAccessToken, PAT_PREFIX } from "~/domains/partners/access-tokens.server";
import type { PartnerPrincipal } from "~/domains/partners/principal";
import { partnerLinkOfUser } from "~/domains/partners/partners.server";
import { authenticateShopperToken } from "~/domains/widget/shopper-token.server";
import { verifyWidgetToken, type WidgetClaims } from "~/domains/widget/token.server";
import type { MeteredKey } from "~/domains/metering/metered-key.server";
import type { ShopCustomerIdentity } from "~/domains/customer-accounts/session.server";
import { customerAccountPreflight, requireCustomer } from "./customer-account-auth.server";
import { meteringHeaders } from "./metering-headers.server";
import { errorReply, failure } from "~/http/error-reply.server";
import { log } from "~/lib/log.server";
import { noteWrite, publicReads } from "~/db/replica.server";
import { readJsonBody } from "~/lib/api/body.server";
import { applyCors, applyExtensionCors, preflightHeaders } from "~/lib/api/cors";
import { jsonReply, replyOfResponse, type ApiReply, type ApiRequest } from "~/lib/api/http";
import { ApiError, forbidden, unauthorized } from "~/lib/api/errors";
import { parseOrThrow, type ErrorCodes } from "~/lib/api/schemas";
import { apiRequestOfWeb, responseOfReply } from "~/lib/api/web-adapter.server";
import { applySecurityHeaders } from "~/lib/http/security-headers";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * none: no credentials at all (crawlers, share pages).
 * apikey: only the anon key (outside the service's own origin).
 * user: anon key + a user token (401 `unauthorized` without).
 * widget: anon key + `X-Widget-Token` bound to the calling origin (403 `forbidden` without).
 * widget+user: both of the above.
 * partner: anon key + a personal access token or a portal user's token.
 * service: the server-side SERVICE_KEY in `x-service-key` (internal routes); no anon key, no user.
 * customer: a Shopify customer account extension's session token as bearer, verified by the
 *   Shopify library plus audience, destination shop and customer (customer-account-auth.server.ts);
 *   no anon key (the extension runs on Shopify's origin and holds none); CORS as the library answers it.
 */
export type AuthMode = "none" | "apikey" | "user" | "widget" | "widget+user" | "partner" | "service" | "customer";

export interface Ctx<A extends AuthMode, B = unknown, Q = undefined> {
  request: ApiRequest;
  /** What the server entry passes along (the client's address: see clientAddress in app/lib/api). */
  context: AppLoadContext;
  url: URL;
  params: Record<string, string | undefined>;
  /** Parsed JSON body (undefined when there is none); the route's `body` schema's output when it declares one. */
  body: B;
  /** The query string parsed by the route's `query` schema (undefined without one). */
  query: Q;
  user: A extends "user" | "widget+user" ? Identity : undefined;
  widget: A extends "widget" | "widget+user" ? WidgetClaims : undefined;
  partner: A extends "partner" ? PartnerPrincipal : undefined;
  /** The signed-in customer of a Shopify shop (customer account extension). */
  customer: A extends "customer" ? ShopCustomerIdentity : undefined;
  /** Names the public key this request counts against (X-RateLimit-* headers, SPEC 8.3). */
  meterKey: (key: MeteredKey) => void;
}

interface RouteOptions {
  /**
   * The route mints credentials or changes account ownership: a user token's
   * sign-in session is read from the database (live right now), not taken
   * from the in-memory revocation view. For "user" and "partner" routes.
   */
  liveSession?: boolean;
  /**
   * A "widget+user" route that also takes the partner-scoped shopper
   * credential a shop page holds (`ctx.user.partnerScope` is then set), when
   * it was minted for the widget token's partner. Only the routes a shop page
   * needs opt in: saving and its saved products.
   */
  shopper?: boolean;
  /**
   * A public read that may be served by the read replica (DATABASE_REPLICA_URL,
   * app/db/replica.server.ts) within its lag bound; a signed-in user who just
   * wrote, or who asks with `?fresh=1`, reads from the primary.
   */
  replicaReads?: boolean;
}


/**
 * A route's description: its request shape, validated after authentication
 * and before the handler runs, its answer and the error codes it can give.
 * The one source for validation and for the OpenAPI document
 * (app/api/openapi.server.ts reads `loader.routes[METHOD].schemas`).
 */
export interface RouteSchemas<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  /** One line for the OpenAPI document and `GET /endpoints`. */
  summary?: string;
  /** Longer notes for the OpenAPI document (markdown). */
  description?: string;
  /** Grouping tag in the OpenAPI document (default: the path's first segment). */
  tag?: string;
  /** The path parameters (documentation; routes check them in their domain with their SPEC codes). */
  params?: z.ZodObject;
  /** The JSON body; a missing body is validated as `{}`. */
  body?: B;
  /** The body is not JSON and not read by the endpoint: the handler streams it from `ctx.request` (uploads). */
  rawBody?: boolean;
  /** The query string, as an object of its parameters (the last value of a repeated one). */
  query?: Q;
  /** SPEC codes that replace `invalid_input` for given fields (e.g. `{missing: {title: "missing_title"}}`). */
  codes?: ErrorCodes;
  /** The success answer's JSON body. */
  response?: z.ZodType;
  /** Success status when it is not 200 (e.g. 201). */
  status?: number;
  /** Further success statuses with the same body, and when they are given (e.g. `{200: "It existed already"}`). */
  alsoStatus?: Record<number, string>;
  /** Content type of a success answer that is not JSON (e.g. "image/png", "application/xml"). */
  produces?: string;
  /**
   * SPEC error codes this route answers with, and their status, beyond those its
   * auth mode and schemas imply (see impliedErrors). A code a route throws
   * without declaring it is logged as "undocumented error code" (tests fail on it).
   */
  errors?: RouteErrors;
  /** Still answered, but clients should move off it (SPEC 9). */
  deprecated?: boolean;
  /** The route takes a public key (`pk_…`) as its bearer credential (e.g. `/widget/init`). */
  publicKey?: boolean;
  /** A request that works on a fresh database, for the OpenAPI document and its test. */
  example?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
}

/** Error code → HTTP status; 0 when the status varies (e.g. `upstream_error` passes the origin's on). */
export type RouteErrors = Record<string, number>;

/** Error codes every route of an auth mode can answer with, whatever its handler does. */
export function impliedErrors(auth: AuthMode, method: string, schemas: RouteSchemas): RouteErrors {
  // Any route: a wrong method (404 not_found), a NUL in the query string (400 invalid_input),
  // and a database that does not answer (503 service_unavailable, with Retry-After).
  const errors: RouteErrors = { not_found: 404, invalid_input: 400, service_unavailable: 503 };
  if (auth !== "none") errors.unauthorized = 401;
  if (auth === "customer") Object.assign(errors, { not_found: 404, customer_required: 403 });
  if (auth === "widget" || auth === "widget+user") errors.forbidden = 403;
  if (BODY_METHODS.has(method) && !schemas.rawBody) Object.assign(errors, { invalid_json: 400, payload_too_large: 413, unsupported_media_type: 415 });
  for (const group of [schemas.codes?.missing, schemas.codes?.invalid]) {
    for (const code of Object.values(group ?? {})) errors[code] = 400;
  }
  return errors;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Handler<A extends AuthMode, B = unknown, Q = undefined> = (ctx: Ctx<A, B, Q>) => Promise<unknown> | unknown;

export interface Route<A extends AuthMode> extends RouteOptions {
  auth: A;
  schemas: RouteSchemas;
  // Typed by route() for its schemas; the endpoint hands it the matching context.
  handler: Handler<A, never, never>;
}

export type AnyRoute = { [A in AuthMode]: Route<A> }[AuthMode];
export type Routes = { [M in Method]?: AnyRoute };

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Options of a route that mints credentials or changes account ownership. */
export const LIVE_SESSION: RouteOptions = { liveSession: true };
/** Options of a widget route a shop page may call with its shopper credential. */
export const SHOPPER: RouteOptions = { shopper: true };
/** Options of a public read the read replica may serve (docs/operations.md "With a read replica"). */
export const REPLICA_READS: RouteOptions = { replicaReads: true };

/**
 * `route(auth, handler, options?)`, or `route(auth, {body?, query?, codes?}, handler, options?)` with a zod
 * request shape.
 */
export function route<A extends AuthMode>(auth: A, handler: Handler<A>, options?: RouteOptions): Route<A>;
export function route<A extends AuthMode, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  auth: A,
  schemas: Omit<RouteSchemas, "body" | "query"> & { body?: B; query?: Q },
  handler: Handler<A, B extends z.ZodType ? z.output<B> : unknown, Output<Q>>,
  options?: RouteOptions,
): Route<A>;
export function route(auth: AuthMode, a: unknown, b?: unknown, c?: unknown): Route<AuthMode> {
  const [schemas, handler, options] = typeof a === "function" ? [{}, a, b] : [a, b, c];
  return { auth, schemas, handler, ...(options as RouteOptions | undefined) } as Route<AuthMode>;
}

/** The request's URL; a Host header that is no host name does not make it a 500 (nothing reads the host). */
function urlOf(request: ApiRequest): URL {
  try {
    return new URL(request.url);
  } catch {
    return new URL(request.pathname + request.search, "http://localhost");
  }
}

/** What the router hands a route module: the request, its decoded path parameters and the server's context. */
export interface EndpointArgs {
  request: ApiRequest;
  params: Record<string, string | undefined>;
  context: AppLoadContext;
}

export function endpoint(routes: Routes) {
  const methods = Object.keys(routes);
  // Per route module, once: what does not depend on the request.
  const allow = methods.join(", ");
  const allowMethods = [...methods, "OPTIONS"].join(", ");
  // Customer account extensions' routes answer CORS as the Shopify library does (one rule per module).
  const forExtension = Object.values(routes).some((r) => r?.auth === "customer");
  const handle = async ({ request, params, context }: EndpointArgs): Promise<ApiReply> => {
    const origin = request.headers.get("origin");
    if (request.method === "OPTIONS") {
      if (forExtension) return customerAccountPreflight(request, allowMethods);
      return { status: 204, headers: preflightHeaders(origin, allowMethods), body: null };
    }
    let metered: MeteredKey | null = null;
    let url: URL | undefined;
    const ctx = {
      request,
      context,
      // Built on first use: most routes never read it.
      get url() {
        return (url ??= urlOf(request));
      },
      params,
      body: undefined,
      query: undefined,
      user: undefined,
      widget: undefined,
      partner: undefined,
      customer: undefined,
      meterKey: (key: MeteredKey) => void (metered = key),
    } as Ctx<AuthMode, unknown, unknown>;
    let reply: ApiReply;
    const method = (request.method === "HEAD" ? "GET" : request.method) as Method;
    const routeDef = routes[method] as Route<AuthMode> | undefined;
    try {
      if (!routeDef) {
        // SPEC 7: clients match on `not_found` for any route that does not exist; Allow names the ones that do.
        throw new ApiError(404, "not_found", `No ${request.method} route here; use ${allow}`, {}, { Allow: allow });
      }
      reply = await run(routeDef, ctx);
    } catch (err) {
      if (routeDef && err instanceof ApiError) checkDocumented(routeDef, method, err, request.pathname);
      reply = errorReply(err, request);
    }
    await request.discardBody();
    if (forExtension) applyExtensionCors(reply.headers, origin);
    else applyCors(reply.headers, origin);
    applySecurityHeaders(reply.headers, request.pathname);
    // The answer stands (a save may have committed) when its usage headers cannot be read: they are left out, the failure logged.
    const metering = await meteringHeaders(request, request.pathname, metered).catch((err: unknown) => {
      failure(err, request.method, request.pathname);
      return {} as Record<string, string>;
    });
    for (const name in metering) {
      if (!reply.headers.has(name)) reply.headers.set(name, metering[name]);
    }
    return reply;
  };
  // The route definitions (auth and schemas) stay readable on the loader, for generated documentation.
  return Object.assign(handle, { routes });
}

/** What `json(data, init)` returns to the endpoint: the data and its status and headers, no Response built. */
export class JsonAnswer {
  constructor(
    readonly data: unknown,
    readonly status: number,
    readonly headers: Record<string, string> | undefined,
  ) {}
}

/**
 * A JSON answer with a status or headers, for handlers (same call as Remix's
 * `json()`, which builds a Web Response the node:http path would only take apart again).
 */
export function json(data: unknown, init: number | { status?: number; headers?: Record<string, string> } = {}): JsonAnswer {
  return typeof init === "number" ? new JsonAnswer(data, init, undefined) : new JsonAnswer(data, init.status ?? 200, init.headers);
}

/**
 * An endpoint as a Remix loader/action, for the few routes of the site (not
 * under /api/v1) that answer in the API's terms, e.g. `POST /session/cookie`.
 */
export function remixRoute(handle: (args: EndpointArgs) => Promise<ApiReply>) {
  return async ({ request, params, context }: LoaderFunctionArgs): Promise<Response> =>
    responseOfReply(await handle({ request: apiRequestOfWeb(request), params, context }));
}

async function run(routeDef: Route<AuthMode>, ctx: Ctx<AuthMode, unknown, unknown>): Promise<ApiReply> {
  const { request } = ctx;
  const auth = routeDef.auth;
  if (auth === "service") requireServiceKey(request);
  else if (auth === "customer") Object.assign(ctx, { customer: await requireCustomer(request) });
  else if (auth !== "none") await requireAnonKey(request);
  if (auth === "widget" || auth === "widget+user") {
    const widget = await requireWidget(request);
    Object.assign(ctx, { widget });
    ctx.meterKey({ id: widget.apiKeyId, requestPlan: widget.requestPlan });
  }
  const live = routeDef.liveSession === true;
  if (auth === "user" || auth === "widget+user") {
    const shopperOf = routeDef.shopper ? ctx.widget?.partnerId : undefined;
    Object.assign(ctx, { user: await requireUser(request, live, shopperOf) });
  }
  if (auth === "partner") Object.assign(ctx, { partner: await requirePartner(request, live) });
  // No parameter may hold NUL: PostgreSQL text cannot, so it would fail deep inside a query.
  if (request.search.includes("%00")) throw new ApiError(400, "invalid_input", "The query string contains a NUL character (%00)");
  if (BODY_METHODS.has(request.method) && !routeDef.schemas.rawBody) ctx.body = await readJsonBody(request);
  const { body, query, codes } = routeDef.schemas;
  if (query) ctx.query = parseOrThrow(query, Object.fromEntries(ctx.url.searchParams), { where: "query", codes });
  if (body) ctx.body = parseOrThrow(body, ctx.body ?? {}, { where: "body", codes });
  let result: unknown;
  try {
    result = routeDef.replicaReads
      ? await publicReads(async () => routeDef.handler(ctx as never), { userId: ctx.user?.userId, fresh: ctx.url.searchParams.get("fresh") === "1" })
      : await routeDef.handler(ctx as never);
  } finally {
    // Read-your-writes: this user's replica reads go to the primary for a while (even a failed write may have changed something).
    if (ctx.user && BODY_METHODS.has(request.method) && !routeDef.replicaReads) noteWrite(ctx.user.userId);
  }
  if (result instanceof JsonAnswer) {
    checkSuccessDocumented(routeDef, request, result.status);
    const reply = jsonReply(result.data, result.status, result.headers);
    if (env.CHECK_RESPONSES) checkResponseDocumented(routeDef, ctx, reply);
    return reply;
  }
  if (result instanceof Response) {
    // A JSON Response (the OpenAPI document) is read from a copy; its body goes out untouched.
    if (env.CHECK_RESPONSES && result.headers.get("content-type")?.includes("application/json")) {
      checkResponseDocumented(routeDef, ctx, jsonReply(await result.clone().json(), result.status));
    }
    return replyOfResponse(result);
  }
  const reply = jsonReply(result);
  if (env.CHECK_RESPONSES) checkResponseDocumented(routeDef, ctx, reply);
  return reply;
}

/** The OpenAPI document promises every error a route gives: one it does not declare is logged, and tests fail on that line. */
function checkDocumented(routeDef: Route<AuthMode>, method: string, err: ApiError, path: string): void {
  const declared = routeDef.schemas.errors?.[err.code] ?? impliedErrors(routeDef.auth, method, routeDef.schemas)[err.code];
  if (declared === err.status || declared === 0) return;
  log.warn("undocumented error code", { method, path, code: err.code, status: err.status });
}

/** The same for success statuses: one the route does not declare is logged ("undocumented status"). */
function checkSuccessDocumented(routeDef: Route<AuthMode>, request: ApiRequest, status: number): void {
  const { schemas } = routeDef;
  if (status >= 300 || status === (schemas.status ?? 200) || schemas.alsoStatus?.[status] !== undefined) return;
  log.warn("undocumented status", { method: request.method, path: request.pathname, status });
}

/**
 * Under test (CHECK_RESPONSES=1), the body too: a JSON success answer that does
 * not match the route's declared response schema (the one the OpenAPI document
 * shows) is logged as "undocumented response" with its first mismatches, and
 * tests fail on that line. Off in production: the endpoint does not call it.
 */
export function checkResponseDocumented(routeDef: Route<AuthMode>, ctx: Pick<Ctx<AuthMode>, "request" | "params">, reply: ApiReply): void {
  const schema = routeDef.schemas.response;
  if (!schema || reply.status < 200 || reply.status >= 300 || typeof reply.body !== "string") return;
  // The body as a client reads it (dates as strings, undefined fields gone).
  const checked = schema.safeParse(JSON.parse(reply.body));
  if (checked.success) return;
  const { method, pathname } = ctx.request;
  log.warn("undocumented response", {
    method,
    path: pathname,
    route: routePattern(pathname, ctx.params),
    issues: checked.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message.slice(0, 120)}`),
  });
}

/** `/api/v1/hosted/lists/abc/items/7` → `/api/v1/hosted/lists/:token/items/:itemId`, for grouping log lines. */
function routePattern(pathname: string, params: Record<string, string | undefined>): string {
  const names = Object.keys(params);
  return pathname
    .split("/")
    .map((segment) => {
      const name = names.find((n) => params[n] !== undefined && params[n] === safeDecode(segment));
      return name ? `:${name}` : segment;
    })
    .join("/");
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** SPEC section 5 rule 1: calls from outside the service's own origin carry the anon key. */
async function requireAnonKey(request: ApiRequest): Promise<void> {
  const sameOrigin =
    request.headers.get("origin") === appOrigin || request.headers.get("sec-fetch-site") === "same-origin";
  if (sameOrigin) return;
  const presented = request.headers.get("apikey");
  if (!presented || presented !== (await getAnonKey())) {
    throw unauthorized("Missing or invalid apikey header");
  }
}

/** Internal routes: only callers holding SERVICE_KEY; with no key configured they are closed. */
function requireServiceKey(request: ApiRequest): void {
  const presented = request.headers.get("x-service-key");
  if (!env.SERVICE_KEY || !presented) throw unauthorized("Missing or invalid x-service-key header");
  // Digests have equal length, so the comparison leaks neither content nor length.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  if (!timingSafeEqual(digest(presented), digest(env.SERVICE_KEY))) {
    throw unauthorized("Missing or invalid x-service-key header");
  }
}

export function bearerToken(request: ApiRequest): string | null {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

/** A user token; with `shopperOf`, also a shopper credential of that partner. 401 `unauthorized` otherwise. */
async function requireUser(request: ApiRequest, liveSession = false, shopperOf?: number): Promise<Identity> {
  const token = bearerToken(request);
  let identity = token ? await authenticateUserToken(token) : null;
  if (!identity && token && shopperOf !== undefined) identity = await authenticateShopperToken(token, shopperOf);
  if (!identity) throw unauthorized("Missing or invalid user token");
  if (liveSession) await requireLiveSession(identity);
  return identity;
}

/** 403 `forbidden` unless a valid widget token minted for this origin (or the service's own pages) is sent. */
/** The widget token a user route may carry besides the user token (a list made in a shop's dialog); null without one. */
export async function optionalWidget(request: ApiRequest): Promise<WidgetClaims | null> {
  return request.headers.get("x-widget-token") ? requireWidget(request) : null;
}

async function requireWidget(request: ApiRequest): Promise<WidgetClaims> {
  const token = request.headers.get("x-widget-token");
  const widget = token ? await verifyWidgetToken(token) : null;
  if (!widget) throw forbidden("forbidden", "Missing or invalid X-Widget-Token");
  // SPEC 5 rule 6: a revoked key's tokens stop at once (in-memory view, no read per request).
  if (!(await widgetKeyWorks(widget.apiKeyId))) throw forbidden("forbidden", "The key behind this widget token is no longer active");
  const origin = request.headers.get("origin");
  if (origin && origin !== widget.origin && origin !== appOrigin) {
    throw forbidden("forbidden", "This widget token was issued for another origin");
  }
  return widget;
}

/** A personal access token (`wpat_…`) or a portal user's token; 401 `unauthorized` otherwise. */
async function requirePartner(request: ApiRequest, liveSession = false): Promise<PartnerPrincipal> {
  const token = bearerToken(request);
  if (token?.startsWith(PAT_PREFIX)) {
    const pat = await authenticatePersonalAccessToken(token);
    if (!pat) throw unauthorized("Personal access token is invalid, revoked or expired");
    return { partnerId: pat.partnerId, userId: null, role: pat.role, actingFor: pat.createdById };
  }
  const identity = token ? await authenticateUserToken(token) : null;
  if (!identity) throw unauthorized("Missing or invalid token");
  if (liveSession) await requireLiveSession(identity);
  const link = await partnerLinkOfUser(identity.userId);
  return { partnerId: link?.partnerId ?? null, userId: identity.userId, role: link?.role ?? null, actingFor: identity.userId };
}
