// The walls of app/: a domain importing the HTTP wing or naming a request or
// response, or app/lib importing the app, raw SQL through Prisma outside a statement module, or
// money formatted outside app/lib/money.ts fails `npm run lint` (eslint.config.js); an import circle anywhere
// in app/ fails this test (modules resolved by TypeScript, with tsconfig's paths), and so do a cycle among
// the domain folders and a domain importing a flow (app/flows/).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** The app's own modules each module imports (type-only imports included: a circle of types is still a circle to read). */
function importGraph(overrides: Record<string, string> = {}): Map<string, string[]> {
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile).config, ts.sys, root);
  const files = readdirSync(path.join(root, "app"), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(root, "app", f));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = overrides[file] ?? readFileSync(file, "utf8");
    const targets = ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName }) => {
      const resolved = ts.resolveModuleName(fileName, file, config.options, ts.sys).resolvedModule;
      return resolved && !resolved.isExternalLibraryImport && resolved.resolvedFileName.startsWith(path.join(root, "app")) ? [resolved.resolvedFileName] : [];
    });
    graph.set(file, targets);
  }
  return graph;
}

/** Every import circle, as the paths of its modules (depth-first search). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(root, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** Every file of app/domains/<folder>/… folded into its folder: folder → the other domain folders it imports. */
function folderGraph(graph: Map<string, string[]>): Map<string, Set<string>> {
  const domains = path.join(root, "app/domains") + path.sep;
  const folderOf = (file: string) => (file.startsWith(domains) ? file.slice(domains.length).split(path.sep)[0]! : null);
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (from === null) continue;
    const edges = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== null && to !== from) edges.add(to);
    }
  }
  return folders;
}

