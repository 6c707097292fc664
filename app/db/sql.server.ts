// Hot statements on the driver, prepared once. Prisma stays for the schema,
// migrations, the admin and cold paths; its query compiler rebuilds a plan on
// every call (≈ 0.6 ms a statement), which dominated the cost of the routes
// every shop page calls. Here a statement is SQL text written once, prepared
// once per connection, and decoded by the columns it declares, on both
// databases. Statements are declared only in the domains' statement modules
// (`*.sql.server.ts`, docs/decisions/0002-prepared-statements-beside-prisma.md),
// with row types from the Prisma models (`fields`).
//
// - SQLite: Prisma's own better-sqlite3 connection (so the two never wait on
//   each other's write lock; app/db.server.ts owns it), statements cached.
//   Writes commit synchronously: a transaction runs start to end in one turn
//   of the event loop, so nothing else can slip into it (and it waits while a
//   Prisma interactive transaction holds the connection).
// - PostgreSQL: the pool Prisma's adapter uses too (app/db.server.ts), with
//   named statements (parsed once per connection), transactions on one pooled
//   client.
//
// Work is written once for both as generator functions over `one`, `all` and
// `run` (`const row = yield* one(STATEMENT, id)`), run with `exec` (each
// statement on its own) or `transaction` (all or nothing).
import { isDatabaseUnavailable } from "~/db/errors";
import type BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { env } from "~/env.server";
import { postgresPool, sqliteConnection } from "~/db.server";
import { fromReadSource, replicaPool } from "~/db/replica.server";
import { parseDatabaseUrl } from "~/db/url";
import { log } from "~/lib/log.server";

// LOG_LEVEL=debug logs every statement as Prisma's do ("db query"), e.g. for the query-plan tests.
const logQuery = env.LOG_LEVEL === "debug" ? (query: string) => log.debug("db query", { query }) : null;

export type Param = string | number | boolean | Date | null;

/** How to read a column: Prisma's storage differs by database (0/1 vs boolean, ISO text vs timestamp, bigint vs number). */
type ColumnKind = "date" | "bool";

/**
 * How each date and boolean column of a row is read: required for every one
 * of them, so a row type with a Date or boolean the statement would hand back
 * undecoded is a type error.
 */
export type ColumnKinds<Row> = {
  [K in keyof Row as NonNullable<Row[K]> extends Date ? K : never]-?: "date";
} & {
  [K in keyof Row as NonNullable<Row[K]> extends boolean ? K : never]-?: "bool";
};

export interface Statement<Row> {
  name: string;
  /** PostgreSQL text with $1…$n placeholders and quoted identifiers; the same SQL runs on SQLite. */
  text: string;
  columns: Partial<Record<keyof Row, ColumnKind>>;
  /** SQLite: the text with `?` placeholders and which parameter each one takes. */
  sqlite: { text: string; order: number[] };
}

const names = new Set<string>();

/**
 * Declares a statement. `columns` names the result columns that are dates or
 * booleans (all of them, by the row type); integers come back as numbers on
 * both databases. Row types derive from the Prisma models (`fields`, `Pick`).
 */
export function statement<Row = Record<string, unknown>>(
  name: string,
  text: string,
  ...[columns = {} as ColumnKinds<Row>]: [keyof ColumnKinds<Row>] extends [never] ? [columns?: ColumnKinds<Row>] : [columns: ColumnKinds<Row>]
): Statement<Row> {
  if (names.has(name)) throw new Error(`statement ${name} declared twice`);
  names.add(name);
  const order: number[] = [];
  const sqliteText = text.replace(/\$(\d+)/g, (_, n: string) => (order.push(Number(n) - 1), "?"));
  return { name, text, columns: columns as unknown as Partial<Record<keyof Row, ColumnKind>>, sqlite: { text: sqliteText, order } };
}

/**
 * Columns of one Prisma model, as a statement selects them: the SELECT list
 * is written from the names and the row type is the model's (`Pick`), so a
 * column the model lacks is a type error, and so is a row field the SELECT
 * does not read.
 */
export class Fields<Row> {
  declare readonly row: Row;
  constructor(readonly names: readonly (keyof Row & string)[]) {}

  /** `"a", "b"`, or qualified by a table alias: `w."a", w."b"`. */
  sql(alias?: string): string {
    return this.names.map((n) => (alias ? `${alias}."${n}"` : `"${n}"`)).join(", ");
  }
}

