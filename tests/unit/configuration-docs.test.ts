// docs/configuration.md lists every environment variable the service reads:
// the names come from the schema that validates them at boot, so a variable
// added without its row fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLE_NAMES } from "~/env.server";

const docs = readFileSync(path.resolve(import.meta.dirname, "../../docs/configuration.md"), "utf8");
/** The variables a table row of the page names in its first column (`A`, `B` rows name several). */
const documented = new Set(
  docs
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)),
);

describe("docs/configuration.md", () => {
  it("has a row for every variable of the environment schema", () => {
    expect(ENV_VARIABLE_NAMES.length).toBeGreaterThan(50);
    expect(ENV_VARIABLE_NAMES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("documents no variable the schema does not read", () => {
    expect([...documented].filter((name) => !ENV_VARIABLE_NAMES.includes(name))).toEqual([]);
  });
});
