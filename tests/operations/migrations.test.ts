// Upgrades without downtime. Applied migrations are checked against their
// files: a changed one stops the server and `wish` (both databases). On
// PostgreSQL a new index is built with CREATE INDEX CONCURRENTLY outside a
// transaction (as `npm run db:migration:new` writes it), so writes of the
// instances still running are not blocked; a build that failed leaves an
// INVALID index, which is reported and rebuilt on the next start.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../app/db/migrate.server.ts";
import { separateConcurrentIndexes } from "../../prisma/tools/concurrent-indexes.ts";
import { wishRaw } from "../support/api.ts";
import { freshDatabaseUrl, kind } from "../support/database.ts";
import { root, startServer, type TestServer } from "../support/server.ts";
import { sql } from "../support/sql.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const migrationsDir = path.join(root, kind === "sqlite" ? "prisma/migrations" : "prisma/postgresql/migrations");
/** Any migration every database has applied. */
const applied = "20261121143028_product_current_price";
const appliedFile = readFileSync(path.join(migrationsDir, applied, "migration.sql"), "utf8");

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** Starts the built server on `url`; the error's text (with the server's output) when it exits instead. */
async function startFailure(url: string): Promise<string | null> {
  return startServer({ DATABASE_URL: url }).then(
    (server) => (servers.push(server), null),
    (err: Error) => err.message,
  );
}

async function wishConfig(url: string) {
  const { code, stdout, stderr } = await wishRaw(url, ["config"]);
  const lines = stderr.trim().split("\n").filter(Boolean);
  return { code, stdout, error: lines.length ? (JSON.parse(lines.at(-1)!) as { error: string; message: string }) : null };
}

const setChecksum = (url: string, checksum: string) =>
  sql(url, `UPDATE "_prisma_migrations" SET checksum = ? WHERE migration_name = ?`, [checksum, applied]);

describe("a SQLite file that cannot be used", () => {
  it("stops the start with database_unusable, naming the file and what to check; wish names it too", async () => {
    // /proc takes no new files, whoever runs the test (root included).
    const url = "file:/proc/wish-cannot-be-here.db";
    const failure = await startFailure(url);
    const startLog = JSON.parse(failure!.split("\n").find((l) => l.includes('"startup failed"'))!);
    expect(startLog).toMatchObject({ level: "error", code: "database_unusable" });
    expect(startLog.error).toContain("/proc/wish-cannot-be-here.db");
    expect(startLog.error).toMatch(/cannot be opened or created/);
    // The CLI opens no file it did not create (`wish init` does): it says the database is not there.
    const cli = await wishConfig(url);
    expect(cli).toMatchObject({ code: 1, error: { error: "database_not_found" } });
    expect(cli.error!.message).toContain("/proc/wish-cannot-be-here.db");
  });
});