/** Every cycle among domain folders, each as its folders in import order (the first repeated at the end). */
function folderCycles(folders: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (folder: string) => {
    state.set(folder, "open");
    stack.push(folder);
    for (const next of folders.get(folder) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(folder, "done");
  };
  for (const folder of [...folders.keys()].sort()) if (!state.has(folder)) visit(folder);
  return found;
}

describe("import walls", () => {
  it("a domain module may not import an API, route, admin, webhook or Shopify module", async () => {
    for (const source of ["~/api/endpoint.server", "~/shopify.server", "~/webhooks/receive.server", "~/admin/outcome.server", "../../api/router.server"]) {
      const found = await messages("app/domains/lists/wall-fixture.ts", `import * as wing from "${source}";\nexport const used = wing;\n`);
      expect(found.some((m) => m.startsWith("no-restricted-imports:") && m.includes("A domain knows nothing of HTTP")), source).toBe(true);
    }
  }, 60_000);

  it("a domain module may not import pages, catalogues, the hosted pages or styles: it hands over models", async () => {
    for (const source of ["~/pages/emails", "~/i18n/emails", "~/hosted-pages/accent", "../../i18n/share", "~/styles/share.css?url", "./list.css"]) {
      const found = await messages("app/domains/lists/wall-fixture.ts", `import * as view from "${source}";\nexport const used = view;\n`);
      expect(found.some((m) => m.startsWith("no-restricted-imports:") && m.includes("A domain holds rules and data")), source).toBe(true);
    }
  }, 60_000);

  it("a flow keeps the domains' walls (no HTTP, no markup or words) and only a domain may not import a flow", async () => {
    const importing = (source: string) => `import * as used from "${source}";\nexport { used };\n`;
    const http = await messages("app/flows/wall-fixture.ts", importing("~/api/endpoint.server"));
    expect(http.some((m) => m.startsWith("no-restricted-imports:") && m.includes("A domain knows nothing of HTTP"))).toBe(true);
    const page = await messages("app/flows/wall-fixture.ts", importing("~/pages/emails"));
    expect(page.some((m) => m.startsWith("no-restricted-imports:") && m.includes("A domain holds rules and data"))).toBe(true);
    expect(await messages("app/flows/wall-fixture.ts", importing("~/flows/pruning.server"))).toEqual([]);
    const flow = await messages("app/domains/lists/wall-fixture.ts", importing("~/flows/pruning.server"));
    expect(flow.some((m) => m.startsWith("no-restricted-imports:") && m.includes("Flows (app/flows/) use the domains"))).toBe(true);
  }, 60_000);

  it("a domain module may import other domains and the generic layer", async () => {
    const found = await messages(
      "app/domains/lists/wall-fixture.ts",
      `import { badRequest } from "~/lib/api/errors";\nimport { getPlan } from "~/domains/plans/plans";\nexport const used = [badRequest, getPlan];\n`,
    );
    expect(found).toEqual([]);
  }, 60_000);

  it("a domain function takes no Request and makes no Response: the HTTP wing passes plain values", async () => {
    const wall = (m: string) => m.includes("A domain knows nothing of HTTP");
    const parameter = await messages(
      "app/domains/lists/wall-fixture.ts",
      `export async function viewer(request: Request): Promise<string | null> {\n  return request.headers.get("cookie");\n}\n`,
    );
    expect(parameter.some((m) => m.startsWith("@typescript-eslint/no-restricted-types:") && wall(m)), parameter.join("\n")).toBe(true);
    const constructed = await messages("app/domains/lists/wall-fixture.ts", `export const answer = () => new Response("{}", { status: 200 });\n`);
    expect(constructed.some((m) => m.startsWith("no-restricted-globals:") && wall(m)), constructed.join("\n")).toBe(true);
    const headers = await messages("app/domains/lists/wall-fixture.ts", `import type { WithHeaders } from "~/lib/api/http";\nexport const cookie = (r: WithHeaders) => r.headers.get("cookie");\n`);
    expect(headers.some((m) => m.startsWith("no-restricted-syntax:") && wall(m)), headers.join("\n")).toBe(true);
    // The HTTP wing may: there a request is what it reads.
    expect(await messages("app/http/wall-fixture.ts", `export const answer = (request: Request) => new Response(request.url);\n`)).toEqual([]);
  }, 60_000);

  it("app/lib may import its configuration but nothing else of the app", async () => {
    expect(await messages("app/lib/wall-fixture.ts", `import { env } from "~/env.server";\nexport const used = env;\n`)).toEqual([]);
    const domain = await messages("app/lib/wall-fixture.ts", `import { getPlan } from "~/domains/plans/plans";\nexport const used = getPlan;\n`);
    expect(domain.some((m) => m.startsWith("no-restricted-imports:") && m.includes("app/lib is generic"))).toBe(true);
  }, 60_000);

  it("raw SQL through Prisma is written only in statement modules (*.sql.server.ts)", async () => {
    const code = `import { db } from "~/db.server";\nexport const count = () => db.$queryRaw\`SELECT 1\`;\nexport const wipe = () => db.$executeRawUnsafe("DELETE FROM x");\n`;
    const found = await messages("app/domains/lists/wall-fixture.ts", code);
    expect(found.filter((m) => m.startsWith("no-restricted-properties:") && m.includes("*.sql.server.ts"))).toHaveLength(2);
    expect(await messages("app/domains/lists/wall-fixture.sql.server.ts", code)).toEqual([]);
  }, 60_000);

  it("money becomes text only in app/lib/money.ts", async () => {
    const wall = (m: string) => m.startsWith("no-restricted-syntax:") && m.includes("app/lib/money.ts");
    const intl = `export const price = (n: number) => new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(n / 100);\n`;
    const local = `export const price = (n: number) => (n / 100).toLocaleString("en-US", { style: "currency", currency: "USD", currencyDisplay: "code" });\n`;
    for (const file of ["app/routes/wall-fixture.tsx", "app/domains/lists/wall-fixture.ts", "app/sdk/wall-fixture.ts"]) {
      expect((await messages(file, intl)).some(wall), file).toBe(true);
      expect((await messages(file, local)).filter(wall), file).toHaveLength(2);
    }
    expect(await messages("app/lib/money.ts", intl)).toEqual([]);
    // A number or a percentage is not money.
    expect(await messages("app/routes/wall-fixture.tsx", `export const share = (n: number) => n.toLocaleString("en", { style: "percent" });\n`)).toEqual([]);
  }, 60_000);

  it("app/ has no import circle, and an import that closes one is found", () => {
    expect(circles(importGraph())).toEqual([]);
    // keys.server imports key-rules; key-rules importing keys.server would close a circle.
    const file = path.join(root, "app/domains/keys/key-rules.ts");
    const closing = `import { apiKeyJson } from "./keys.server";\n${readFileSync(file, "utf8")}`;
    expect(circles(importGraph({ [file]: closing }))).toContainEqual(
      expect.arrayContaining(["app/domains/keys/key-rules.ts", "app/domains/keys/keys.server.ts"]),
    );
  }, 60_000);

  it("the domain folders import each other without a cycle (docs/architecture.md, layers), and a folder cycle is found", () => {
    const graph = importGraph();
    const cycles = folderCycles(folderGraph(graph));
    expect(cycles.map((c) => c.join(" → ")), "domain folders importing each other round in a circle").toEqual([]);
    // Flows sit above every domain: a domain importing one would close a cycle through it.
    const flows = path.join(root, "app/flows") + path.sep;
    const domainsImportingFlows = [...graph]
      .filter(([file, targets]) => file.startsWith(path.join(root, "app/domains") + path.sep) && targets.some((t) => t.startsWith(flows)))
      .map(([file]) => path.relative(root, file));
    expect(domainsImportingFlows).toEqual([]);
    // keys imports partners (keys.server); partners importing keys.server would close a folder cycle.
    const file = path.join(root, "app/domains/partners/partners.server.ts");
    const closing = `import { apiKeyJson } from "~/domains/keys/keys.server";\n${readFileSync(file, "utf8")}`;
    expect(folderCycles(folderGraph(importGraph({ [file]: closing })))).toContainEqual(expect.arrayContaining(["partners", "keys"]));
  }, 60_000);
});
