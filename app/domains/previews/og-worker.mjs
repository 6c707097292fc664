// Entry of a preview-rendering worker thread (WorkerPool in
// app/lib/worker-pool.server.ts): satori layout and resvg rasterising take
// about 100 ms of CPU per image, which must not run on the request thread.
// Plain JavaScript so that it exists as-is beside the built server; it loads
// the TypeScript renderer through tsx, as page-worker.mjs does.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { renderOgCard } = await import("./og-render.ts");

parentPort.on("message", async (input) => {
  let reply;
  try {
    reply = { ok: true, result: await renderOgCard(input) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(reply);
});
parentPort.postMessage({ ready: true });
