// The published API description (SPEC 9): GET /openapi.json is a valid
// OpenAPI 3.1 document, lists exactly the routes of app/api/route-table.ts with the
// methods the server answers, and its example requests get answers that
// match the documented schemas. GET /endpoints is the human summary.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "../../app/api/route-table";
import { sharedApi, type Api } from "../support/api.ts";
import { provisioner } from "../support/provision.ts";

type Operation = {
  operationId: string;
  summary?: string;
  parameters?: Array<{ in: string; name: string; required?: boolean; example?: string }>;
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: Array<Record<string, string[]>>;
  "x-example-request"?: boolean;
};
type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, unknown> };
};

let api: Api;
let doc: Doc;

beforeAll(async () => {
  api = await sharedApi();
  const res = await api.get("/openapi.json", { noApiKey: true });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  doc = res.body;
});

/** `api/v1/lists/:token` → `/lists/{token}`, as the document writes paths. */
const docPath = (tablePath: string) =>
  "/" +
  tablePath
    .replace(/^api\/v1\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((s) => (s === "*" ? "{rest}" : s.startsWith(":") ? `{${s.slice(1)}}` : s))
    .join("/");

const tableRoutes = API_ROUTES.filter(([path]) => path !== "api/v1/*");

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, version 1.1.0, with the credential schemes; the shop page's routes name the shopper credential", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.1.0");
    for (const scheme of ["publicKey", "widgetToken", "userToken", "anonKey", "personalAccessToken", "shopperCredential"]) {
      expect(doc.components.securitySchemes[scheme], scheme).toBeDefined();
    }
    const takesShopper = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.security ?? []).some((s: Record<string, unknown>) => "shopperCredential" in s);
    expect(takesShopper("/widget/saved-products", "get")).toBe(true);
    expect(takesShopper("/widget/save", "post")).toBe(true);
    expect(takesShopper("/widget/lists", "post")).toBe(false);
  });

  it("lists exactly the paths of app/api/route-table.ts, each with the methods the server answers", async () => {
    expect(Object.keys(doc.paths).sort()).toEqual(tableRoutes.map(([path]) => docPath(path)).sort());
    for (const [path] of tableRoutes) {
      // The server's own answer to a preflight names the route's methods.
      const concrete = docPath(path).replace(/\{[^}]+\}/g, "x1");
      const res = await api.request("OPTIONS", concrete, { headers: { origin: "https://probe.example" } });
      expect(res.status, path).toBe(204);
      const served = res.headers.get("access-control-allow-methods")!.split(", ").filter((m) => m !== "OPTIONS").sort();
      const documented = Object.keys(doc.paths[docPath(path)]).map((m) => m.toUpperCase()).sort();
      expect(documented, path).toEqual(served);
    }
  });

  it("describes every operation: a summary, a success answer, its credentials and its error codes", () => {
    const schemes = new Set(Object.keys(doc.components.securitySchemes));
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary, where).toBeTruthy();
        expect(ids.has(op.operationId), where).toBe(false);
        ids.add(op.operationId);
        const success = Object.keys(op.responses).filter((s) => /^2/.test(s));
        expect(success.length, where).toBeGreaterThan(0);
        for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) expect(schemes.has(name), where).toBe(true);
        // Every route can answer 404 not_found (wrong method) and 500.
        expect(JSON.stringify(op.responses["404"]), where).toContain("not_found");
        expect(op.responses["500"], where).toBeDefined();
      }
    }
  });

  it("documents every success status a route answers with: POST /partner/bootstrap gives 201 for a new partner, 200 for the existing one", async () => {
    const bootstrap = doc.paths["/partner/bootstrap"]?.post;
    expect(Object.keys(bootstrap!.responses).filter((s) => /^2/.test(s)).sort()).toEqual(["200", "201"]);
    expect(bootstrap!.responses["200"]!.content?.["application/json"]?.schema).toEqual(bootstrap!.responses["201"]!.content?.["application/json"]?.schema);
    const user = await api.anonymousUser();
    const first = await api.post("/partner/bootstrap", { token: user.accessToken, body: { name: "Twice", email: "twice@shop.example" } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.created).toBe(true);
    const again = await api.post("/partner/bootstrap", { token: user.accessToken, body: {} });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: false, partner: { partner_id: first.body.partner.partner_id } });
  });

  it("names each error code with its status in the responses", () => {
    const save = doc.paths["/widget/save"]?.post;
    expect(save).toBeDefined();
    expect(save.responses["403"].description).toContain("`forbidden`");
    expect(save.responses["401"].description).toContain("`unauthorized`");
  });
});

