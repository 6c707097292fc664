// The data-growth bench's database (`npm run bench:growth`, growth.ts): a
// PostgreSQL database grown to a given number of saved items and shoppers
// with the shape of a live deployment rather than a uniform grid:
//
// - shoppers: 70 % anonymous, the rest with an email; every one has a default
//   list, one in 5 a second list, one in 25 a third; one session and one
//   refresh token each;
// - items per list: Pareto (α 1.6, minimum 3, capped at 2,000), scaled so the
//   total is exactly the size asked for: most lists hold a handful of items
//   (median ≈ 4), a few hold hundreds to 2,000;
// - products: one per 5 items (at least 5,000), from many shops (one shop per
//   50 shoppers, at least 20), each shop an installed PlatformShop of a
//   partner (10 shops per partner, 5 API keys each); a list's first product is
//   drawn towards the popular end of the catalogue (density ∝ u³) and the rest
//   stride through it, so products are shared across many lists and a list's
//   products differ;
// - half the items saved through the shop's widget (partner and shop set),
//   half on the hosted pages (domain only); 2 % purchased; saves spread over the
//   last three years, a list's items close together in time;
// - one localization and one price point per product; the partners' request
//   counters (the month and 49 minute windows per key) and usage dedup keys
//   (one per 10 items, the last 40 hours).
//
// Every table is one INSERT … SELECT over generate_series, so PostgreSQL does
// the work. String ids carry `prefix`, integer ids start after the rows
// already there, so a second seed grows the same database (growth.ts seeds
// the small database, measures, then grows it). For a large seed (`bulk`)
// the grown tables' secondary indexes are dropped first and built again after
// the insert, foreign-key triggers are off for the session
// (session_replication_role = replica: the rows are consistent by
// construction), and the grown tables are vacuumed and analyzed at the end,
// as autovacuum would within minutes.
import pg from "pg";

export interface GrowthSize {
  /** ListItem rows to add. */
  items: number;
  /** User rows (shoppers) to add. */
  users: number;
  /** Distinguishes this seed's string keys (user ids, tokens, URLs) from another seed's in the same database: letters and digits. */
  prefix: string;
}

/** Row counts a size gives. */
export function growthRows({ items, users }: GrowthSize) {
  const lists = users + Math.floor(users / 5) + Math.floor(users / 25);
  const products = Math.max(5_000, Math.floor(items / 5));
  const shops = Math.max(20, Math.floor(users / 50));
  const partners = Math.max(2, Math.floor(shops / 10));
  const apiKeys = partners * 5;
  return {
    User: users,
    AuthSession: users,
    RefreshToken: users,
    Partner: partners,
    PlatformShop: shops,
    ApiKey: apiKeys,
    UsageCounter: partners,
    ApiKeyRequestCounter: apiKeys * 50,
    Wishlist: lists,
    Product: products,
    ProductLocalization: products,
    PricePoint: products,
    ListItem: items,
    UsageDedup: Math.max(1_000, Math.floor(items / 10)),
  };
}

/** The tables a growth seed writes. */
export const GROWN_TABLES = Object.keys(growthRows({ items: 1, users: 1, prefix: "x" }));

export interface GrowthSeedReport {
  size: GrowthSize;
  seconds: number;
  rows: Record<string, number>;
  /** Seconds per table, and per phase (drop indexes, build indexes, VACUUM (ANALYZE)). */
  seconds_by_step: Record<string, number>;
  /** Items per list: the distribution the seed wrote. */
  itemsPerList: { lists: number; min: number; median: number; p90: number; p99: number; max: number; listsWithItems: number };
  bulk: boolean;
}

const ITEMS_CAP = 2_000;
const SPAN_SECONDS = 3 * 365 * 86_400;
const STRIDE = 7919; // prime: with a product count it does not divide, a list's products differ

/** A uniform number in (0, 1] from an integer expression and a seed, stable across runs. */
const uniform = (expr: string, seed: number) => `(((hashint8extended((${expr})::bigint, ${seed}) & 9007199254740991)::float8 + 1) / 9007199254740992)`;

