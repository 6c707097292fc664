// One DATABASE_URL selects the database: `file:…` is SQLite (the embedded
// default), `postgres://` / `postgresql://` is PostgreSQL.
import path from "node:path";

export type DatabaseTarget =
  | { kind: "sqlite"; file: string }
  | { kind: "postgresql"; url: string };

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgresql", url };
  if (url.startsWith("file:")) {
    // Relative paths are relative to the working directory (the repo root).
    return { kind: "sqlite", file: path.resolve(url.slice("file:".length)) };
  }
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got ${JSON.stringify(url)})`);
}
