// Which database failures are "the database cannot serve this now" (503 with
// Retry-After, noted once per outage) rather than a bug (500): real driver
// errors where they can be made here, PostgreSQL's by their SQLSTATE.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../app/db/errors.ts";

const dir = mkdtempSync(path.join(tmpdir(), "wish-db-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error `fn` throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("SQLite", () => {
  it("a full disk (SQLITE_FULL) is unavailable", () => {
    const db = new Database(path.join(dir, "full.db"));
    db.exec("CREATE TABLE t (x TEXT)");
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true })}`);
    const err = thrown(() => db.prepare("INSERT INTO t VALUES (?)").run("x".repeat(100_000)));
    db.close();
    expect((err as { code: string }).code).toBe("SQLITE_FULL");
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it("a database opened read-only (SQLITE_READONLY) is unavailable for writes", () => {
    const file = path.join(dir, "ro.db");
    new Database(file).exec("CREATE TABLE t (x TEXT)");
    const db = new Database(file, { readonly: true });
    const err = thrown(() => db.prepare("INSERT INTO t VALUES ('x')").run());
    db.close();
    expect((err as { code: string }).code).toBe("SQLITE_READONLY");
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it("a constraint violation is not", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (x TEXT UNIQUE)");
    db.prepare("INSERT INTO t VALUES ('x')").run();
    const err = thrown(() => db.prepare("INSERT INTO t VALUES ('x')").run());
    db.close();
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe("PostgreSQL (SQLSTATE)", () => {
  const pgError = (code: string) => Object.assign(new Error("server said no"), { code, severity: "ERROR" });
  it.each([
    ["53100", "disk full"],
    ["53200", "out of memory"],
    ["25006", "read-only transaction: a connection that reached a standby after a failover"],
    ["57P01", "terminated by the administrator (restart, failover)"],
    ["08006", "connection failure"],
  ])("%s (%s) is unavailable", (code) => expect(isDatabaseUnavailable(pgError(code))).toBe(true));

  it.each([["23505"], ["22P02"], ["42P01"]])("%s is not", (code) => expect(isDatabaseUnavailable(pgError(code))).toBe(false));
});
