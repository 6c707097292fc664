// Runs @shopify/theme-check-node on the theme app extension and fails on any
// offence (its own CLI prints JSON and always exits 0). Offline it falls back to
// the Liquid docs bundled with the package; those download notices are muted.
import path from "node:path";
import { themeCheckRun } from "@shopify/theme-check-node";

const root = path.resolve(process.argv[2] ?? "extensions/wishlist");
const { offenses, theme } = await themeCheckRun(root, undefined, () => undefined);
for (const o of offenses) {
  const file = path.relative(root, new URL(o.uri).pathname);
  console.error(`${file}:${o.start.line + 1}:${o.start.character + 1} ${o.check}: ${o.message}`);
}
console.log(`theme-check ${path.relative(process.cwd(), root)}: ${theme.length} files, ${offenses.length} offences`);
process.exit(offenses.length ? 1 : 0);
