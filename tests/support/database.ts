// Test databases. The suite runs against the database kind named by
// DATABASE_URL (SQLite when unset). A base database is migrated once per run;
// every server a test starts gets its own copy (file copy on SQLite,
// CREATE DATABASE … TEMPLATE on PostgreSQL).
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrate } from "../../app/db/migrate.server.ts";

export const kind: "sqlite" | "postgresql" = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? "")
  ? "postgresql"
  : "sqlite";

const runId = process.env.WISH_TEST_RUN_ID ?? randomBytes(4).toString("hex");
const tmpRoot = process.env.WISH_TEST_TMP ?? mkdtempSync(path.join(tmpdir(), "wish-test-"));

function postgresUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const baseName = `wish_t_${runId}_base`;
const baseSqlite = path.join(tmpRoot, "base.db");

/** Creates and migrates the base database (global setup, once per run). */
export async function createBaseDatabase(): Promise<void> {
  if (kind === "sqlite") {
    mkdirSync(tmpRoot, { recursive: true });
    await migrate(`file:${baseSqlite}`);
    return;
  }
  await withAdmin((c) => c.query(`CREATE DATABASE "${baseName}"`));
  await migrate(postgresUrl(baseName));
}

/** A fresh, migrated database of the run's kind. */
export async function freshDatabaseUrl(): Promise<string> {
  const name = `wish_t_${runId}_${randomBytes(4).toString("hex")}`;
  if (kind === "sqlite") {
    const file = path.join(tmpRoot, `${name}.db`);
    copyFileSync(baseSqlite, file);
    return `file:${file}`;
  }
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${baseName}"`));
  return postgresUrl(name);
}

/** Drops every database this run created (global teardown). */
export async function dropRunDatabases(): Promise<void> {
  if (kind !== "postgresql") return;
  await withAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`wish_t_${runId}_%`],
    );
    // The template last: copies depend on nothing, but the base must be unused.
    for (const { datname } of rows.sort((a) => (a.datname === baseName ? 1 : -1))) {
      await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
}

export const testTmpDir = tmpRoot;
export const testRunId = runId;
