// Builds the shop-page scripts (app/sdk/widget.ts, basket-integration.ts)
// once, one minified IIFE each, and writes the same bytes to two places:
//
// - build/sdk/ (with a content-hashed copy for pinning and manifest.json
//   {name: hashed file}), served at /sdk/v1/*.js for shops outside Shopify
//   (SPEC 9). The placeholders __WISH_APP_URL__ / __WISH_ANON_KEY__ stay in
//   the files; the server substitutes them when serving
//   (app/domains/shop-scripts/shop-scripts.server.ts).
// - extensions/wishlist/assets/ (committed: the Shopify CLI deploys them to
//   Shopify's CDN, the app embed loads them with `asset_url`). Nothing
//   substitutes the placeholders there: the scripts see them intact and read
//   data-wish-app-url / data-wish-anon-key from their tag (app/sdk/common.ts).
//
// Part of `npm run build`. `node app/sdk/build.mjs --check` builds in memory
// and exits 1 when the committed extension copies differ from the build
// (tests/shopify/theme-extension.test.ts does the same through buildScripts()).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(import.meta.dirname, "../..");
const out = path.join(root, "build/sdk");
/** Where the theme app extension's copies live (committed). */
export const EXTENSION_ASSETS = path.join(root, "extensions/wishlist/assets");
export const NAMES = ["widget", "basket-integration"];

/**
 * Builds every script in memory.
 * @returns {Promise<Record<string, Buffer>>} {name: code}
 */
export async function buildScripts() {
  /** @type {Record<string, Buffer>} */
  const scripts = {};
  for (const name of NAMES) {
    const result = await build({
      entryPoints: [path.join(root, `app/sdk/${name}.ts`)],
      bundle: true,
      format: "iife",
      target: "es2020",
      minify: true,
      write: false,
      legalComments: "none",
      logLevel: "warning",
    });
    scripts[name] = Buffer.from(result.outputFiles[0].contents);
  }
  return scripts;
}

/**
 * Names of the extension copies that differ from `scripts` (or are missing).
 * @param {Record<string, Buffer>} scripts
 * @returns {string[]}
 */
export function staleExtensionAssets(scripts) {
  return Object.entries(scripts)
    .filter(([name, code]) => {
      try {
        return !readFileSync(path.join(EXTENSION_ASSETS, `${name}.js`)).equals(code);
      } catch {
        return true;
      }
    })
    .map(([name]) => `${name}.js`);
}

async function main() {
  const scripts = await buildScripts();
  if (process.argv.includes("--check")) {
    const stale = staleExtensionAssets(scripts);
    if (stale.length) {
      console.error(`extensions/wishlist/assets: ${stale.join(", ")} differ from a fresh build; run npm run build and commit them`);
      process.exit(1);
    }
    return;
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const manifest = {};
  for (const [name, code] of Object.entries(scripts)) {
    const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
    writeFileSync(path.join(out, `${name}.js`), code);
    writeFileSync(path.join(out, `${name}.${hash}.js`), code);
    // Written only when it changed: CI runs theme-check on the extension while this build runs.
    if (staleExtensionAssets({ [name]: code }).length) writeFileSync(path.join(EXTENSION_ASSETS, `${name}.js`), code);
    manifest[name] = `${name}.${hash}.js`;
  }
  writeFileSync(path.join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
