// Compiles the operator CLI (app/cli/main.ts) into build/cli/wish.mjs, so a
// call starts in a fraction of a second instead of compiling TypeScript on
// every run. Part of `npm run build`. Dependencies stay in node_modules.
import { build } from "esbuild";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

await build({
  entryPoints: [path.join(root, "app/cli/main.ts")],
  outfile: path.join(root, "build/cli/wish.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
});