describe(`applied migrations are checked against their files (${kind})`, () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabaseUrl();
  });

  it("a migration changed after it was applied: the server refuses to start and wish exits 1 with migration_changed", async () => {
    // As if the file had read differently when this database applied it.
    await setChecksum(url, sha256(`${appliedFile}-- edited after it was applied\n`));

    const failure = await startFailure(url);
    expect(failure).toMatch(/server exited with 1/);
    const startLog = JSON.parse(failure!.split("\n").find((l) => l.includes('"startup failed"'))!);
    expect(startLog).toMatchObject({ level: "error", code: "migration_changed" });
    expect(startLog.error).toContain(applied);

    const cli = await wishConfig(url);
    expect(cli).toMatchObject({ code: 1, stdout: "", error: { error: "migration_changed" } });
    expect(cli.error!.message).toContain(applied);
    expect(cli.error!.message).toMatch(/changed after it was applied/);

    // The checksum of the file as it is: both start again.
    await setChecksum(url, sha256(appliedFile));
    expect((await wishConfig(url)).code).toBe(0);
    expect(await startFailure(url)).toBeNull();
  }, 90_000);

  it("a file whose line endings alone changed (a checkout on another OS) still matches, as with Prisma", async () => {
    await setChecksum(url, sha256(appliedFile.replace(/\n/g, "\r\n")));
    expect(await wishConfig(url)).toMatchObject({ code: 0, error: null });
    await setChecksum(url, sha256(appliedFile));
  });

  it("an old build tolerates migrations a newer build applied, and applies nothing again", async () => {
    await sql(
      url,
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ${kind === "sqlite" ? "1" : "now()"}, ?, ${kind === "sqlite" ? "1" : "now()"}, 1)`,
      ["0b1d7a6e-0000-4000-8000-000000000001", sha256("from a newer build"), "29991231235959_from_a_newer_build"],
    );
    const count = async () => Number((await sql<{ n: number }>(url, `SELECT COUNT(*) AS n FROM "_prisma_migrations"`))[0]!.n);
    const before = await count();
    expect(await wishConfig(url)).toMatchObject({ code: 0, error: null });
    expect(await count()).toBe(before);
  });
});

// Index builds that do not block writers exist on PostgreSQL only (SQLite has one writer and one machine).
if (kind === "postgresql") {
  describe("new indexes on PostgreSQL are built concurrently", () => {
    const clients: pg.Client[] = [];
    const connect = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      return client;
    };
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
    });

    /** A fresh database with a table the instances of the old build keep writing to. */
    async function probeDatabase(ranks: number[]) {
      const url = await freshDatabaseUrl();
      await sql(url, `CREATE TABLE "MigrationProbe" ("id" SERIAL PRIMARY KEY, "rank" INTEGER NOT NULL)`);
      await sql(url, `INSERT INTO "MigrationProbe" ("rank") SELECT unnest(?::int[])`, [ranks]);
      return url;
    }

    /** The migrations `npm run db:migration:new` writes for a diff that adds `index`, in a folder of their own. */
    function indexMigrations(index: string) {
      const diff = `-- CreateIndex\n${index};\n`;
      const separated = separateConcurrentIndexes(diff);
      expect(separated.transactional).toBe("");
      expect(separated.concurrentIndexes).toHaveLength(1);
      const dir = mkdtempSync(path.join(tmpdir(), "wish-migrations-"));
      const name = "29990101000000_probe_rank_index_01";
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "migration.sql"), separated.concurrentIndexes[0]!.sql);
      return { dir, name, sql: separated.concurrentIndexes[0]!.sql };
    }

    const validity = async (url: string, index: string) =>
      (await sql<{ valid: boolean }>(url, `SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass(?)`, [`"${index}"`]))[0]?.valid ?? null;

    /** What the session building `index` is waiting for, if it is waiting on a lock. */
    const buildWaiting = async (url: string, index: string) =>
      (
        await sql<{ pid: number; query: string; wait_event: string }>(
          url,
          `SELECT pid, query, wait_event FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'active' AND wait_event_type = 'Lock'
              AND query LIKE ? AND pid <> pg_backend_pid()`,
          [`%${index}%`],
        )
      )[0] ?? null;

    it("the index statement runs as CREATE INDEX CONCURRENTLY outside a transaction: a write from another connection goes through while it builds", async () => {
      const url = await probeDatabase([1, 2, 3]);
      const migration = indexMigrations(`CREATE INDEX "MigrationProbe_rank_idx" ON "MigrationProbe"("rank")`);
      expect(migration.sql).toBe(`-- CreateIndex\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "MigrationProbe_rank_idx" ON "MigrationProbe"("rank");\n`);

      // An old instance's write transaction is open: the build has to wait for it.
      const oldInstance = await connect(url);
      await oldInstance.query("BEGIN");
      await oldInstance.query(`INSERT INTO "MigrationProbe" ("rank") VALUES (4)`);
      const run = migrate(url, { migrationsDir: migration.dir });
      run.catch(() => {});
      await expect.poll(() => buildWaiting(url, "MigrationProbe_rank_idx")).not.toBeNull();
      const build = (await buildWaiting(url, "MigrationProbe_rank_idx"))!;
      // PostgreSQL refuses CONCURRENTLY inside a transaction block: that it runs at all shows there is none.
      expect(build.query).toMatch(/^CREATE INDEX CONCURRENTLY IF NOT EXISTS "MigrationProbe_rank_idx"/);

      // The build holds SHARE UPDATE EXCLUSIVE (no conflict with writers), outside any transaction block.
      const locks = await sql<{ mode: string; granted: boolean }>(
        url,
        `SELECT mode, granted FROM pg_locks WHERE pid = ? AND relation = '"MigrationProbe"'::regclass`,
        [build.pid],
      );
      expect(locks).toEqual([{ mode: "ShareUpdateExclusiveLock", granted: true }]);

      // Another instance writes meanwhile: behind a plain CREATE INDEX's SHARE lock request it would wait until lock_timeout.
      const otherInstance = await connect(url);
      await otherInstance.query("SET lock_timeout = '5s'");
      const inserted = await otherInstance.query(`INSERT INTO "MigrationProbe" ("rank") VALUES (5) RETURNING id`);
      expect(inserted.rowCount).toBe(1);

      await oldInstance.query("COMMIT");
      expect(await run).toEqual({ applied: [migration.name], total: 1 });
      expect(await validity(url, "MigrationProbe_rank_idx")).toBe(true);
      const [row] = await sql<{ checksum: string }>(url, `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = ?`, [migration.name]);
      expect(row!.checksum).toBe(sha256(migration.sql));
    });

    it("a concurrent build that fails leaves an INVALID index: reported as migration_failed, dropped and built again on the next start", async () => {
      const url = await probeDatabase([1, 1, 2]);
      const migration = indexMigrations(`CREATE UNIQUE INDEX "MigrationProbe_rank_key" ON "MigrationProbe"("rank")`);

      const failed = await migrate(url, { migrationsDir: migration.dir }).then(
        () => null,
        (err: Error & { code?: string }) => err,
      );
      expect(failed).toMatchObject({ code: "migration_failed" });
      expect(failed!.message).toContain(migration.name);
      expect(failed!.message).toMatch(/"MigrationProbe_rank_key" is left INVALID/);
      expect(await validity(url, "MigrationProbe_rank_key")).toBe(false);
      expect(await sql(url, `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ?`, [migration.name])).toEqual([]);

      // The cause is fixed; IF NOT EXISTS alone would now keep the INVALID index.
      await sql(url, `DELETE FROM "MigrationProbe" WHERE id = (SELECT max(id) FROM "MigrationProbe" WHERE "rank" = 1)`);
      expect(await migrate(url, { migrationsDir: migration.dir })).toEqual({ applied: [migration.name], total: 1 });
      expect(await validity(url, "MigrationProbe_rank_key")).toBe(true);
    });

    it("two instances starting while an index builds concurrently: the second waits without holding a snapshot, and both finish", async () => {
      const url = await probeDatabase([1, 2, 3]);
      const migration = indexMigrations(`CREATE INDEX "MigrationProbe_rank_idx" ON "MigrationProbe"("rank")`);
      const oldInstance = await connect(url);
      await oldInstance.query("BEGIN");
      await oldInstance.query(`INSERT INTO "MigrationProbe" ("rank") VALUES (4)`);

      const first = migrate(url, { migrationsDir: migration.dir });
      first.catch(() => {});
      await expect.poll(() => buildWaiting(url, "MigrationProbe_rank_idx")).not.toBeNull();
      const second = migrate(url, { migrationsDir: migration.dir });
      second.catch(() => {});
      // The second instance has connected and is waiting for the migration lock.
      await expect
        .poll(async () => (await sql(url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%advisory_lock%' AND pid <> pg_backend_pid()`)).length)
        .toBeGreaterThan(0);
      await oldInstance.query("COMMIT");

      const results = await Promise.allSettled([first, second]);
      expect(results).toEqual([
        { status: "fulfilled", value: { applied: [migration.name], total: 1 } },
        { status: "fulfilled", value: { applied: [], total: 1 } },
      ]);
      expect(await validity(url, "MigrationProbe_rank_idx")).toBe(true);
    });
  });
}
