// Compiles the Node entry points outside the Remix build, so they start in a
// fraction of a second instead of compiling TypeScript through tsx each time:
// the server (app/server/cluster.ts → build/node/server.mjs, run by
// app/server/start.mjs and by each cluster worker) and the operator CLI
// (app/cli/main.ts → build/cli/wish.mjs, run by app/cli/wish.mjs). Part of
// `npm run build`. Dependencies stay in node_modules. Outputs sit two levels
// below the root, like their sources, so paths from import.meta.dirname hold.
import { build } from "esbuild";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

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
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
}
