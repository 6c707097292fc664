// Applies the SQL migrations in prisma/ (one folder per provider) in order,
// each in its own transaction, and records them in Prisma's
// `_prisma_migrations` table with Prisma's checksum, so that a standard
// `prisma migrate deploy` (native engine) sees the same history.
// Several app instances may start at once: PostgreSQL takes an advisory
// lock, SQLite an immediate write transaction.
//
// Rolling deploys (docs/operations.md, "Upgrades and rolling deploys"):
// - an applied migration whose file has changed stops the start: the history
//   the database went through is no longer the one in the repository;
// - applied migrations this build does not know (a newer build ran them) are
//   tolerated, so an old instance can still restart mid-deploy;
// - on PostgreSQL a migration of `CREATE INDEX CONCURRENTLY` statements (as
//   `npm run db:migration:new` writes them) runs outside a transaction, one
//   statement at a time, so writers are not blocked while the index builds.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { postgreSplitterOptions, splitQuery } from "dbgate-query-splitter";
import pg from "pg";
import { parseDatabaseUrl } from "./url.ts";

const prismaDir = path.resolve(import.meta.dirname, "../../prisma");

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export type MigrationErrorCode = "migration_changed" | "migration_failed" | "database_unusable";

/** Why the database could not be brought to this build's schema; `code` is what the CLI and the start log print. */
export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function loadMigrations(dir: string): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: sha256(sql) };
    });
}

/**
 * Whether `checksum` (recorded when the migration was applied) is that of this
 * file. Like Prisma, a file whose line endings alone changed (a checkout on
 * another OS) still matches.
 */
function matchesChecksum(m: Migration, checksum: string): boolean {
  if (checksum === m.checksum) return true;
  const lf = m.sql.replace(/\r\n/g, "\n");
  return checksum === sha256(lf) || checksum === sha256(lf.replace(/\n/g, "\r\n"));
}

/** Throws if an applied migration's file is not what was applied. */
function verifyApplied(migrations: Migration[], applied: Map<string, string[]>): void {
  for (const m of migrations) {
    const checksums = applied.get(m.name);
    if (!checksums || checksums.some((c) => matchesChecksum(m, c))) continue;
    throw new MigrationError(
      "migration_changed",
      `Migration ${m.name} was changed after it was applied to this database (its checksum differs from the one in _prisma_migrations). ` +
        `Restore the file as it was applied and put the change in a new migration.`,
    );
  }
}

export interface MigrationResult {
  applied: string[];
  total: number;
}

export interface MigrateOptions {
  /** Folder of `<name>/migration.sql` to apply instead of the provider's folder in prisma/. */
  migrationsDir?: string;
}

export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrationResult> {
  const target = parseDatabaseUrl(databaseUrl);
  return target.kind === "sqlite"
    ? migrateSqlite(target.file, options.migrationsDir ?? path.join(prismaDir, "migrations"))
    : migratePostgres(target.url, options.migrationsDir ?? path.join(prismaDir, "postgresql/migrations"));
}

// SQLite's refusals of the file itself, which name neither the file nor what to check.
const UNUSABLE_FILE: Record<string, string> = {
  SQLITE_CANTOPEN: "it cannot be opened or created: does its directory exist, and may this process write there?",
  SQLITE_READONLY: "it is read-only: the file's or its directory's permissions, or a read-only file system",
  SQLITE_FULL: "the disk is full",
  SQLITE_IOERR: "the file system reported an I/O error",
};

/** `open` on the SQLite file at `file`; its refusals of the file become a `database_unusable` error saying which file and why. */
function unlessUnusable<T>(file: string, open: () => T): T {
  try {
    return open();
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? "");
    // Extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DIRECTORY …) by their primary code.
    const why = UNUSABLE_FILE[code.split("_").slice(0, 2).join("_")];
    if (!why) throw err;
    throw new MigrationError("database_unusable", `The SQLite database ${file} cannot be used (${code}): ${why}`);
  }
}

