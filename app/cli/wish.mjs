#!/usr/bin/env node
// `npx wish …`: runs the compiled operator CLI (build/cli/wish.mjs, made by `npm run build`).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const compiled = path.resolve(import.meta.dirname, "../../build/cli/wish.mjs");
if (!existsSync(compiled)) {
  process.stderr.write(JSON.stringify({ error: "not_built", message: "The CLI is not built yet: run `npm run build` first" }) + "\n");
  process.exit(1);
}
await import(pathToFileURL(compiled).href);
