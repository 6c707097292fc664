// Query plans of the statements a server really ran: a server started with
// LOG_LEVEL=debug logs every statement ("db query"); these helpers collect
// them and ask the database how it would run each one.
import Database from "better-sqlite3";
import pg from "pg";
import type { InProcessServer } from "./in-process.ts";
import type { TestServer } from "./server.ts";
import { until } from "./wait.ts";

/** The statements logged in `output` (a server's output, or a slice of it), in order. */
export function loggedStatements(output: string): string[] {
  const statements: string[] = [];
  for (const line of output.split("\n")) {
    if (!line.includes('"msg":"db query"')) continue;
    try {
      statements.push((JSON.parse(line) as { query: string }).query);
    } catch {
      // A line cut off at the end of the slice.
    }
  }
  return statements;
}

export interface Plan {
  /** The plan as the database prints it (for failure messages). */
  text: string;
  /** Accesses that read a whole table or a whole index instead of searching an index by a condition. */
  fullScans: string[];
}

/**
 * The plan of `statement` (placeholders unbound: the plan the database would
 * use for any values). PostgreSQL: the generic plan, with sequential scans
 * priced out, so a test's small tables do not hide a missing index: a Seq
 * Scan or an index scan without an index condition then means no index can
 * serve the statement.
 *
 * `natural` (PostgreSQL): sequential scans keep their price, so the plan is
 * the one the planner picks with the database's own statistics (on a grown
 * database: whether it would read a big table whole although an index exists).
 */
export async function explain(databaseUrl: string, statement: string, { natural = false }: { natural?: boolean } = {}): Promise<Plan> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true });
    try {
      const stmt = db.prepare(`EXPLAIN QUERY PLAN ${statement}`);
      const params = (statement.match(/\?/g) ?? []).map(() => null);
      const rows = stmt.all(...params) as { detail: string }[];
      const lines = rows.map((r) => r.detail);
      // Subquery results the statement built itself (scanning those reads no table).
      const derived = new Set(lines.flatMap((l) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(l)?.[1] ?? []));
      // "SCAN t" reads the table, "SCAN t USING … INDEX" a whole index; SEARCH uses a key.
      // "SCAN n-ROW VALUES CLAUSE" reads the statement's own rows (a multi-row INSERT).
      const fullScans = lines.filter((l) => {
        const scanned = /^SCAN (\S+)/.exec(l)?.[1];
        return scanned !== undefined && scanned !== "CONSTANT" && !derived.has(scanned) && !/^SCAN \d+-ROW VALUES CLAUSE$/.test(l);
      });
      return { text: lines.join("\n"), fullScans };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SET plan_cache_mode = force_generic_plan");
    if (!natural) await client.query("SET enable_seqscan = off");
    const count = Math.max(0, ...[...statement.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    await client.query(`PREPARE explained AS ${statement}`);
    const args = count ? `(${Array(count).fill("NULL").join(", ")})` : "";
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PgNode }] }>(`EXPLAIN (FORMAT JSON) EXECUTE explained${args}`);
    const fullScans: string[] = [];
    const walk = (node: PgNode) => {
      const scan = `${node["Node Type"]} on ${node["Relation Name"] ?? node["Index Name"] ?? "?"}`;
      if (node["Node Type"] === "Seq Scan") fullScans.push(scan);
      if (/Index( Only)? Scan$/.test(node["Node Type"]) && !node["Index Cond"]) fullScans.push(scan);
      for (const child of node.Plans ?? []) walk(child);
    };
    const root = rows[0]!["QUERY PLAN"][0].Plan;
    walk(root);
    return { text: JSON.stringify(root, null, 1), fullScans };
  } finally {
    await client.end();
  }
}

interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PgNode[];
}

/**
 * The SQL statements `server` logged while answering `call`: its request log
 * line comes after the response, so once it is there every statement is too.
 * A server process's lines of a request answered just before may still be on their
 * way through the pipe; a health check's line comes after them, so the slice starts
 * there. (An in-process app logs into the worker's memory: nothing is late.)
 */
export async function statementsDuring(server: Pick<TestServer, "output" | "url"> | InProcessServer, call: () => Promise<unknown>): Promise<string[]> {
  if (!("fetch" in server)) {
    const before = server.output().length;
    await (await fetch(`${server.url}/api/v1/health`)).arrayBuffer();
    await until("the health check's log line", () => server.output().slice(before), (out) => out.includes('"path":"/api/v1/health"'));
  }
  const start = server.output().length;
  await call();
  const output = await until("the request's log line", () => server.output().slice(start), (out) => out.includes('"msg":"request"'));
  return loggedStatements(output);
}