type DecodedValue<V> = V extends bigint ? number : V;
/** A model's row as the statements read it: BigInt columns come back as numbers (see decodeRow). */
export type Decoded<Row> = { [K in keyof Row]: DecodedValue<Row[K]> };

/** `fields<Product>()("id", "brand")`: the columns and, as its row type, `Pick<Product, "id" | "brand">`. */
export const fields =
  <Model>() =>
  <const K extends keyof Model & string>(...names: K[]): Fields<Decoded<Pick<Model, K>>> =>
    new Fields<Decoded<Pick<Model, K>>>(names);

/** The row type of a column list. */
export type RowOf<F> = F extends Fields<infer Row> ? Row : never;

/** One step of work: a statement with its parameters and what to return. */
interface Step {
  statement: Statement<unknown>;
  params: Param[];
  mode: "one" | "all" | "run";
}

export type Op<T> = Generator<Step, T, unknown>;

export function* one<Row>(statement: Statement<Row>, ...params: Param[]): Op<Row | undefined> {
  const rows = (yield { statement, params, mode: "one" } as Step) as Row[];
  return rows[0];
}

export function* all<Row>(statement: Statement<Row>, ...params: Param[]): Op<Row[]> {
  return (yield { statement, params, mode: "all" } as Step) as Row[];
}

/** Runs a write; returns the number of rows it changed. */
export function* run(statement: Statement<unknown>, ...params: Param[]): Op<number> {
  return (yield { statement, params, mode: "run" } as Step) as number;
}

// ---------------------------------------------------------------- decoding

function decodeRow(row: Record<string, unknown>, columns: Partial<Record<string, ColumnKind>>): void {
  for (const key in row) {
    const value = row[key];
    if (value === null) continue;
    const kind = columns[key];
    if (kind === "date") row[key] = value instanceof Date ? value : new Date(typeof value === "bigint" ? Number(value) : (value as string | number));
    else if (kind === "bool") row[key] = value === true || value === 1 || value === 1n || value === "1";
    else if (typeof value === "bigint") row[key] = Number(value);
  }
}

// ---------------------------------------------------------------- SQLite

/** Prisma's DateTime text on SQLite (the adapter's iso8601 format), so stored values compare as text. */
const sqliteParam = (p: Param) => (p instanceof Date ? p.toISOString().replace("Z", "+00:00") : typeof p === "boolean" ? (p ? 1 : 0) : p);

class SqliteDriver {
  private prepared = new Map<string, BetterSqlite3.Statement>();
  private preparedOn: BetterSqlite3.Database | null = null;

  /** Prisma's connection, between its transactions (app/db.server.ts). */
  private async ready(): Promise<BetterSqlite3.Database> {
    const db = await sqliteConnection();
    if (db !== this.preparedOn) {
      // Prisma reconnected: statements belong to the connection that prepared them.
      this.prepared.clear();
      this.preparedOn = db;
    }
    return db;
  }

  private step(db: BetterSqlite3.Database, { statement, params, mode }: Step): unknown {
    let prepared = this.prepared.get(statement.name);
    if (!prepared) {
      prepared = db.prepare(statement.sqlite.text);
      // Prisma's connection reads integers as BigInt by default; these statements read numbers.
      if (prepared.reader) prepared.safeIntegers(false);
      this.prepared.set(statement.name, prepared);
    }
    logQuery?.(statement.sqlite.text);
    const args = statement.sqlite.order.map((i) => sqliteParam(params[i]));
    if (mode === "run" && !prepared.reader) return prepared.run(...args).changes;
    const rows = (mode === "one" ? [prepared.get(...args)].filter((r) => r !== undefined) : prepared.all(...args)) as Record<string, unknown>[];
    for (const row of rows) decodeRow(row, statement.columns as Record<string, ColumnKind>);
    return mode === "run" ? rows.length : rows;
  }

  private drive<T>(db: BetterSqlite3.Database, op: Op<T>): T {
    let next = op.next();
    while (!next.done) next = op.next(this.step(db, next.value));
    return next.value;
  }

  async exec<T>(op: Op<T>): Promise<T> {
    return this.drive(await this.ready(), op);
  }

