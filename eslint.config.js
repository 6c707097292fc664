import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", "public/**", "extensions/**/assets/**", "bench-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Data access (docs/decisions/0002-prepared-statements-beside-prisma.md): SQL is written only in a
    // domain's statement modules (*.sql.server.ts); other modules call them, and compose and run their steps.
    // The typescript-eslint variant of the rule, so that it does not replace the walls' no-restricted-imports.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.sql.server.ts", "app/db/**", "app/db.server.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "~/db/sql.server",
              importNames: ["statement", "one", "all", "run", "fields", "Fields"],
              message: "Write statements in the domain's *.sql.server.ts module and call it from here.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // A test that cannot fail is a defect: no .only, no skipped tests.
    files: ["tests/**/*.test.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "it", property: "only" },
        { object: "describe", property: "only" },
        { object: "test", property: "only" },
        { object: "it", property: "skip" },
        { object: "describe", property: "skip" },
        { object: "test", property: "skip" },
      ],
    },
  },
);