function migrateSqlite(file: string, dir: string): MigrationResult {
  mkdirSync(path.dirname(file), { recursive: true });
  const migrations = loadMigrations(dir);
  const db = unlessUnusable(file, () => new Database(file));
  try {
    unlessUnusable(file, () => {
      db.pragma("journal_mode = WAL");
      db.pragma("busy_timeout = 10000");
      db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
        "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
        "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
        "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
    });
    const readApplied = db.prepare<[], { migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const isApplied = db.prepare(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const record = db.prepare(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
       VALUES (?, ?, ?, ?, ?, 1)`,
    );
    verifyApplied(migrations, appliedChecksums(readApplied.all()));
    const applied: string[] = [];
    for (const m of migrations) {
      db.transaction(() => {
        if (isApplied.get(m.name)) return;
        const startedAt = Date.now();
        db.exec(m.sql);
        record.run(randomUUID(), m.checksum, Date.now(), m.name, startedAt);
        applied.push(m.name);
      }).immediate();
    }
    return { applied, total: migrations.length };
  } finally {
    db.close();
  }
}

function appliedChecksums(rows: Array<{ migration_name: string; checksum: string }>): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const r of rows) byName.set(r.migration_name, [...(byName.get(r.migration_name) ?? []), r.checksum]);
  return byName;
}

// Any constant works; it only has to be the same for every instance.
const ADVISORY_LOCK_ID = 7_406_201_001;
const LOCK_POLL_MS = 200;

const CONCURRENT_INDEX = /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?(?!ON\s)("(?:[^"]|"")+"|[\w$]+)/i;

/** The statements of a migration that must run outside a transaction, or null for an ordinary one. */
function concurrentStatements(sql: string): string[] | null {
  if (!/\bCONCURRENTLY\b/i.test(sql)) return null;
  const statements = (splitQuery(sql, postgreSplitterOptions) as string[])
    .map((s) => stripComments(s))
    .filter((s) => s.length > 0);
  return statements.some((s) => CONCURRENT_INDEX.test(s)) ? statements : null;
}

const stripComments = (statement: string) => statement.replace(/^(\s*--[^\n]*\n)+/, "").trim();

/** The index a `CREATE INDEX CONCURRENTLY` statement builds, as written (quoted or not). */
function concurrentIndexName(statement: string): string | null {
  return CONCURRENT_INDEX.exec(statement)?.[1] ?? null;
}

async function migratePostgres(url: string, dir: string): Promise<MigrationResult> {
  const migrations = loadMigrations(dir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Polled, not waited for in pg_advisory_lock(): a session blocked in that call holds a
    // snapshot, and CREATE INDEX CONCURRENTLY in the session holding the lock waits for every
    // snapshot to go: two instances starting together would deadlock.
    while (!(await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [ADVISORY_LOCK_ID])).rows[0]!.ok) {
      await sleep(LOCK_POLL_MS);
    }
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const appliedBefore = appliedChecksums(done.rows);
    verifyApplied(migrations, appliedBefore);
    const applied: string[] = [];
    for (const m of migrations) {
      if (appliedBefore.has(m.name)) continue;
      const startedAt = new Date();
      const statements = concurrentStatements(m.sql);
      const record = () =>
        client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, $4, $5)`,
          [randomUUID(), m.checksum, m.name, startedAt, statements?.length ?? 1],
        );
      try {
        if (statements) {
          await applyConcurrently(client, statements);
          await record();
        } else {
          await client.query("BEGIN");
          try {
            await client.query(m.sql);
            await record();
            await client.query("COMMIT");
          } catch (err) {
            await client.query("ROLLBACK");
            throw err;
          }
        }
      } catch (err) {
        throw new MigrationError("migration_failed", `Migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
    return { applied, total: migrations.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

/**
 * Runs the statements one at a time, each in its own implicit transaction. A
 * concurrent build that failed or was interrupted leaves its index INVALID
 * (maintained on writes, never used by reads), and `IF NOT EXISTS` would then
 * skip it: such an index is dropped first, so a retry builds it again.
 */
async function applyConcurrently(client: pg.Client, statements: string[]): Promise<void> {
  for (const statement of statements) {
    const index = concurrentIndexName(statement);
    if (index && (await indexValidity(client, index)) === false) {
      await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
    }
    try {
      await client.query(statement);
    } catch (err) {
      const left = index && (await indexValidity(client, index)) === false;
      throw new Error(
        `${(err as Error).message}${left ? ` (index ${index} is left INVALID; it is dropped and built again on the next start)` : ""}`,
      );
    }
    if (index && (await indexValidity(client, index)) !== true) {
      throw new Error(`index ${index} is not valid after CREATE INDEX CONCURRENTLY; it is dropped and built again on the next start`);
    }
  }
}

/** true/false for a valid/INVALID index of that name (resolved by search_path), null when there is none. */
async function indexValidity(client: pg.Client, index: string): Promise<boolean | null> {
  const { rows } = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`,
    [index],
  );
  return rows[0]?.valid ?? null;
}
