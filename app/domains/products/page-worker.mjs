// Entry of a scrape worker thread (WorkerPool in app/lib/worker-pool.server.ts):
// reads product facts from fetched pages off the request thread. Plain
// JavaScript so that the file exists as-is at run time beside the built
// server; it loads the TypeScript extractor through tsx, as start.mjs does.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { extractProduct } = await import("./page-extract.server.ts");

parentPort.on("message", (input) => {
  let reply;
  try {
    reply = { ok: true, result: extractProduct(input) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(reply);
});
parentPort.postMessage({ ready: true });
