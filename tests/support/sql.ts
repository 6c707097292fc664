// Direct SQL against a test database (either kind), for assertions about
// what is stored and for arranging state no API call can produce.
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