  async transaction<T>(op: Op<T>): Promise<T> {
    let db = await this.ready();
    // ready() saw no Prisma transaction, but one may have sent its BEGIN in the microtasks before this
    // line ran ("cannot start a transaction within a transaction"): wait it out too. Bounded, in case a
    // transaction was opened outside both (BEGIN then fails as before).
    for (let tries = 0; db.inTransaction && tries < 1000; tries++) db = await this.ready();
    // IMMEDIATE takes the write lock up front (waiting out other processes for the busy timeout), so the commit cannot fail on it.
    db.prepare("BEGIN IMMEDIATE").run();
    try {
      const result = this.drive(db, op);
      db.prepare("COMMIT").run();
      return result;
    } catch (err) {
      if (db.inTransaction) db.prepare("ROLLBACK").run();
      throw err;
    }
  }
}

// ---------------------------------------------------------------- PostgreSQL

// Prisma keeps DateTime as `timestamp(3)` (without time zone) in UTC; pg would read it as local time.
const PG_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 1114) return (value: string) => new Date(value.replace(" ", "T") + "Z");
    if (oid === 20) return (value: string) => Number(value); // COUNT(*) and other int8 results
    return pg.types.getTypeParser(oid, format as "text");
  },
} as pg.CustomTypesConfig;

class PostgresDriver {
  constructor(private readonly poolOf: () => pg.Pool = postgresPool) {}

  get pool(): pg.Pool {
    return this.poolOf();
  }

  private async step(client: pg.Pool | pg.PoolClient, { statement, params, mode }: Step): Promise<unknown> {
    logQuery?.(statement.text);
    // Named: parsed once per connection; unnamed behind a pooler that cannot keep them (DATABASE_PREPARED_STATEMENTS).
    const result = await client.query({
      ...(env.DATABASE_PREPARED_STATEMENTS ? { name: statement.name } : {}),
      text: statement.text,
      values: params,
      types: PG_TYPES,
    });
    if (mode === "run") return result.rowCount ?? 0;
    for (const row of result.rows) decodeRow(row, statement.columns as Record<string, ColumnKind>);
    return result.rows;
  }

  private async drive<T>(client: pg.Pool | pg.PoolClient, op: Op<T>): Promise<T> {
    let next = op.next();
    while (!next.done) next = op.next(await this.step(client, next.value));
    return next.value;
  }

  exec<T>(op: Op<T>): Promise<T> {
    return this.drive(this.pool, op);
  }

  async transaction<T>(op: Op<T>): Promise<T> {
    const client = await this.pool.connect();
    let failed: unknown;
    try {
      await client.query("BEGIN");
      const result = await this.drive(client, op);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      failed = err;
      // A connection that timed out or was lost cannot roll back (waiting for it would double the
      // request's wait on a frozen database); dropping it ends the transaction on the server.
      if (!isDatabaseUnavailable(err)) await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      // Such a connection may still be busy: the pool drops it.
      client.release(isDatabaseUnavailable(failed) ? (failed as Error) : undefined);
    }
  }
}

// ---------------------------------------------------------------- the driver of DATABASE_URL

interface Driver {
  exec<T>(op: Op<T>): Promise<T>;
  transaction<T>(op: Op<T>): Promise<T>;
}

let driver: Driver | null = null;

function currentDriver(): Driver {
  if (driver) return driver;
  const target = parseDatabaseUrl(env.DATABASE_URL);
  driver = target.kind === "postgresql" ? new PostgresDriver() : new SqliteDriver();
  return driver;
}

/** Runs each statement of `op` on its own (autocommit). */
export const exec = <T>(op: Op<T>): Promise<T> => currentDriver().exec(op);

/** Runs `op` as one transaction: all its writes commit together or none does. */
export const transaction = <T>(op: Op<T>): Promise<T> => currentDriver().transaction(op);

let replicaDriver: PostgresDriver | null = null;

/**
 * Runs the reads of `op` on the read replica when the current `publicReads`
 * chose it (app/db/replica.server.ts), on DATABASE_URL otherwise and when the
 * replica fails (so `op` is a function: a generator runs once). Reads only.
 */
export const readExec = <T>(op: () => Op<T>): Promise<T> =>
  fromReadSource(
    () => (replicaDriver ??= new PostgresDriver(replicaPool)).exec(op()),
    () => exec(op()),
  );
