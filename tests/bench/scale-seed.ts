// Scale mode's grown database: ≈ 200k list items spread over many
// users, lists and products, 1M request-counter rows, 1M usage dedup keys and
// 1M price points, written beside the bench's own fixtures (whose lists keep
// their 50 items). Each table is one INSERT … SELECT over a number series
// (generate_series on PostgreSQL, a recursive CTE on SQLite), so the
// database does the work: a minute or two, not ten.
//
// The rows look like a live deployment in its steady state: request-counter
// minute windows span the last 49 minutes (the prune job keeps an hour, so
// only a trickle ages out during the run, as in production) and dedup keys
// the last 40 hours (kept for two days). Timestamps are written in the
// format each column gets from the app (Prisma's ISO text on SQLite for
// DateTime fields, CURRENT_TIMESTAMP text for UsageDedup's default).
import Database from "better-sqlite3";
import pg from "pg";

/** Row counts of the grown database. */
export const SCALE = {
  users: 10_000,
  /** Two per user, one of them the default list. */
  lists: 20_000,
  /** 10 per list. */
  items: 200_000,
  products: 50_000,
  pricePoints: 1_000_000,
  partners: 2_000,
  /** 10 per partner. */
  apiKeys: 20_000,
  /** 50 per key: the month window and 49 minute windows. */
  requestCounters: 1_000_000,
  usageDedup: 1_000_000,
} as const;

const ITEMS_PER_LIST = SCALE.items / SCALE.lists;
const WINDOWS_PER_KEY = SCALE.requestCounters / SCALE.apiKeys;

export interface SeedReport {
  seconds: number;
  /** Rows written per table. */
  rows: Record<string, number>;
  /** Seconds per table. */
  tableSeconds: Record<string, number>;
}

interface Dialect {
  kind: "sqlite" | "postgresql";
  /** Runs one statement; returns the rows it changed. */
  run(sql: string): Promise<number>;
  scalar(sql: string): Promise<number>;
  /** `INSERT … SELECT … FROM <series>` over n = 0 … count-1. */
  fromSeries(count: number, insert: string, select: string): string;
  /** A DateTime column's value `secondsAgo` (an SQL expression) before now, as the app writes it. */
  at(secondsAgo: string): string;
  /** A default-CURRENT_TIMESTAMP column's value `secondsAgo` before now. */
  dbTimestamp(secondsAgo: string): string;
  /** The UTC minute window `minutesAgo` before now: `2026-11-21T14:05`. */
  minuteWindow(minutesAgo: string): string;
  json(literal: string): string;
  /** After explicit ids: the next autoincrement id comes after them. */
  afterExplicitIds(table: string): Promise<void>;
  /** Leaves the grown tables as a long-running database would have them. */
  finish(tables: string[]): Promise<void>;
  close(): Promise<void>;
}

function sqliteDialect(file: string): Dialect {
  const db = new Database(file);
  db.pragma("busy_timeout = 10000");
  // A modifier such as `-90 seconds` (or `2592000 seconds` for a time ahead).
  const ago = (expr: string, unit: string) => `(-(${expr})) || ' ${unit}'`;
  return {
    kind: "sqlite",
    run: async (sql) => db.prepare(sql).run().changes,
    scalar: async (sql) => Number(Object.values(db.prepare(sql).get() as object)[0] ?? 0),
    fromSeries: (count, insert, select) =>
      `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${count - 1}) ${insert} ${select} FROM s`,
    at: (secondsAgo) => `strftime('%Y-%m-%dT%H:%M:%S.000+00:00', 'now', ${ago(secondsAgo, "seconds")})`,
    dbTimestamp: (secondsAgo) => `datetime('now', ${ago(secondsAgo, "seconds")})`,
    minuteWindow: (minutesAgo) => `strftime('%Y-%m-%dT%H:%M', 'now', ${ago(minutesAgo, "minutes")})`,
    json: (literal) => `'${literal}'`,
    // AUTOINCREMENT tables follow the largest id written.
    afterExplicitIds: async () => {},
    // Fold the write-ahead log back into the file, as a long-running database would have.
    finish: async () => void db.pragma("wal_checkpoint(TRUNCATE)"),
    close: async () => {
      db.close();
    },
  };
}

