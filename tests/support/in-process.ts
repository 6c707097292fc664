// The in-process tier: the app's API loaded into the test worker itself, with
// its own database copy and configuration, answering Web Requests through the
// API's route table (app/api/dispatch.ts, the route `remix vite:dev` serves
// /api/v1 with) — no socket, no child process. For files that start a server
// only for a configuration or a database of their own and talk to /api/v1
// only; what it does not cover (the node:http server around the API, pages,
// several processes) is in tests/README.md.
//
// `startInProcess()` returns what `startServer()` returns as far as such files
// use it (url, baseUrl, databaseUrl, output, stop), and `apiFor()` gives the
// same Api client for either. One app per test file: the configuration is
// read once, when the app's modules are first imported, so no app module may
// be imported before it (vitest runs each file in a fresh module registry).
import path from "node:path";
import { freshDatabaseUrl, testTmpDir } from "./database.ts";
import { freePort } from "./net.ts";
import { checkUndocumented } from "./server.ts";

export interface InProcessServer {
  /** APP_URL the app believes it is served at (nothing listens there). */
  url: string;
  /** {base_url}: APP_URL/api/v1. */
  baseUrl: string;
  databaseUrl: string;
  /** The anon key, read from the app itself. */
  anonKey: string;
  /** Everything the app logged so far (JSON lines, as a server would print them). */
  output: () => string;
  /** Answers a request under /api/v1 the way the server's API would; `fetch`'s signature. */
  fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
  /** Stops the app's background jobs, closes its database and fails on undocumented answers. */
  stop: () => Promise<void>;
}

let started = false;

/** Loads the app into this worker with `extraEnv` over the test server's configuration, on a fresh database copy. */
export async function startInProcess(extraEnv: Record<string, string> = {}): Promise<InProcessServer> {
  if (started) throw new Error("one in-process app per test file: its configuration is read once");
  started = true;
  const databaseUrl = extraEnv.DATABASE_URL ?? (await freshDatabaseUrl());
  const url = `http://127.0.0.1:${await freePort()}`;
  // The configuration startServer gives a server process (tests/support/server.ts).
  const config: Record<string, string> = {
    NODE_ENV: "production",
    APP_URL: url,
    LOG_LEVEL: "info",
    CHECK_RESPONSES: "1",
    WEB_CONCURRENCY: "1",
    DATA_DIR: path.join(testTmpDir, "data"),
    ...extraEnv,
    DATABASE_URL: databaseUrl,
  };
  const saved = Object.fromEntries(Object.keys(config).map((name) => [name, process.env[name]]));
  Object.assign(process.env, config);

  // The app's log lines are its output, kept for assertions as a server's stdout would be.
  let output = "";
  const writes = { out: process.stdout.write, err: process.stderr.write };
  const capture = (original: typeof process.stdout.write) =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      if (typeof chunk === "string" && chunk.startsWith('{"time"')) {
        output += chunk;
        const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        done?.();
        return true;
      }
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
  process.stdout.write = capture(writes.out);
  process.stderr.write = capture(writes.err);

  const { env } = await import("~/env.server");
  if (env.DATABASE_URL !== databaseUrl) {
    throw new Error("an app module was imported before startInProcess: import app modules inside tests, after it");
  }
  const { log, errorFields } = await import("~/lib/log.server");
  const { loader } = await import("~/api/dispatch");
  const { startBackgroundJobs, stopBackgroundJobs } = await import("~/background.server");
  const { closeDatabase } = await import("~/db.server");
  const { getAnonKey } = await import("~/domains/secrets/secrets.server");
  // What the server process runs beside requests (revocation polls, counter flushes, the outbox).
  startBackgroundJobs();

  const API_V1 = /^\/api\/v1(\/|$)/;
  const fetchApi = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    // The headers fetch sends on the wire that a Request does not carry: a body of known length announces it.
    const length = byteLength(init?.body);
    const wire: Record<string, string> = { "user-agent": "node", accept: "*/*", ...(length === null ? {} : { "content-length": String(length) }) };
    const request = new Request(input, { ...init, headers: { ...wire, ...headersOf(init?.headers) } });
    const { pathname } = new URL(request.url);
    if (!API_V1.test(pathname)) throw new Error(`the in-process tier answers /api/v1 only, not ${pathname}: use startServer`);
    const begun = process.hrtime.bigint();
    let response: Response;
    try {
      // The client's address as the server resolves a local connection's peer.
      response = await loader({ request, context: { clientAddress: "127.0.0.1" }, params: {} });
    } catch (err) {
      // What app/server/main.ts answers when a handler throws past the error renderer.
      log.error("unhandled error", { method: request.method, path: pathname, ...errorFields(err) });
      response = new Response(JSON.stringify({ error: "Internal server error" }), {
        status: 500,
        headers: { "content-type": "application/json; charset=utf-8" },
      });
    }
    // The server's request line (tests/support/explain.ts reads statements up to it).
    const ms = Number((process.hrtime.bigint() - begun) / 1000n) / 1000;
    log.info("request", { method: request.method, path: pathname, status: response.status, ms });
    // node:http sends no body with HEAD.
    return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
  };

  return {
    url,
    baseUrl: `${url}/api/v1`,
    databaseUrl,
    anonKey: await getAnonKey(),
    output: () => output,
    fetch: fetchApi,
    stop: async () => {
      await stopBackgroundJobs();
      await closeDatabase();
      process.stdout.write = writes.out;
      process.stderr.write = writes.err;
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      checkUndocumented(output);
    },
  };
}

function headersOf(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

/** A body's length as fetch would announce it in Content-Length; null for none, or a stream. */
function byteLength(body: BodyInit | null | undefined): number | null {
  if (typeof body === "string") return Buffer.byteLength(body);
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  if (body instanceof Blob) return body.size;
  if (body instanceof URLSearchParams) return Buffer.byteLength(body.toString());
  return null;
}
