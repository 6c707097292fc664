// Production server (one per worker process: app/server/cluster.ts validates
// the configuration, applies migrations and starts the workers): serves the
// built app with one log line per request: static files from memory
// (static-files.ts), /api/v1 straight into the API's route table on
// node:http (handleApiRequest of the server build), the SDK scripts and the
// share pages /{de,en}/list/{token} from the server build too, everything
// else through express into Remix. Outside /api/v1 a body is read here first,
// up to its path's cap (request-limits.ts), so no route can forget one.
import path from "node:path";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { clientAddressOf, splitTarget, type TrustFunction } from "./client-address";
import { JOBS_STOP_MS, reportListening } from "./worker-report";
import { connections } from "./connections";
import { bodyLimitFor, capConnectionsPerClient, hasBody, lingerThenClose, readBoundedBody, timeoutCheckInterval, TOO_LARGE, withBody } from "./request-limits";
import { loadShedding } from "./load-shedding";
import { staticFiles } from "./static-files";

const root = path.resolve(import.meta.dirname, "../..");
const API_V1 = /^\/api\/v1(\/|$)/;
const API = /^\/api(\/|$)/;
/** Shopify's app proxy forwards `https://<shop>/apps/wishlist/…` here (shopify.app.toml `[app_proxy]`). */
const APP_PROXY = /^\/proxy(\/|$)/;
/** Answered however busy the process is: it reports how busy. */
const HEALTH = /^\/api\/v1\/health\/?$/;

