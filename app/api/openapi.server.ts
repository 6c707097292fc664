// The published API description (SPEC 9), generated from the route table
// (app/api/route-table.ts) and each route's description on `route()` (request and
// answer schemas, error codes), never written by hand: what validates a
// request is what the document says.
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { appOrigin } from "~/env.server";
import { apiRouteTable } from "~/api/router.server";
import { impliedErrors, type AnyRoute, type AuthMode, type Method, type RouteErrors, type Routes } from "./endpoint.server";

export const API_VERSION = "1.1.0";
const BASE_PATH = "/api/v1";
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
// The table's last line answers every path no route claims; it is not an operation.
const CATCH_ALL = "api/v1/*";

/** One operation of the API: method, OpenAPI path (`/lists/{token}`) and its route definition. */
export interface ApiOperation {
  method: Method;
  path: string;
  /** Path parameter names in order. */
  params: string[];
  route: AnyRoute;
}

/** `api/v1/hosted/lists/:token` → `/hosted/lists/{token}`; a trailing splat becomes `{rest}`. */
function openApiPath(tablePath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const segments = tablePath
    .replace(/^api\/v1\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (segment === "*") return params.push("rest"), "{rest}";
      if (segment.startsWith(":")) return params.push(segment.slice(1)), `{${segment.slice(1)}}`;
      return segment;
    });
  return { path: "/" + segments.join("/"), params };
}

let operations: ApiOperation[] | undefined;

/** Every operation of the route table, in table order. */
export function apiOperations(): ApiOperation[] {
  if (operations) return operations;
  operations = [];
  for (const { path: tablePath, handler } of apiRouteTable()) {
    if (tablePath === CATCH_ALL) continue;
    const routes = (handler as { routes?: Routes }).routes;
    if (!routes) throw new Error(`API route ${tablePath} is not an endpoint()`);
    const { path, params } = openApiPath(tablePath);
    for (const method of METHODS) {
      const route = routes[method];
      if (route) operations.push({ method, path, params, route });
    }
  }
  return operations;
}

/** Everything a route can answer with besides success: implied by its auth and schemas, plus what it declares. */
export function errorsOf(op: ApiOperation): RouteErrors {
  return { ...impliedErrors(op.route.auth, op.method, op.route.schemas), ...op.route.schemas.errors };
}

const SECURITY: Record<AuthMode, Array<Record<string, string[]>>> = {
  none: [],
  apikey: [{ anonKey: [] }],
  user: [{ anonKey: [], userToken: [] }],
  widget: [{ anonKey: [], widgetToken: [] }],
  "widget+user": [{ anonKey: [], widgetToken: [], userToken: [] }],
  partner: [
    { anonKey: [], personalAccessToken: [] },
    { anonKey: [], userToken: [] },
  ],
  service: [{ serviceKey: [] }],
  customer: [{ customerAccountSessionToken: [] }],
};

export const AUTH_LABELS: Record<AuthMode, string> = {
  none: "none",
  apikey: "anon key",
  user: "user token",
  widget: "widget token",
  "widget+user": "widget token + user token",
  partner: "personal access token or portal user token",
  service: "service key",
  customer: "customer account session token",
};

function securityOf(op: ApiOperation): Array<Record<string, string[]>> {
  if (op.route.schemas.publicKey) return [{ anonKey: [], publicKey: [] }];
  // A shop page calls these with its partner-scoped shopper credential instead of an account token.
  if (op.route.shopper) return [...SECURITY[op.route.auth], { anonKey: [], widgetToken: [], shopperCredential: [] }];
  return SECURITY[op.route.auth];
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  402: "Payment required",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  410: "Gone",
  413: "Payload too large",
  415: "Unsupported media type",
  500: "Internal failure",
};

function errorSchema(codes: string[], passedOn = false) {
  const shape = {
    error: z.enum(codes as [string, ...string[]]),
    message: z.string().optional(),
    ...(passedOn ? { status: z.number().int().describe("The origin's status") } : {}),
  };
  return z.looseObject(shape);
}

function responsesOf(op: ApiOperation): RouteConfig["responses"] {
  const { schemas } = op.route;
  const success = schemas.status ?? 200;
  const responses: RouteConfig["responses"] = {};
  if (schemas.produces) {
    responses[success] = {
      description: schemas.summary ?? "Success",
      content: { [schemas.produces]: { schema: z.string().meta({ format: "binary" }) } },
    };
  } else if (success === 204 || !schemas.response) {
    responses[success] = { description: schemas.summary ?? "Success", ...(schemas.response ? {} : { content: { "application/json": { schema: z.unknown() } } }) };
  } else {
    responses[success] = { description: schemas.summary ?? "Success", content: { "application/json": { schema: schemas.response } } };
  }
  // Other success statuses answer with the same body.
  for (const [status, when] of Object.entries(schemas.alsoStatus ?? {})) responses[status] = { ...responses[success], description: when };
  // One response per status, naming every code the route can give with it.
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(errorsOf(op))) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const key = status === 0 ? "default" : status;
    const what = status === 0 ? "Status passed on from the origin" : (STATUS_TEXT[status] ?? "Error");
    responses[key] = {
      description: `${what}: ${codes.map((c) => `\`${c}\``).join(", ")}`,
      content: { "application/json": { schema: errorSchema(codes, status === 0) } },
    };
  }
  const unexpected = byStatus.get(500) ?? [];
  responses[500] = {
    description: `Unexpected failure (\`Internal server error\`)${unexpected.length ? `; ${unexpected.map((c) => `\`${c}\``).join(", ")}` : ""}`,
    content: { "application/json": { schema: errorSchema(["Internal server error", ...unexpected]) } },
  };
  return responses;
}

