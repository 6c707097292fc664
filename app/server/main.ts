// Production server: validates configuration, applies migrations, then
// serves the built Remix app (API, pages, static assets) with one log line
// per request.
import path from "node:path";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";

const root = path.resolve(import.meta.dirname, "../..");

async function main() {
  let env;
  try {
    ({ env } = await import("~/env.server"));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const { log, errorFields } = await import("~/lib/log.server");
  const { migrate } = await import("~/db/migrate.server");

  const result = await migrate(env.DATABASE_URL);
  log.info("migrations applied", { applied: result.applied, total: result.total });

  const buildFile = path.join(root, "build/server/index.js");
  if (!existsSync(buildFile)) {
    log.error("no build found: run `npm run build` first", { expected: buildFile });
    process.exit(1);
  }
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  const jobs = build.entry.module as unknown as {
    startBackgroundJobs: () => void;
    stopBackgroundJobs: () => Promise<void>;
  };
  jobs.startBackgroundJobs();

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      log.info("request", {
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    next();
  });
  app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(root, "build/client"), { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build, mode: "production" }));
  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    void _next;
    log.error("unhandled error", { method: req.method, path: req.path, ...errorFields(err) });
    if (!res.headersSent) res.status(500).json({ error: "Internal server error" });
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    log.info("listening", { host: env.HOST, port, app_url: env.APP_URL, database: env.DATABASE_URL.split(":")[0] });
  });
  server.keepAliveTimeout = 65_000;
  const shutdown = () => {
    log.info("shutting down");
    server.close();
    jobs
      .stopBackgroundJobs()
      .catch((err) => log.error("background jobs did not stop cleanly", errorFields(err)))
      .finally(() => process.exit(0));
    // Longer than the slowest in-flight delivery (webhook timeout 10 s), so shutdown rarely cuts one off.
    setTimeout(() => process.exit(0), 12_000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((err) => {
  console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", msg: "startup failed", error: err?.message, stack: err?.stack }));
  process.exit(1);
});
