import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The walls of app/ (docs/architecture.md). Domains know nothing of HTTP: no
// API, route, admin, webhook, app proxy, HTTP or server module, not the Shopify app. The
// generic layer app/lib knows nothing of the app but its configuration. (Import
// circles are found by tests/unit/walls.test.ts with TypeScript's resolver.)
const HTTP_WING = /^(~\/|(\.\.\/)+)(api|routes|admin|webhooks|proxy|http|server)(\/|$)|^~\/(shopify\.server|routes|entry\.server|root)$/.source;
// A domain function takes and returns plain values: no Request, Response or Headers, as values or types.
const HTTP_GLOBALS = ["Request", "Response", "Headers"];
const NO_HTTP_HERE = "A domain knows nothing of HTTP: let the HTTP wing read the request (app/http/cookies.server.ts) and pass plain values.";
const OUTSIDE_LIB = /^~\/(?!lib\/|env\.server$)/.source;
// Money has one home (app/lib/money.ts): an amount becomes text only through formatMoney and its kin.
const CURRENCY_FORMATS = [
  'Property[key.name="style"][value.value="currency"]',
  'Property[key.name="currencyDisplay"]',
].map((selector) => ({ selector, message: "Format money only through app/lib/money.ts (formatMoney): it knows each currency's minor unit." }));
// Nor markup, words or styles: those are app/pages/, app/i18n/, app/hosted-pages/ and CSS (docs/architecture.md "Pages, e-mails, languages").
const FLOWS = /^(~\/|(\.\.\/)+)flows(\/|$)/.source;
const PRESENTATION = /^(~\/|(\.\.\/)+)(pages|i18n|hosted-pages|styles)(\/|$)|\.css(\?|$)/.source;
// What domains and flows may not import.
const RULES_AND_DATA = [
  { regex: HTTP_WING, message: "A domain knows nothing of HTTP: take what it needs as arguments, and let the HTTP wing call the domain." },
  { regex: PRESENTATION, message: "A domain holds rules and data: hand a model to app/pages/ (markup, e-mails) and app/i18n/ (words)." },
];

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", "public/**", "extensions/**/assets/**", "bench-results/**", "tests/support/themes/dawn/**", "tests/support/themes/horizon/**"] },
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
    ignores: ["app/lib/money.ts"],
    rules: { "no-restricted-syntax": ["error", ...CURRENCY_FORMATS] },
  },
  {
    // Raw SQL through Prisma is written only in statement modules, as prepared statements are (below).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.sql.server.ts", "app/db/**", "app/db.server.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe"].map((property) => ({
          property,
          message: "Write raw SQL in the domain's *.sql.server.ts module and call it from here.",
        })),
      ],
    },
  },
  {
    // Domains and the flows that combine them: no HTTP, no markup or words. Only domains are kept from flows.
    files: ["app/domains/**/*.{ts,tsx}", "app/flows/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: RULES_AND_DATA,
        },
      ],
      // Nor of a request or a response as such: the HTTP wing reads headers and cookies and passes plain values
      // (an outgoing call to another service may use fetch, whose answer it need not name).
      "no-restricted-globals": ["error", ...HTTP_GLOBALS.map((name) => ({ name, message: NO_HTTP_HERE }))],
      "@typescript-eslint/no-restricted-types": ["error", { types: Object.fromEntries(HTTP_GLOBALS.map((name) => [name, NO_HTTP_HERE])) }],
      // The currency rule again: this rule's list replaces the one above for domain files.
      "no-restricted-syntax": [
        "error",
        ...CURRENCY_FORMATS,
        ...["WithHeaders", "ApiRequest", "ApiReply", "HeaderReader"].map((name) => ({
          selector: `TSTypeReference > Identifier[name="${name}"]`,
          message: NO_HTTP_HERE,
        })),
      ],
    },
  },
  {
    files: ["app/domains/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [...RULES_AND_DATA, { regex: FLOWS, message: "Flows (app/flows/) use the domains, never the reverse: publish a domain event or let the flow call you." }],
        },
      ],
    },
  },
  {
    files: ["app/lib/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: OUTSIDE_LIB, message: "app/lib is generic: it imports nothing of the app but its configuration (~/env.server)." }] },
      ],
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
