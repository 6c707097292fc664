// Many shoppers who saved one product, written straight into a test database
// (either kind) with one INSERT … SELECT per table: the fan-out tests and the
// peak benchmark need thousands, and the save and opt-in paths they would go
// through one by one are tested elsewhere (tests/alerts/alerts.test.ts).
import { sql } from "./sql.ts";

export interface SaverSeed {
  /** Unique per call: user ids, share tokens and addresses start with it. */
  tag: string;
  count: number;
  productId: number;
  variantId: string | null;
  /** Every n-th shopper (i % n === 0) asked for alerts but never confirmed; 0 = none. */
  unconfirmedEvery?: number;
  /** Every n-th shopper (i % n === 1) never asked for alerts; 0 = none. */
  noConsentEvery?: number;
  lang?: "en" | "de";
}

/** The address of saver `i` (1-based) of a seed. */
export const saverEmail = (tag: string, i: number) => `${tag}-${i}@savers.test`;

/** Whether saver `i` confirmed alerts (and should get one e-mail per alert). */
export const saverOptedIn = (seed: Pick<SaverSeed, "unconfirmedEvery" | "noConsentEvery">, i: number) =>
  !(seed.unconfirmedEvery && i % seed.unconfirmedEvery === 0) && !(seed.noConsentEvery && i % seed.noConsentEvery === 1);

/** Writes `count` users, their consents, lists and the saves of the product; returns the opted-in addresses. */
export async function seedSavers(databaseUrl: string, seed: SaverSeed): Promise<string[]> {
  const pg = !databaseUrl.startsWith("file:");
  // Prisma's DateTime as each database stores it: ISO text on SQLite, timestamp(3) on PostgreSQL.
  const now = new Date();
  const at = pg ? now : now.toISOString().replace("Z", "+00:00");
  const text = (p: string) => (pg ? `CAST(${p} AS TEXT)` : p);
  const stamp = pg ? "CAST(? AS TIMESTAMP(3))" : "?";
  const series = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Math.trunc(seed.count)})`;
  const id = `${text("?")} || '-' || ${text("i")}`;
  const unconfirmed = seed.unconfirmedEvery ? `i % ${Math.trunc(seed.unconfirmedEvery)} = 0` : "1 = 0";
  const noConsent = seed.noConsentEvery ? `i % ${Math.trunc(seed.noConsentEvery)} = 1` : "1 = 0";
  await sql(databaseUrl, `${series} INSERT INTO "User" ("id", "email", "createdAt", "updatedAt") SELECT ${id}, ${id} || '@savers.test', ${stamp}, ${stamp} FROM n`, [
    seed.tag,
    seed.tag,
    at,
    at,
  ]);
  await sql(
    databaseUrl,
    `${series} INSERT INTO "AlertConsent" ("userId", "email", "lang", "confirmedAt", "createdAt")
     SELECT ${id}, ${id} || '@savers.test', ?, CASE WHEN ${unconfirmed} THEN NULL ELSE ${stamp} END, ${stamp} FROM n WHERE NOT (${noConsent})`,
    [seed.tag, seed.tag, seed.lang ?? "en", at, at],
  );
  await sql(databaseUrl, `${series} INSERT INTO "Wishlist" ("shareToken", "ownerId", "name", "createdAt", "updatedAt") SELECT ${id}, ${id}, 'Saved', ${stamp}, ${stamp} FROM n`, [
    seed.tag,
    seed.tag,
    at,
    at,
  ]);
  await sql(
    databaseUrl,
    `INSERT INTO "ListItem" ("wishlistId", "productId", "variantId", "addedAt") SELECT w."id", ?, ?, ${stamp} FROM "Wishlist" w WHERE w."shareToken" LIKE ? ORDER BY w."id"`,
    [seed.productId, seed.variantId, at, `${seed.tag}-%`],
  );
  const emails: string[] = [];
  for (let i = 1; i <= seed.count; i++) if (saverOptedIn(seed, i)) emails.push(saverEmail(seed.tag, i));
  return emails;
}