/** Serves in this process; cluster.ts has validated the configuration and applied migrations. */
export async function startWorker() {
  const { env } = await import("~/env.server");
  const { log, errorFields, flushLogs, nonBlockingStdout } = await import("~/lib/log.server");
  nonBlockingStdout();
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
    closeDatabase: () => Promise<void>;
  };
  jobs.startBackgroundJobs();

  const { handleApiRequest, handleSdkRequest, handleSharePageRequest } = build.entry.module as unknown as {
    handleSdkRequest: (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void> | false;
    handleSharePageRequest: (
      req: IncomingMessage,
      res: ServerResponse,
      pathname: string,
      search: string,
      context: { clientAddress: string | null },
    ) => Promise<void> | false;
    handleApiRequest: (
      req: IncomingMessage,
      res: ServerResponse,
      pathname: string,
      search: string,
      context: { clientAddress: string | null },
    ) => Promise<void>;
  };

  const files = staticFiles(path.join(root, "build/client"), (pathname) => securityHeaders(pathname, { html: false }));

  /** The SPEC error body, for the few answers the HTTP server gives itself. */
  const sendError = (res: ServerResponse, pathname: string, status: number, error: string, message?: string) => {
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify(message ? { error, message } : { error });
    res.writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      ...securityHeaders(pathname, { html: false }),
    });
    res.end(body);
  };

  // Pages, the admin, /auth, webhooks, share pages, dialogs and scripts: Remix behind express.
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-For names the client only when it comes from a configured
  // proxy (TRUSTED_PROXIES); otherwise req.ip is the connection's peer.
  app.set("trust proxy", env.TRUSTED_PROXIES);
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
      return sendError(res, req.path, status, status === 404 ? "not_found" : "invalid_input", (err as Error).message);
    }
    log.error("unhandled error", { method: req.method, path: req.path, ...errorFields(err) });
    sendError(res, req.path, 500, "Internal server error");
  });
  // The same `trust proxy` rule for the API, which does not go through express.
  const trust = app.get("trust proxy fn") as TrustFunction;

  // Requests past MAX_REQUESTS_IN_FLIGHT get a 503 at once (load-shedding.ts).
  const shedding = loadShedding(env.MAX_REQUESTS_IN_FLIGHT, (pathname) => securityHeaders(pathname, { html: false }), log);

  /** Share pages on the node:http path, everything else through express into Remix. */
  const route = (req: IncomingMessage, res: ServerResponse, pathname: string, search: string) => {
    // Share pages (GET, HEAD, and the purchased toggle's POST): a string template, without express or Remix.
    const share = handleSharePageRequest(req, res, pathname, search, { clientAddress: clientAddressOf(req, trust) });
    if (share) {
      share.catch((err) => {
        log.error("unhandled error", { method: req.method, path: pathname, ...errorFields(err) });
        sendError(res, pathname, 500, "Internal server error");
      });
      return;
    }
    if (!shedding.admit(req, res, pathname)) return;
    app(req, res);
  };

  // Everything starts here: static files and /api/v1 are answered without express or Remix.
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    open.track(req, res);
    const { pathname, search } = splitTarget(req.url ?? "/");
    const method = req.method ?? "GET";
    res.on("finish", () => {
      log.info("request", {
        method,
        path: pathname,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    if (files.serve(req, res, pathname)) return;
    // No route can match these; Remix would fail on them with an empty 500.
    const unroutable = unroutablePath(pathname);
    if (unroutable) return sendError(res, pathname, 404, "not_found", unroutable);
    if (API_V1.test(pathname)) {
      if (!HEALTH.test(pathname) && !shedding.admit(req, res, pathname)) return;
      handleApiRequest(req, res, pathname, search, { clientAddress: clientAddressOf(req, trust) }).catch((err) => {
        log.error("unhandled error", { method, path: pathname, ...errorFields(err) });
        sendError(res, pathname, 500, "Internal server error");
      });
      return;
    }
    // The shop-page scripts (every shop page loads one): from memory, without Remix.
    if ((method === "GET" || method === "HEAD") && pathname.startsWith("/sdk/v1/")) {
      const sent = handleSdkRequest(req, res, pathname);
      if (sent) {
        sent.catch((err) => {
          log.error("unhandled error", { method, path: pathname, ...errorFields(err) });
          sendError(res, pathname, 500, "Internal server error");
        });
        return;
      }
    }
    // Under /api only /api/v1 exists; the rest is a JSON 404, not a page.
    if (API.test(pathname)) return sendError(res, pathname, 404, "not_found", `No route for ${pathname}`);
    // Only a proxy in TRUSTED_PROXIES may name the host: from anyone else the header is
    // dropped, so neither this check nor Remix (its CSRF check, the request URL) reads it.
    const forwardedHostTrusted = trust(req.socket.remoteAddress ?? "", 0);
    if (!forwardedHostTrusted) delete req.headers["x-forwarded-host"];
    // The API checks origins with its keys and tokens; pages get Remix's CSRF rule as a 403 instead of its empty 500.
    // App proxy requests come through Shopify from the shop's own origin and carry its signature (app/proxy).
    if (!APP_PROXY.test(pathname) && isCrossOriginPageWrite(method, req.headers as Record<string, string | undefined>, forwardedHostTrusted)) {
      return sendError(res, pathname, 403, "forbidden", "Pages accept form and data requests from this site only");
    }
    if (!hasBody(req)) return route(req, res, pathname, search);
    // Read to the path's cap before any route (webhook HMAC, form parsing) sees it; over it, 413 at once.
    const limit = bodyLimitFor(pathname, env);
    readBoundedBody(req, limit).then(
      (body) => {
        if (body !== TOO_LARGE) return route(withBody(req, body), res, pathname, search);
        sendError(res, pathname, 413, "payload_too_large", `Request body exceeds ${limit} bytes`);
        lingerThenClose(req, res);
      },
      () => res.destroy(), // the client went away mid-body
    );
  };

  // Connections refused by a cap: one warning per 10 s with the count, not one line each.
  const refusedCounts = { per_client: 0, max_connections: 0 };
  let refusedLogged = 0;
  const refused = (reason: keyof typeof refusedCounts) => {
    refusedCounts[reason]++;
    if (Date.now() - refusedLogged < 10_000) return;
    refusedLogged = Date.now();
    log.warn("connections refused", { ...refusedCounts, max_connections_per_client: env.MAX_CONNECTIONS_PER_CLIENT, max_connections: env.MAX_CONNECTIONS });
    refusedCounts.per_client = refusedCounts.max_connections = 0;
  };

  // Slow clients are cut off: headers within HTTP_HEADERS_TIMEOUT_MS, the whole request within HTTP_REQUEST_TIMEOUT_MS (408).
  const server = createServer(
    {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: timeoutCheckInterval(env.HTTP_HEADERS_TIMEOUT_MS),
    },
    handle,
  );
  const open = connections(server, env.HTTP_MAX_REQUESTS_PER_CONNECTION);
  // Node answers `Expect: 100-continue` itself unless asked; asked, a declared body over its path's cap
  // is refused before the client sends it (it waits for the 100 that never comes), so the connection closes after the 413.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = splitTarget(req.url ?? "/");
    if (!API_V1.test(pathname) && Number(req.headers["content-length"]) > bodyLimitFor(pathname, env)) res.setHeader("connection", "close");
    else res.writeContinue();
    handle(req, res);
  });
  capConnectionsPerClient(server, env.MAX_CONNECTIONS_PER_CLIENT, (address) => trust(address, 0), () => refused("per_client"));
  server.maxConnections = env.MAX_CONNECTIONS;
  server.on("drop", () => refused("max_connections"));
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    reportListening({ host: env.HOST, port, app_url: env.APP_URL, database: env.DATABASE_URL.split(":")[0]! }, log);
  });
  // Requests first (they may still count, save and enqueue), then the jobs (the last request counts are
  // written), then the database. A signal from the terminal reaches a worker twice (directly and from the primary).
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal, in_flight: open.inFlight, grace_ms: env.SHUTDOWN_GRACE_MS });
    setTimeout(() => {
      log.error("shutdown did not finish in time", { limit_ms: env.SHUTDOWN_GRACE_MS + JOBS_STOP_MS });
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS + JOBS_STOP_MS).unref();
    const drained = await open.drain(env.SHUTDOWN_GRACE_MS);
    if (drained.cut > 0) log.warn("requests drained", { ...drained, grace_ms: env.SHUTDOWN_GRACE_MS });
    else log.info("requests drained", { ...drained });
    await jobs.stopBackgroundJobs().catch((err) => log.error("background jobs did not stop cleanly", errorFields(err)));
    await jobs.closeDatabase().catch((err) => log.error("database did not close cleanly", errorFields(err)));
    await flushLogs();
    process.exit(0);
  };
  process.on("SIGTERM", (signal) => void shutdown(signal));
  process.on("SIGINT", (signal) => void shutdown(signal));
}
