// Guards behind rows of docs/shopify-review.md that no other test held:
// the webhook subscriptions of shopify.app.toml (the three compliance topics,
// a route for every address), and no storefront or Admin API use that the
// App Store refuses (the ScriptTag API, theme asset writes, the REST Admin API).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const toml = readFileSync(path.join(root, "shopify.app.toml"), "utf8");

/** The [[webhooks.subscriptions]] blocks: their topics (or compliance topics) and address. */
function subscriptions(text: string): Array<{ topics: string[]; compliance: string[]; uri: string }> {
  const list = (block: string, key: string) =>
    [...(new RegExp(`^${key} = \\[([^\\]]*)\\]$`, "m").exec(block)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  return text
    .split(/^\[\[webhooks\.subscriptions\]\]$/m)
    .slice(1)
    .map((block) => block.split(/^\[/m)[0]!)
    .map((block) => ({ topics: list(block, "topics"), compliance: list(block, "compliance_topics"), uri: /^uri = "([^"]+)"$/m.exec(block)?.[1] ?? "" }));
}

/** What the App Store refuses, as it would appear in source: Script Tag and theme asset writes, REST Admin API calls. */
const REFUSED = [
  { what: "ScriptTag API", pattern: /\bscriptTag(?:Create|Update|Delete|s)\b|script_tags(?:\.json)?\b/ },
  { what: "theme asset writes", pattern: /\bthemeFiles(?:Upsert|Copy|Delete)\b|\/themes\/\d*[^"'`\s]*\/assets(?:\.json)?\b|\bthemes\/[^"'`\s]*assets\.json/ },
  { what: "REST Admin API", pattern: /\/admin\/api\/[^"'`\s]*\/(?!graphql\.json)[a-z_/]+\.json\b|\badmin\.rest\b|\brestResources\b/ },
];

function refusedUses(text: string): string[] {
  return REFUSED.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => !f.split(path.sep).includes("node_modules"))
    .filter((f) => /\.(ts|tsx|js|mjs|liquid)$/.test(f))
    .map((f) => path.join(dir, f));
}

describe("shopify.app.toml webhooks", () => {
  it("subscribes the three compliance topics, and every subscribed address has its route for its topics", () => {
    const subs = subscriptions(toml);
    expect(subs.flatMap((s) => s.compliance).sort()).toEqual(["customers/data_request", "customers/redact", "shop/redact"]);
    expect(subs.length).toBeGreaterThan(5);
    for (const { topics, compliance, uri } of subs) {
      expect(uri, JSON.stringify(topics)).toMatch(/^\/webhooks\//);
      const route = path.join(root, "app/routes", `${uri.slice(1).replace(/\//g, ".")}.tsx`);
      expect(existsSync(route), route).toBe(true);
      const text = readFileSync(route, "utf8");
      for (const topic of [...topics, ...compliance]) expect(text, `${route} names ${topic}`).toContain(`"${topic}"`);
    }
  });
});

describe("no Script Tag, theme asset or REST Admin API use", () => {
  it("the scan recognises each refused use (it is live, not a no-op)", () => {
    expect(refusedUses(`mutation { scriptTagCreate(input: {src: "https://app.example/widget.js"}) { scriptTag { id } } }`)).toEqual(["ScriptTag API"]);
    expect(refusedUses(`await fetch(\`https://\${shop}/admin/api/2026-01/themes/1/assets.json\`, { method: "PUT" })`)).toContain("theme asset writes");
    expect(refusedUses(`mutation { themeFilesUpsert(themeId: "gid://shopify/OnlineStoreTheme/1", files: []) { job { id } } }`)).toEqual(["theme asset writes"]);
    expect(refusedUses(`await fetch(\`https://\${shop}/admin/api/2026-01/products.json\`)`)).toEqual(["REST Admin API"]);
    expect(refusedUses(`await fetch(\`https://\${shop}/admin/api/2026-01/graphql.json\`, { method: "POST" })`)).toEqual([]);
    expect(refusedUses(`<script src="{{ 'widget.js' | asset_url }}" async></script>`)).toEqual([]);
  });

  it("app/ and extensions/ use none of them", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("extensions")];
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => refusedUses(readFileSync(path.join(root, file), "utf8")).map((what) => `${file}: ${what}`));
    expect(found).toEqual([]);
  });
});

describe("the review file's proofs", () => {
  /** Every `tests/….test.ts` › "name" the file cites (a file's later names follow it as › "name"). */
  function citations(text: string): Array<{ file: string; name: string }> {
    const found: Array<{ file: string; name: string }> = [];
    for (const m of text.matchAll(/`(tests\/[^`]+\.test\.ts)`((?:[\s,›]+"[^"]+")+)/g)) {
      for (const name of m[2]!.matchAll(/"([^"]+)"/g)) found.push({ file: m[1]!, name: name[1]! });
    }
    return found;
  }

  it("the parser reads a file's several names", () => {
    expect(citations('`tests/a.test.ts` › "one", › "two"; `tests/b.test.ts` › "three"')).toEqual([
      { file: "tests/a.test.ts", name: "one" },
      { file: "tests/a.test.ts", name: "two" },
      { file: "tests/b.test.ts", name: "three" },
    ]);
  });

  it("every test docs/shopify-review.md cites exists, with that name", () => {
    const cited = citations(readFileSync(path.join(root, "docs/shopify-review.md"), "utf8"));
    expect(cited.length).toBeGreaterThan(40);
    const missing = cited.filter(({ file, name }) => !existsSync(path.join(root, file)) || !readFileSync(path.join(root, file), "utf8").includes(name));
    expect(missing).toEqual([]);
  });
});