describe("example requests", () => {
  it("each documented example answers with its documented success status and schema", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components });
    const credentials = await credentialsFor(api);
    let sent = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op["x-example-request"]) continue;
        const where = `${method.toUpperCase()} ${path}`;
        let url = path;
        const query = new URLSearchParams();
        for (const p of op.parameters ?? []) {
          if (p.example === undefined) {
            expect(p.required, `${where}: required parameter ${p.name} has no example`).not.toBe(true);
            continue;
          }
          if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(p.example));
          else if (p.in === "query") query.set(p.name, p.example);
        }
        const requirement = op.security?.[0] ?? {};
        const headers: Record<string, string> = {};
        for (const scheme of Object.keys(requirement)) Object.assign(headers, credentials[scheme]?.() ?? {});
        for (const scheme of Object.keys(requirement)) expect(credentials[scheme], `${where}: no test credential for ${scheme}`).toBeDefined();
        const body = op.requestBody?.content["application/json"]?.example;
        const res = await api.request(method.toUpperCase(), url + (query.size ? `?${query}` : ""), {
          body,
          headers,
          noApiKey: !("anonKey" in requirement),
        });
        // One of the documented success answers (a route may document more than one, e.g. 201 and 200).
        const successes = Object.keys(op.responses).filter((s) => /^2/.test(s));
        expect(successes, `${where}: ${res.status} ${res.text.slice(0, 300)}`).toContain(String(res.status));
        const response = op.responses[String(res.status)]!;
        const schema = response.content?.["application/json"]?.schema;
        if (schema) {
          const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
          expect(validate(res.body), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(5);
  });
});

describe("GET /endpoints", () => {
  it("gives method, path, auth and one line for every documented operation", async () => {
    const res = await api.get("/endpoints", { noApiKey: true });
    expect(res.status).toBe(200);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(res.body.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`).sort()).toEqual(documented.sort());
    const init = res.body.endpoints.find((e: { path: string }) => e.path === "/widget/init");
    expect(init).toMatchObject({ method: "POST", auth: "public key" });
    expect(init.summary).not.toBe("");
    for (const e of res.body.endpoints) expect(e.summary, `${e.method} ${e.path}`).not.toBe("");
  });
});

/** Headers that satisfy each security scheme, for a fresh partner, key and user. */
async function credentialsFor(api: Api): Promise<Record<string, () => Record<string, string>>> {
  const provision = await provisioner((api as Api & { server: { databaseUrl: string; url: string } }).server);
  const partner = await provision.partner("growth");
  const key = await provision.key(partner.id);
  const { createPersonalAccessToken } = await import("~/domains/partners/access-tokens.server");
  const pat = await createPersonalAccessToken(partner.id, { name: "openapi test" });
  const user = await api.anonymousUser();
  const init = await api.post("/widget/init", { body: { origin: "http://localhost:3000" }, token: key.key });
  expect(init.status).toBe(200);
  return {
    anonKey: () => ({}),
    publicKey: () => ({ authorization: `Bearer ${key.key}` }),
    userToken: () => ({ authorization: `Bearer ${user.accessToken}` }),
    widgetToken: () => ({ "x-widget-token": init.body.token, origin: "http://localhost:3000" }),
    personalAccessToken: () => ({ authorization: `Bearer ${pat.token}` }),
  };
}
