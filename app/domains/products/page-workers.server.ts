// The worker threads that read fetched pages of untrusted HTML: product pages
// for the scraper (page-extract.server.ts) and retailers' list pages for list
// imports (imports/list-page.ts). One pool and one time budget
// (SCRAPE_WORKERS, SCRAPE_TIMEOUT_MS) for both, so neither kind of page can
// stall the request thread or take more cores than the scraper may.
import os from "node:os";
import { env } from "~/env.server";
import { WorkerPool, workerEntry } from "~/lib/worker-pool.server";

/** A task of page-worker.mjs: which reader, and its input. */
export interface PageTask {
  kind: "product" | "list";
  input: unknown;
}

let pool: WorkerPool<PageTask, unknown> | undefined;

/** The shared pool; tasks over SCRAPE_TIMEOUT_MS fail with WorkerPoolError `timeout`, a full queue with `busy`. */
export function pageWorkers(): WorkerPool<PageTask, unknown> {
  return (pool ??= new WorkerPool(workerEntry(import.meta.url, "app/domains/products/page-worker.mjs"), {
    size: env.SCRAPE_WORKERS ?? Math.min(4, Math.max(1, os.availableParallelism() - 1)),
    taskTimeoutMs: env.SCRAPE_TIMEOUT_MS,
    maxQueue: 100,
    queueTimeoutMs: 15_000,
    // A page that makes a worker run out of memory ends that worker, not the server.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  }));
}
