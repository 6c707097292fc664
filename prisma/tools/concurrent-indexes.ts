// A plain CREATE INDEX holds a SHARE lock on its table until the index is
// built: on a large table that stops every write of the instances still
// running during a rolling deploy. New PostgreSQL migrations therefore build
// indexes on tables that already exist with CREATE INDEX CONCURRENTLY, which
// cannot run in a transaction. Each such index gets a migration of its own
// holding that one statement: app/db/migrate.server.ts runs it outside a
// transaction, and a standard `prisma migrate deploy` (which sends a
// migration's file as one query) can run a single statement as well.
import { postgreSplitterOptions, splitQuery } from "dbgate-query-splitter";

export interface SeparatedMigration {
  /** Everything else, for the ordinary (transactional) migration; "" when nothing is left. */
  transactional: string;
  /** One `CREATE INDEX CONCURRENTLY IF NOT EXISTS` statement per index, in the diff's order. */
  concurrentIndexes: Array<{ index: string; sql: string }>;
}

const CREATE_INDEX = /^CREATE\s+(UNIQUE\s+)?INDEX\s+("(?:[^"]|"")+")\s+ON\s+("(?:[^"]|"")+")/i;
const CREATE_TABLE = /^CREATE\s+TABLE\s+("(?:[^"]|"")+")/i;

/** Splits a `prisma migrate diff --script` for PostgreSQL; the SQL is returned unchanged when it builds no index on an existing table. */
export function separateConcurrentIndexes(sql: string): SeparatedMigration {
  const statements = (splitQuery(sql, postgreSplitterOptions) as string[]).map((s) => s.trim()).filter(Boolean);
  const code = (s: string) => s.replace(/^(\s*--[^\n]*\n)+/, "").trim();
  const newTables = new Set(statements.map((s) => CREATE_TABLE.exec(code(s))?.[1]).filter(Boolean));
  const kept: string[] = [];
  const concurrentIndexes: SeparatedMigration["concurrentIndexes"] = [];
  for (const statement of statements) {
    const match = CREATE_INDEX.exec(code(statement));
    const [, unique, index, table] = match ?? [];
    // A new table is empty and unseen by running instances; a unique index a foreign key of this migration needs must exist first.
    const staysInTransaction =
      !match || newTables.has(table!) || (unique && statements.some((s) => s.includes(`REFERENCES ${table}`)));
    if (staysInTransaction) {
      kept.push(statement);
      continue;
    }
    const body = code(statement).replace(CREATE_INDEX, `CREATE ${unique ? "UNIQUE " : ""}INDEX CONCURRENTLY IF NOT EXISTS ${index} ON ${table}`);
    concurrentIndexes.push({ index: index!.slice(1, -1).replace(/""/g, '"'), sql: `-- CreateIndex\n${body};\n` });
  }
  if (concurrentIndexes.length === 0) return { transactional: sql, concurrentIndexes };
  return { transactional: kept.length ? kept.map((s) => `${s};`).join("\n\n") + "\n" : "", concurrentIndexes };
}
