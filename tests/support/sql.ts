// Direct SQL against a test database (either kind), for assertions about
// what is stored and for arranging state no API call can produce.
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";

/** Runs one statement; `?` placeholders are turned into $1… for PostgreSQL. */
export async function sql<T = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length));
    try {
      const stmt = db.prepare(text);
      return (stmt.reader ? stmt.all(...params) : (stmt.run(...params), [])) as T[];
    } finally {
      db.close();
    }
  }
  let i = 0;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text.replace(/\?/g, () => `$${++i}`), params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Makes writes to `table` fail for rows whose `column` is `value`: a real
 * database error, to reach the 500 paths (a trigger on either database).
 * Resolves with a function that removes the trigger, for a failure that passes.
 */
export async function failWrites(
  databaseUrl: string,
  table: string,
  on: "INSERT" | "UPDATE" | "DELETE",
  column: string,
  value: string,
): Promise<() => Promise<void>> {
  const name = `fail_${randomBytes(6).toString("hex")}`;
  const row = on === "DELETE" ? "OLD" : "NEW";
  if (databaseUrl.startsWith("file:")) {
    await sql(
      databaseUrl,
      `CREATE TRIGGER ${name} BEFORE ${on} ON "${table}" WHEN ${row}."${column}" = '${value}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
  } else {
    await sql(databaseUrl, `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
    await sql(databaseUrl, `CREATE TRIGGER ${name} BEFORE ${on} ON "${table}" FOR EACH ROW WHEN (${row}."${column}" = '${value}') EXECUTE FUNCTION ${name}()`);
  }
  return async () => {
    await sql(databaseUrl, databaseUrl.startsWith("file:") ? `DROP TRIGGER ${name}` : `DROP TRIGGER ${name} ON "${table}"`);
  };
}
