// Once per test run: check the build, migrate the base database, start the two
// shared servers that most test files talk to: the standard one, and one with the
// Shopify app's keys (shared-shopify.ts). Each writes its log to a file in the run's
// directory as well, where a test reads it (`output()` of sharedApi / sharedShopifyApi).
import { existsSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createBaseDatabase, dropRunDatabases, kind, testRunId, testTmpDir } from "./database.ts";
import { anonKeyOf } from "./cli.ts";
import { root, startServer, type TestServer } from "./server.ts";
import { sharedShopifyEnv } from "./shared-shopify.ts";

let servers: TestServer[] = [];

export async function setup(project: TestProject) {
  if (!existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("No build: `npm test` builds first; run `npm run build` before calling vitest directly.");
  }
  // Workers inherit these, so they derive the same database names.
  process.env.WISH_TEST_RUN_ID = testRunId;
  process.env.WISH_TEST_TMP = testTmpDir;
  await createBaseDatabase();
  const logFile = (name: string) => path.join(testTmpDir, `${name}.log`);
  const [server, shopifyServer] = (servers = await Promise.all([
    startServer({}, { logFile: logFile("server") }),
    startServer(sharedShopifyEnv, { logFile: logFile("shopify-server") }),
  ]));
  const provided = async (s: TestServer, name: string) => ({
    url: s.url,
    baseUrl: s.baseUrl,
    databaseUrl: s.databaseUrl,
    anonKey: await anonKeyOf(s),
    logFile: logFile(name),
  });
  project.provide("server", await provided(server!, "server"));
  project.provide("shopifyServer", await provided(shopifyServer!, "shopify-server"));
  console.log(`tests run on ${kind} (${server!.databaseUrl.split("?")[0]})`);
}

export async function teardown() {
  // stop() fails the run with any undocumented error code, status or body either server gave.
  const stopped = await Promise.allSettled(servers.map((s) => s.stop()));
  await dropRunDatabases();
  for (const result of stopped) if (result.status === "rejected") throw result.reason;
}

export interface SharedServer {
  url: string;
  baseUrl: string;
  databaseUrl: string;
  anonKey: string;
  /** Where the server's log is appended as it writes it. */
  logFile: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The standard shared server. */
    server: SharedServer;
    /** The shared server with the Shopify app's keys (SHARED_SHOPIFY). */
    shopifyServer: SharedServer;
  }
}
