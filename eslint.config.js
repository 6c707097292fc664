import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

// The walls of app/ (docs: README "Where the code lives"). Domains know
// nothing of HTTP: no API, route, admin, webhook or server module, not the
// Shopify app. The generic layer app/lib knows nothing of the app but its
// configuration.
const { "import-x/resolver": _legacyResolver, ...TYPESCRIPT_SETTINGS } = importX.flatConfigs.typescript.settings;
const HTTP_WING = ["./app/api", "./app/routes", "./app/admin", "./app/webhooks", "./app/http", "./app/server", "./app/shopify.server.ts", "./app/routes.ts", "./app/entry.server.tsx", "./app/root.tsx"];

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
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      // The TypeScript preset's parsers and extensions (so that imported modules are read, e.g. for cycles), with the `~/` paths of tsconfig.json.
      ...TYPESCRIPT_SETTINGS,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            { target: "./app/domains", from: HTTP_WING, message: "A domain knows nothing of HTTP: take what it needs as arguments, and let the HTTP wing call the domain." },
            { target: "./app/lib", from: "./app", except: ["./lib", "./env.server.ts"], message: "app/lib is generic: it imports nothing of the app but its configuration (~/env.server)." },
          ],
        },
      ],
    },
  },
  {
    // The two data paths share SQLite's connection through a handshake that
    // closes this circle; it goes when one module owns the connections.
    files: ["app/db.server.ts", "app/db/sql.server.ts"],
    rules: { "import-x/no-cycle": "off" },
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