function operationId(op: ApiOperation): string {
  const words = op.path
    .replace(/[{}]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [op.method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1))].join("");
}

function buildDocument(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  const bearer = (description: string, bearerFormat?: string) =>
    ({ type: "http", scheme: "bearer", ...(bearerFormat ? { bearerFormat } : {}), description }) as const;
  registry.registerComponent("securitySchemes", "anonKey", {
    type: "apiKey",
    in: "header",
    name: "apikey",
    description: "The anonymous-client key (SPEC 5 rule 1). Required on every call from outside the service's own origin; the SDK sends it.",
  });
  registry.registerComponent("securitySchemes", "publicKey", bearer("A partner's public key, `pk_live_…` or `pk_test_…` (SPEC 5).", "pk_live_… / pk_test_…"));
  registry.registerComponent("securitySchemes", "widgetToken", {
    type: "apiKey",
    in: "header",
    name: "X-Widget-Token",
    description: "The widget token from `POST /widget/init`: a signed JWT bound to the calling origin, valid 10 minutes.",
  });
  registry.registerComponent("securitySchemes", "userToken", bearer("An end user's access token from the identity provider (`POST /auth/token`).", "JWT"));
  registry.registerComponent(
    "securitySchemes",
    "shopperCredential",
    bearer(
      "A shop page's partner-scoped shopper credential from `POST /widget/session-restore`: valid only with a widget token of the same partner, on the routes that list it.",
      "JWT",
    ),
  );
  registry.registerComponent(
    "securitySchemes",
    "personalAccessToken",
    bearer("A partner's personal access token (`wpat_…`): shown once, revocable, 365 days by default (SPEC 5 rule 7).", "wpat_…"),
  );
  registry.registerComponent(
    "securitySchemes",
    "customerAccountSessionToken",
    bearer(
      "A Shopify customer account UI extension's session token (`shopify.sessionToken.get()`): HS256 with the app secret, `aud` the app's client id, `dest` an installed shop, `sub` the signed-in customer (docs/shopify.md).",
      "JWT",
    ),
  );
  registry.registerComponent("securitySchemes", "serviceKey", {
    type: "apiKey",
    in: "header",
    name: "x-service-key",
    description: "The server-side service key of internal routes.",
  });

  for (const op of apiOperations()) {
    const { schemas } = op.route;
    const params = schemas.params ?? z.object(Object.fromEntries(op.params.map((name) => [name, z.string()])));
    registry.registerPath({
      method: op.method.toLowerCase() as "get",
      path: op.path,
      operationId: operationId(op),
      summary: schemas.summary,
      description: schemas.description,
      ...(schemas.deprecated ? { deprecated: true } : {}),
      tags: [schemas.tag ?? op.path.split("/")[1] ?? "status"],
      security: securityOf(op),
      request: {
        ...(op.params.length ? { params: params as z.ZodObject } : {}),
        ...(schemas.query ? { query: schemas.query as z.ZodObject } : {}),
        ...(schemas.body
          ? { body: { required: true, content: { "application/json": { schema: schemas.body } } } }
          : {}),
      },
      responses: responsesOf(op),
    });
  }

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Wishlist API",
      version: API_VERSION,
      description:
        "The hosted wishlist service's public API (SPEC.md). Every error is JSON `{error: <code>, message?}`; clients match on the code. Generated from the route table and the routes' zod schemas.",
    },
    servers: [{ url: `${appOrigin}${BASE_PATH}` }],
  }) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
  addExamples(document);
  return document;
}

/** The routes' example requests go where OpenAPI keeps them: parameter `example`s and the body's `example`. */
function addExamples(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): void {
  for (const op of apiOperations()) {
    const example = op.route.schemas.example;
    if (!example) continue;
    const operation = document.paths[op.path][op.method.toLowerCase()];
    const values: Record<string, Record<string, string> | undefined> = { path: example.params, query: example.query };
    for (const parameter of (operation.parameters as Array<{ in: string; name: string; example?: string }>) ?? []) {
      const value = values[parameter.in]?.[parameter.name];
      if (value !== undefined) parameter.example = value;
    }
    const body = (operation.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)?.content?.["application/json"];
    if (body && example.body !== undefined) body.example = example.body;
    operation["x-example-request"] = true;
  }
}

let document: string | undefined;

/** The document as JSON text, built once per process. */
export function openApiJson(): string {
  return (document ??= JSON.stringify(buildDocument()));
}

/** `GET /endpoints`: the human summary of the same operations. */
export function endpointSummary() {
  return {
    version: API_VERSION,
    endpoints: apiOperations().map((op) => ({
      method: op.method,
      path: op.path,
      auth: op.route.schemas.publicKey ? "public key" : AUTH_LABELS[op.route.auth],
      summary: op.route.schemas.summary ?? "",
    })),
  };
}
