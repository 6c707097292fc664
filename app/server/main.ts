// Production server: serves the built Remix app (API, pages, static assets)
// with one log line per request. app/server/cluster.ts validates the
// configuration, applies migrations and runs this in each worker process.
import path from "node:path";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { reportListening } from "./cluster.ts";

const root = path.resolve(import.meta.dirname, "../..");

export async function startWorker() {
  let env;
  try {
    ({ env } = await import("~/env.server"));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const { log, errorFields } = await import("~/lib/log.server");
  const { securityHeaders } = await import("~/lib/http/security-headers");
  const { isCrossOriginPageWrite, unroutablePath } = await import("~/lib/http/page-guard");

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
  // X-Forwarded-For names the client only when it comes from a configured
  // proxy (TRUSTED_PROXIES); otherwise req.ip is the connection's peer.
  app.set("trust proxy", env.TRUSTED_PROXIES);
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
  const withSecurityHeaders = (res: express.Response, pathname: string, html = false) => {
    for (const [name, value] of Object.entries(securityHeaders(pathname, { html }))) res.setHeader(name, value);
  };
  /** The SPEC error body, for the few answers the HTTP server gives itself. */
  const sendError = (req: express.Request, res: express.Response, status: number, error: string, message?: string) => {
    withSecurityHeaders(res, req.path);
    res.status(status).json(message ? { error, message } : { error });
  };
  const staticHeaders = { setHeaders: (res: express.Response) => withSecurityHeaders(res, res.req.path) };
  app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y", ...staticHeaders }));
  app.use(express.static(path.join(root, "build/client"), { maxAge: "1h", ...staticHeaders }));
  app.use((req, res, next) => {
    // No route can match these; Remix would fail on them with an empty 500.
    const unroutable = unroutablePath(req.path);
    if (unroutable) return sendError(req, res, 404, "not_found", unroutable);
    // Under /api only /api/v1 exists (the API's resource route); the rest is a JSON 404, not a page.
    if (/^\/api(\/|$)/.test(req.path) && !/^\/api\/v1(\/|$)/.test(req.path)) {
      return sendError(req, res, 404, "not_found", `No route for ${req.path}`);
    }
    // The API checks origins with its keys and tokens; pages get Remix's CSRF rule as a 403 instead of its empty 500.
    const api = /^\/api\/v1(\/|$)/.test(req.path);
    if (!api && isCrossOriginPageWrite(req.method, req.headers as Record<string, string | undefined>)) {
      return sendError(req, res, 403, "forbidden", "Pages accept form and data requests from this site only");
    }
    next();
  });
  // app.use, not app.all("*"): Express would percent-decode the path for "*" and fail on `%ff` with a 500.
  app.use(
    createRequestHandler({
      build,
      mode: "production",
      // The client's address as `trust proxy` resolves it (see clientAddress in app/lib/api).
      getLoadContext: (req) => ({ clientAddress: req.ip ?? req.socket.remoteAddress ?? null }),
    }),
  );
  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    void _next;
    if (res.headersSent) return;
    // Express's own client errors (status 4xx on the error) stay 4xx.
    const status = (err as { status?: unknown })?.status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return sendError(req, res, status, status === 404 ? "not_found" : "invalid_input", (err as Error).message);
    }
    log.error("unhandled error", { method: req.method, path: req.path, ...errorFields(err) });
    sendError(req, res, 500, "Internal server error");
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    reportListening({ host: env.HOST, port, app_url: env.APP_URL, database: env.DATABASE_URL.split(":")[0]! }, log);
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
