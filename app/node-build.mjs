// Compiles the Node entry points outside the Remix build, so they start in a
// fraction of a second instead of compiling TypeScript through tsx each time:
// the server (app/server/cluster.ts → build/node/server.mjs, run by
// app/server/start.mjs and by each cluster worker) and the operator CLI
// (app/cli/main.ts → build/cli/wish.mjs, run by app/cli/wish.mjs). Part of
// `npm run build`. Dependencies are bundled too, as in the server build (vite.config.ts),
// except native and generated ones and the Remix runtime the server build shares: a
// process then resolves and loads a few files, not hundreds (a `wish` command is a
// process; the suite runs a hundred and fifty of them). Outputs sit two levels below
// the root, like their sources, so paths from import.meta.dirname hold.
import { build } from "esbuild";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** Loaded from node_modules: native addons, Prisma's generated client, and what the server build shares with express. */
const RUNTIME_PACKAGES = ["@prisma/*", "better-sqlite3", "pg", "sharp", "react", "react-dom", "@remix-run/*", "express"];

for (const [entry, outfile] of [
  ["app/server/cluster.ts", "build/node/server.mjs"],
  ["app/cli/main.ts", "build/cli/wish.mjs"],
]) {
  await build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, outfile),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: RUNTIME_PACKAGES,
    // Bundled CommonJS calls require(); an ES module has none of its own.
    banner: { js: 'import { createRequire as __wishCreateRequire } from "node:module"; const require = __wishCreateRequire(import.meta.url);' },
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
}
