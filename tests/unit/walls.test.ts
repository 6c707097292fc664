// The walls of app/ are lint rules (eslint.config.js): a domain importing the
// HTTP wing, app/lib importing the app, or an import circle fails `npm run lint`.
import { readFileSync } from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("import walls", () => {
  it("a domain module may not import an API, route, admin, webhook or Shopify module", async () => {
    for (const source of ["~/api/endpoint.server", "~/shopify.server", "~/webhooks/receive.server", "~/admin/outcome.server", "../../api/router.server"]) {
      const messages = await ruleIds("app/domains/lists/wall-fixture.ts", `import * as wing from "${source}";\nexport const used = wing;\n`);
      expect(messages.some((m) => m.startsWith("import-x/no-restricted-paths:") && m.includes("A domain knows nothing of HTTP")), source).toBe(true);
    }
  }, 60_000);

  it("a domain module may import other domains and the generic layer", async () => {
    const messages = await ruleIds(
      "app/domains/lists/wall-fixture.ts",
      `import { badRequest } from "~/lib/api/errors";\nimport { getPlan } from "~/domains/plans/plans";\nexport const used = [badRequest, getPlan];\n`,
    );
    expect(messages).toEqual([]);
  }, 60_000);

  it("app/lib may import its configuration but nothing else of the app", async () => {
    const env = await ruleIds("app/lib/wall-fixture.ts", `import { env } from "~/env.server";\nexport const used = env;\n`);
    expect(env).toEqual([]);
    const domain = await ruleIds("app/lib/wall-fixture.ts", `import { getPlan } from "~/domains/plans/plans";\nexport const used = getPlan;\n`);
    expect(domain.some((m) => m.startsWith("import-x/no-restricted-paths:") && m.includes("app/lib is generic"))).toBe(true);
  }, 60_000);

  it("an import that closes a circle fails", async () => {
    // keys.server imports key-rules; key-rules importing keys.server would close the circle.
    const file = "app/domains/keys/key-rules.ts";
    const code = `import { apiKeyJson } from "./keys.server";\nexport const used = apiKeyJson;\n${readFileSync(file, "utf8")}`;
    const messages = await ruleIds(file, code);
    expect(messages.some((m) => m.startsWith("import-x/no-cycle"))).toBe(true);
  }, 60_000);
});
