// Builds the shop-page scripts (app/sdk/widget.ts, basket-integration.ts)
// into build/sdk/: one minified IIFE each, a content-hashed copy for pinning
// and manifest.json {name: hashed file}. Part of `npm run build`. The
// placeholders __WISH_APP_URL__ / __WISH_ANON_KEY__ stay in the files; the
// server substitutes them when serving (app/domains/shop-scripts/shop-scripts.server.ts).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const out = path.join(root, "build/sdk");
const NAMES = ["widget", "basket-integration"];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const manifest = {};
for (const name of NAMES) {
  const result = await build({
    entryPoints: [path.join(root, `app/sdk/${name}.ts`)],
    bundle: true,
    format: "iife",
    target: "es2018",
    minify: true,
    write: false,
    legalComments: "none",
    logLevel: "warning",
  });
  const code = result.outputFiles[0].contents;
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
  writeFileSync(path.join(out, `${name}.js`), code);
  writeFileSync(path.join(out, `${name}.${hash}.js`), code);
  manifest[name] = `${name}.${hash}.js`;
}
writeFileSync(path.join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
