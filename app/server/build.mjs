// Compiles the server entry (app/server/cluster.ts and what it imports
// outside the Remix build) into build/node/server.mjs, so `npm start` and each
// cluster worker load plain JavaScript instead of compiling TypeScript through
// tsx on every start. Part of `npm run build`. Dependencies stay in node_modules.
import { build } from "esbuild";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

await build({
  entryPoints: [path.join(root, "app/server/cluster.ts")],
  // Two levels below the root like app/server/, so paths derived from import.meta.dirname hold.
  outfile: path.join(root, "build/node/server.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
});
