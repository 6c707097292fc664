// Once per test run: check the build, migrate the base database, start the
// shared server that most test files talk to.
import { existsSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createBaseDatabase, dropRunDatabases, kind, testRunId, testTmpDir } from "./database.ts";
import { anonKeyOf } from "./cli.ts";
import { root, startServer, type TestServer } from "./server.ts";

let server: TestServer | undefined;

export async function setup(project: TestProject) {
  if (!existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("No build: `npm test` builds first; run `npm run build` before calling vitest directly.");
  }
  // Workers inherit these, so they derive the same database names.
  process.env.WISH_TEST_RUN_ID = testRunId;
  process.env.WISH_TEST_TMP = testTmpDir;
  await createBaseDatabase();
  server = await startServer();
  project.provide("server", { url: server.url, baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, anonKey: await anonKeyOf(server) });
  console.log(`tests run on ${kind} (${server.databaseUrl.split("?")[0]})`);
}

export async function teardown() {
  await server?.stop();
  await dropRunDatabases();
}

declare module "vitest" {
  export interface ProvidedContext {
    server: { url: string; baseUrl: string; databaseUrl: string; anonKey: string };
  }
}