async function postgresDialect(url: string): Promise<Dialect> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const utcNow = `(now() AT TIME ZONE 'UTC')`;
  return {
    kind: "postgresql",
    run: async (sql) => (await client.query(sql)).rowCount ?? 0,
    scalar: async (sql) => Number(Object.values((await client.query(sql)).rows[0] ?? {})[0] ?? 0),
    fromSeries: (count, insert, select) => `${insert} ${select} FROM generate_series(0, ${count - 1}) AS s(n)`,
    at: (secondsAgo) => `${utcNow} - (${secondsAgo}) * interval '1 second'`,
    dbTimestamp: (secondsAgo) => `${utcNow} - (${secondsAgo}) * interval '1 second'`,
    minuteWindow: (minutesAgo) => `to_char(${utcNow} - (${minutesAgo}) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI')`,
    json: (literal) => `'${literal}'::jsonb`,
    afterExplicitIds: async (table) => {
      await client.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT MAX("id") FROM "${table}"))`);
    },
    // Autovacuum would vacuum and analyze the grown tables within a minute or so (inserts
    // trigger it too); doing it now keeps it out of the measured runs.
    finish: async (tables) => void (await client.query(`VACUUM (ANALYZE) ${tables.map((t) => `"${t}"`).join(", ")}`)),
    close: () => client.end(),
  };
}

/** Grows the bench database (SQLite `file:` URL or PostgreSQL URL) to SCALE. */
export async function seedScale(databaseUrl: string, progress: (msg: string) => void = () => {}): Promise<SeedReport> {
  const d = databaseUrl.startsWith("file:") ? sqliteDialect(databaseUrl.slice("file:".length)) : await postgresDialect(databaseUrl);
  const started = performance.now();
  const rows: Record<string, number> = {};
  const tableSeconds: Record<string, number> = {};
  try {
    // Seeded ids start after the bench's own rows.
    const base = async (table: string) => (await d.scalar(`SELECT COALESCE(MAX("id"), 0) + 1 AS next FROM "${table}"`)) as number;
    const [partner, apiKey, list, product] = [await base("Partner"), await base("ApiKey"), await base("Wishlist"), await base("Product")];
    const month = new Date().toISOString().slice(0, 7);

    const table = async (name: string, count: number, insert: string, select: string, explicitIds = false) => {
      const t0 = performance.now();
      const written = await d.run(d.fromSeries(count, insert, select));
      if (written !== count) throw new Error(`seeding ${name}: wrote ${written} rows, expected ${count}`);
      if (explicitIds) await d.afterExplicitIds(name);
      rows[name] = (rows[name] ?? 0) + written;
      tableSeconds[name] = (tableSeconds[name] ?? 0) + (performance.now() - t0) / 1000;
      progress(`  seeded ${name}: ${written} rows in ${tableSeconds[name].toFixed(1)} s`);
    };

    await table(
      "User",
      SCALE.users,
      `INSERT INTO "User" ("id", "isAnonymous", "displayName", "isPremium", "createdAt", "updatedAt")`,
      `SELECT 'seed-user-' || n, true, 'Seed user ' || n, false, ${d.at("n * 60")}, ${d.at("n * 60")}`,
    );
    await table(
      "AuthSession",
      SCALE.users,
      `INSERT INTO "AuthSession" ("id", "userId", "createdAt")`,
      `SELECT 'seed-session-' || n, 'seed-user-' || n, ${d.at("n * 60")}`,
    );
    await table(
      "RefreshToken",
      SCALE.users,
      `INSERT INTO "RefreshToken" ("tokenHash", "sessionId", "expiresAt", "createdAt")`,
      `SELECT 'seed-token-hash-' || n, 'seed-session-' || n, ${d.at("-2592000 + n")}, ${d.at("n * 60")}`,
    );
    await table(
      "Wishlist",
      SCALE.lists,
      `INSERT INTO "Wishlist" ("id", "shareToken", "ownerId", "name", "description", "imagePath", "sharePublic", "occasionSlug", "defaultKey", "createdAt", "updatedAt")`,
      `SELECT ${list} + n, 'seed-list-' || n, 'seed-user-' || (n / 2), 'Seed list ' || n, '', '', n % 3 = 0, '',
              CASE WHEN n % 2 = 0 THEN 'default' ELSE NULL END, ${d.at("n * 30")}, ${d.at("n * 30")}`,
      true,
    );
    await table(
      "Product",
      SCALE.products,
      `INSERT INTO "Product" ("id", "canonicalUrl", "isManual", "sourceDomain", "createdAt", "updatedAt")`,
      `SELECT ${product} + n, 'https://seed-shop-' || (n % 500) || '.example.com/products/p-' || n, false,
              'seed-shop-' || (n % 500) || '.example.com', ${d.at("n * 10")}, ${d.at("n * 10")}`,
      true,
    );
    await table(
      "ProductLocalization",
      SCALE.products,
      `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "priceMinor", "currency", "updatedAt")`,
      `SELECT ${product} + n, 'de-DE', 'Seed product ' || n, 'A product of the grown database', 1000 + n % 5000, 'EUR', ${d.at("n * 10")}`,
    );
    await table(
      "PricePoint",
      SCALE.pricePoints,
      `INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "recordedAt")`,
      `SELECT ${product} + n % ${SCALE.products}, 'de-DE', 1000 + n % 7000, 'EUR', ${d.at("n")}`,
    );
    // Item n is on list n / 10; 7919 is prime to the product count, so a list's ten products differ.
    await table(
      "ListItem",
      SCALE.items,
      `INSERT INTO "ListItem" ("wishlistId", "productId", "addedByUserId", "purchased", "purchaseConfirmed", "market", "addedAt")`,
      `SELECT ${list} + n / ${ITEMS_PER_LIST}, ${product} + (n * 7919) % ${SCALE.products}, 'seed-user-' || (n / ${2 * ITEMS_PER_LIST}),
              false, false, 'de-DE', ${d.at("n * 3")}`,
    );
    await table(
      "Partner",
      SCALE.partners,
      `INSERT INTO "Partner" ("id", "name", "email", "plan", "planChangedAt", "createdAt")`,
      `SELECT ${partner} + n, 'Seed partner ' || n, 'partner-' || n || '@seed.example',
              CASE WHEN n % 2 = 0 THEN 'free' ELSE 'scale' END, ${d.at("n * 600")}, ${d.at("n * 600")}`,
      true,
    );
    await table(
      "ApiKey",
      SCALE.apiKeys,
      `INSERT INTO "ApiKey" ("id", "partnerId", "key", "environment", "status", "allowedDomains", "createdAt")`,
      `SELECT ${apiKey} + n, ${partner} + n / ${SCALE.apiKeys / SCALE.partners}, 'pk_test_seed' || n || 'x0000000000000000', 'test', 'active',
              ${d.json("[]")}, ${d.at("n * 60")}`,
      true,
    );
    await table(
      "UsageCounter",
      SCALE.partners,
      `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total")`,
      `SELECT ${partner} + n, '${month}', n % 900, n % 50, n % 300, n % 900 + n % 50 + n % 300`,
    );
    await table(
      "ApiKeyRequestCounter",
      SCALE.requestCounters,
      `INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count")`,
      `SELECT ${apiKey} + n / ${WINDOWS_PER_KEY},
              CASE WHEN n % ${WINDOWS_PER_KEY} = 0 THEN '${month}' ELSE ${d.minuteWindow(`n % ${WINDOWS_PER_KEY}`)} END, 1 + n % 97`,
    );
    await table(
      "UsageDedup",
      SCALE.usageDedup,
      `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "createdAt")`,
      `SELECT 'list_view:seed-' || n || ':' || (n % 7919), ${partner} + n % ${SCALE.partners}, ${d.dbTimestamp("n % 144000")}`,
    );
    const t0 = performance.now();
    await d.finish(Object.keys(rows));
    tableSeconds[d.kind === "sqlite" ? "wal_checkpoint" : "VACUUM (ANALYZE)"] = (performance.now() - t0) / 1000;
  } finally {
    await d.close();
  }
  return { seconds: (performance.now() - started) / 1000, rows, tableSeconds };
}
