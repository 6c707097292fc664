#!/usr/bin/env node
// `npm start`: runs the compiled server (build/node/server.mjs, made by
// `npm run build`); cluster workers re-run this file.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const compiled = path.resolve(import.meta.dirname, "../../build/node/server.mjs");
if (!existsSync(compiled)) {
  process.stderr.write(JSON.stringify({ error: "not_built", message: "The server is not built yet: run `npm run build` first" }) + "\n");
  process.exit(1);
}
const { runServer } = await import(pathToFileURL(compiled).href);
runServer();
