// Applies the SQL migrations in prisma/ (one folder per provider) in order,
// each in its own transaction, and records them in Prisma's
// `_prisma_migrations` table with Prisma's checksum, so that a standard
// `prisma migrate deploy` (native engine) sees the same history.
// Several app instances may start at once: PostgreSQL takes an advisory
// lock, SQLite an immediate write transaction.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { parseDatabaseUrl } from "./url.ts";

const prismaDir = path.resolve(import.meta.dirname, "../../prisma");

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

function loadMigrations(dir: string): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export interface MigrationResult {
  applied: string[];
  total: number;
}

export async function migrate(databaseUrl: string): Promise<MigrationResult> {
  const target = parseDatabaseUrl(databaseUrl);
  return target.kind === "sqlite" ? migrateSqlite(target.file) : migratePostgres(target.url);
}

function migrateSqlite(file: string): MigrationResult {
  mkdirSync(path.dirname(file), { recursive: true });
  const migrations = loadMigrations(path.join(prismaDir, "migrations"));
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
    const applied: string[] = [];
    const isApplied = db.prepare(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const record = db.prepare(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
       VALUES (?, ?, ?, ?, ?, 1)`,
    );
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

// Any constant works; it only has to be the same for every instance.
const ADVISORY_LOCK_ID = 7_406_201_001;

async function migratePostgres(url: string): Promise<MigrationResult> {
  const migrations = loadMigrations(path.join(prismaDir, "postgresql/migrations"));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const appliedNames = new Set(done.rows.map((r) => r.migration_name));
    const applied: string[] = [];
    for (const m of migrations) {
      if (appliedNames.has(m.name)) continue;
      await client.query("BEGIN");
      try {
        const startedAt = new Date();
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), m.checksum, m.name, startedAt],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
    return { applied, total: migrations.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]).catch(() => {});
    await client.end();
  }
}