export async function seedGrowth(databaseUrl: string, size: GrowthSize, progress: (msg: string) => void = () => {}): Promise<GrowthSeedReport> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error("the growth seed runs on PostgreSQL");
  if (!/^[a-z0-9]+$/i.test(size.prefix)) throw new Error(`prefix must be letters and digits, got ${JSON.stringify(size.prefix)}`);
  if (size.users < 25 || size.items < size.users) throw new Error("a growth seed needs at least 25 users and one item per user");
  const rows = growthRows(size);
  if (rows.Product % STRIDE === 0) throw new Error("product count must not be a multiple of the stride");
  const bulk = size.items >= 100_000;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = (sql: string) => client.query(sql);
  const scalar = async (sql: string) => Number(Object.values((await q(sql)).rows[0] ?? {})[0] ?? 0);
  const started = performance.now();
  const steps: Record<string, number> = {};
  const written: Record<string, number> = {};
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await work();
    steps[name] = (steps[name] ?? 0) + (performance.now() - t0) / 1000;
    return result;
  };
  const p = size.prefix;
  const now = `(now() AT TIME ZONE 'UTC')`;
  const ago = (seconds: string) => `${now} - (${seconds}) * interval '1 second'`;
  const month = new Date().toISOString().slice(0, 7);

  try {
    await q("SET maintenance_work_mem = '1GB'");
    await q("SET work_mem = '256MB'");
    if (bulk) await q("SET session_replication_role = replica");
    const next = async (table: string) => scalar(`SELECT COALESCE(MAX("id"), 0) + 1 FROM "${table}"`);
    const base = {
      partner: await next("Partner"),
      shop: await next("PlatformShop"),
      apiKey: await next("ApiKey"),
      list: await next("Wishlist"),
      product: await next("Product"),
    };

    // Secondary indexes of the grown tables (primary keys stay): dropped for a bulk seed, built again after.
    let indexes: { name: string; def: string }[] = [];
    if (bulk) {
      indexes = (
        await client.query<{ name: string; def: string }>(
          `SELECT ci.relname AS name, pg_get_indexdef(i.indexrelid) AS def
             FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ci ON ci.oid = i.indexrelid
            WHERE c.relname = ANY($1) AND c.relnamespace = 'public'::regnamespace AND NOT i.indisprimary
              AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
          [GROWN_TABLES],
        )
      ).rows;
      await step("drop indexes", async () => {
        for (const index of indexes) await q(`DROP INDEX "${index.name}"`);
      });
      progress(`  dropped ${indexes.length} secondary indexes of the grown tables`);
    }

    const table = async (name: keyof typeof rows, sql: string, expected: number = rows[name]) => {
      const count = await step(name, async () => (await q(sql)).rowCount ?? 0);
      if (count !== expected) throw new Error(`seeding ${name}: wrote ${count} rows, expected ${expected}`);
      written[name] = (written[name] ?? 0) + count;
      progress(`  seeded ${name}: ${count} rows in ${steps[name]!.toFixed(1)} s`);
    };
    const series = (count: number) => `generate_series(0, ${count - 1}) AS s(n)`;
    const U = rows.User;
    const L = rows.Wishlist;
    const P = rows.Product;
    const S = rows.PlatformShop;
    // List j: the default list of user j (j < U), the second list of user 5(j − U), the third of user 25(j − U − U/5).
    const ownerOf = (j: string) =>
      `(CASE WHEN ${j} < ${U} THEN ${j} WHEN ${j} < ${U + Math.floor(U / 5)} THEN (${j} - ${U}) * 5 ELSE (${j} - ${U + Math.floor(U / 5)}) * 25 END)`;

    await table(
      "User",
      `INSERT INTO "User" ("id", "email", "isAnonymous", "displayName", "isPremium", "lastSignInAt", "createdAt", "updatedAt")
       SELECT '${p}-u-' || n, CASE WHEN n % 10 >= 7 THEN '${p}-u-' || n || '@seed.example' END, n % 10 < 7, 'Shopper ' || n, n % 100 = 0,
              ${ago(`${uniform("n", 11)} * 86400 * 30`)}, ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${U})`)}, ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${U})`)}
         FROM ${series(U)}`,
    );
    await table(
      "AuthSession",
      `INSERT INTO "AuthSession" ("id", "userId", "createdAt") SELECT '${p}-s-' || n, '${p}-u-' || n, ${ago(`${uniform("n", 12)} * 86400 * 30`)} FROM ${series(U)}`,
    );
    await table(
      "RefreshToken",
      `INSERT INTO "RefreshToken" ("tokenHash", "sessionId", "expiresAt", "createdAt")
       SELECT '${p}-t-' || n, '${p}-s-' || n, ${ago(`-2592000 + n % 86400`)}, ${ago(`n % 86400`)} FROM ${series(U)}`,
    );
    await table(
      "Partner",
      `INSERT INTO "Partner" ("id", "name", "email", "plan", "planChangedAt", "createdAt")
       SELECT ${base.partner} + n, 'Partner ${p} ' || n, 'partner-${p}-' || n || '@seed.example',
              (ARRAY['free', 'starter', 'growth', 'scale'])[1 + n % 4], ${ago("n * 600")}, ${ago("n * 600")} FROM ${series(rows.Partner)}`,
    );
    await table(
      "PlatformShop",
      `INSERT INTO "PlatformShop" ("id", "partnerId", "domain", "name", "primaryDomain", "currency", "trialEndsAt", "subscriptionStatus", "updatedAt", "handle", "published")
       SELECT ${base.shop} + n, ${base.partner} + n % ${rows.Partner}, '${p}-shop-' || n || '.myshopify.com', 'Shop ${p} ' || n,
              '${p}-shop-' || n || '.example.com', 'EUR', ${ago("-1209600")}, 'active', ${ago("n * 60")},
              CASE WHEN n % 10 = 0 THEN '${p}-shop-' || n END, n % 10 = 0
         FROM ${series(S)}`,
    );
    await table(
      "ApiKey",
      `INSERT INTO "ApiKey" ("id", "partnerId", "key", "environment", "status", "allowedDomains", "createdAt")
       SELECT ${base.apiKey} + n, ${base.partner} + n / 5, 'pk_' || CASE WHEN n % 5 = 0 THEN 'test' ELSE 'live' END || '_${p}' || n || 'x0000000000000000',
              CASE WHEN n % 5 = 0 THEN 'test' ELSE 'live' END, 'active', '[]'::jsonb, ${ago("n * 60")}
         FROM ${series(rows.ApiKey)}`,
    );
    await table(
      "UsageCounter",
      `INSERT INTO "UsageCounter" ("partnerId", "period", "saves", "shares", "listViews", "total")
       SELECT ${base.partner} + n, '${month}', n % 900, n % 50, n % 300, n % 900 + n % 50 + n % 300 FROM ${series(rows.Partner)}`,
    );
    await table(
      "ApiKeyRequestCounter",
      `INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count")
       SELECT ${base.apiKey} + n / 50, CASE WHEN n % 50 = 0 THEN '${month}' ELSE to_char(${now} - (n % 50) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI') END, 1 + n % 97
         FROM ${series(rows.ApiKeyRequestCounter)}`,
    );
    await table(
      "Wishlist",
      `INSERT INTO "Wishlist" ("id", "shareToken", "ownerId", "name", "description", "imagePath", "sharePublic", "occasionSlug", "defaultKey", "createdAt", "updatedAt")
       SELECT ${base.list} + n, '${p}-l-' || n, '${p}-u-' || ${ownerOf("n")}, CASE WHEN n < ${U} THEN 'Wishlist' ELSE 'List ' || n END, '', '',
              n % 3 = 0, '', CASE WHEN n < ${U} THEN 'default' END,
              ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${L})`)}, ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${L}) - 3600`)}
         FROM ${series(L)}`,
    );
    await table(
      "Product",
      `INSERT INTO "Product" ("id", "canonicalUrl", "isManual", "productType", "sourcePartnerId", "sourceShopId", "sourceDomain", "available", "createdAt", "updatedAt")
       SELECT ${base.product} + n, 'https://${p}-shop-' || n % ${S} || '.example.com/products/p-' || n, false,
              (ARRAY['Mugs', 'Teapots', 'Shirts', 'Shoes', 'Books', 'Lamps', 'Toys', 'Bags', 'Plants', 'Games', 'Watches', 'Prints'])[1 + n % 12],
              ${base.partner} + (n % ${S}) % ${rows.Partner}, ${base.shop} + n % ${S}, '${p}-shop-' || n % ${S} || '.example.com', n % 20 <> 0,
              ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${P})`)}, ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${P}) - 60`)}
         FROM ${series(P)}`,
    );
    await table(
      "ProductLocalization",
      `INSERT INTO "ProductLocalization" ("productId", "market", "title", "description", "imageUrl", "priceMinor", "currency", "updatedAt")
       SELECT ${base.product} + n, 'de-DE', 'Product ${p} ' || n, 'A product of shop ' || n % ${S}, 'https://cdn.seed.example/p/' || n || '.jpg',
              500 + (n * 37) % 20000, 'EUR', ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${P})`)}
         FROM ${series(P)}`,
    );
    await table(
      "PricePoint",
      `INSERT INTO "PricePoint" ("productId", "market", "priceMinor", "currency", "recordedAt")
       SELECT ${base.product} + n, 'de-DE', 500 + (n * 37) % 20000, 'EUR', ${ago(`${SPAN_SECONDS} * (1 - n::float8 / ${P})`)} FROM ${series(P)}`,
    );

    // Items per list: Pareto, capped, scaled to the exact total.
    const cap = Math.min(ITEMS_CAP, P - 1);
    await step("ListItem", async () => {
      await q("DROP TABLE IF EXISTS seed_counts");
      await q(
        `CREATE TEMP TABLE seed_counts AS
         SELECT n AS j, LEAST(${cap}, floor(3 / power(${uniform("n", 21)}, 1 / 1.6)))::int AS c FROM ${series(L)}`,
      );
      const total = await scalar("SELECT SUM(c) FROM seed_counts");
      await q(`UPDATE seed_counts SET c = LEAST(${cap}, GREATEST(0, round(c * ${size.items}::float8 / ${total})))::int`);
      // Rounding leaves the sum a little off: take from or give to the first lists until it is exact.
      for (let pass = 0; pass < 100; pass++) {
        const diff = size.items - (await scalar("SELECT SUM(c) FROM seed_counts"));
        if (diff === 0) break;
        if (diff > 0) await q(`UPDATE seed_counts SET c = c + 1 WHERE j IN (SELECT j FROM seed_counts WHERE c < ${cap} ORDER BY j LIMIT ${diff})`);
        else await q(`UPDATE seed_counts SET c = c - 1 WHERE j IN (SELECT j FROM seed_counts WHERE c > 1 ORDER BY j LIMIT ${-diff})`);
      }
      await q("ANALYZE seed_counts");
    });
    // Item k of list j: product (first(j) + k·7919) mod P, where first(j) leans to the popular (low) end.
    // Saved through the widget when j + k is even (partner and shop set), else on the hosted pages.
    await table(
      "ListItem",
      `INSERT INTO "ListItem" ("wishlistId", "productId", "addedByUserId", "purchased", "purchasedAt", "purchaseConfirmed", "market",
                               "sourcePartnerId", "sourceShopId", "sourceDomain", "addedAt")
       SELECT ${base.list} + j, ${base.product} + pr, '${p}-u-' || ${ownerOf("j")}, (j + k) % 50 = 0,
              CASE WHEN (j + k) % 50 = 0 THEN ${now} END, false, 'de-DE',
              CASE WHEN (j + k) % 2 = 0 THEN ${base.partner} + (pr % ${S}) % ${rows.Partner} END,
              CASE WHEN (j + k) % 2 = 0 THEN ${base.shop} + pr % ${S} END,
              '${p}-shop-' || pr % ${S} || '.example.com',
              ${ago(`${SPAN_SECONDS} * (1 - j::float8 / ${L}) - k * 60`)}
         FROM seed_counts, generate_series(0, c - 1) AS g(k),
              LATERAL (SELECT ((floor(${P} * power(${uniform("j", 22)}, 3))::bigint + k::bigint * ${STRIDE}) % ${P})::int AS pr) AS chosen`,
    );
    await table(
      "UsageDedup",
      `INSERT INTO "UsageDedup" ("dedupKey", "partnerId", "createdAt")
       SELECT 'list_view:${p}-' || n || ':' || (n % 7919), ${base.partner} + n % ${rows.Partner}, ${ago("n % 144000")} FROM ${series(rows.UsageDedup)}`,
    );
    const dist = (
      await q(
        `SELECT COUNT(*) AS lists, MIN(c) AS min, percentile_disc(0.5) WITHIN GROUP (ORDER BY c) AS median,
                percentile_disc(0.9) WITHIN GROUP (ORDER BY c) AS p90, percentile_disc(0.99) WITHIN GROUP (ORDER BY c) AS p99,
                MAX(c) AS max, COUNT(*) FILTER (WHERE c > 0) AS "listsWithItems" FROM seed_counts`,
      )
    ).rows[0] as Record<string, string>;
    const itemsPerList = Object.fromEntries(Object.entries(dist).map(([k, v]) => [k, Number(v)])) as GrowthSeedReport["itemsPerList"];
    await q("DROP TABLE seed_counts");

    for (const [table, column] of [["Partner", "id"], ["PlatformShop", "id"], ["ApiKey", "id"], ["Wishlist", "id"], ["Product", "id"]]) {
      await q(`SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), (SELECT MAX("${column}") FROM "${table}"))`);
    }
    if (bulk) {
      await q("SET session_replication_role = origin");
      await step("build indexes", async () => {
        for (const index of indexes) {
          const t0 = performance.now();
          await q(index.def);
          progress(`  built ${index.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        }
      });
    }
    await step("VACUUM (ANALYZE)", () => q(`VACUUM (ANALYZE) ${GROWN_TABLES.map((t) => `"${t}"`).join(", ")}`));
    progress(`  VACUUM (ANALYZE) in ${steps["VACUUM (ANALYZE)"]!.toFixed(1)} s`);
    return { size, seconds: (performance.now() - started) / 1000, rows: written, seconds_by_step: steps, itemsPerList, bulk };
  } finally {
    await client.end();
  }
}
