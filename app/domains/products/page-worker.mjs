// Entry of a scrape worker thread (WorkerPool in app/lib/worker-pool.server.ts,
// pool in page-workers.server.ts): reads product pages and retailers' list
// pages off the request thread. Plain JavaScript so that the file exists
// as-is at run time beside the built server; it loads the TypeScript readers
// through tsx, as start.mjs does.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { extractProduct } = await import("./page-extract.server.ts");
const { readListPage } = await import("../imports/list-page.ts");
const readers = { product: extractProduct, list: readListPage };

parentPort.on("message", ({ kind, input }) => {
  let reply;
  try {
    const read = readers[kind];
    if (!read) throw new Error(`No reader for ${kind}`);
    reply = { ok: true, result: read(input) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(reply);
});
parentPort.postMessage({ ready: true });
