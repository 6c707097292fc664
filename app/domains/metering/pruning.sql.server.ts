// The prune job's deletes (raw Prisma SQL): each removes at most `limit` rows found through an index range.
import { db } from "~/db.server";

/** Deletes minute windows in [from, cutoff) (month windows, 7 characters, sort among them and are skipped); returns the windows deleted. */
export async function deleteMinuteWindows(from: string, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ window: string }[]>`
    DELETE FROM "ApiKeyRequestCounter" WHERE ("apiKeyId", "window") IN (
      SELECT "apiKeyId", "window" FROM "ApiKeyRequestCounter"
      WHERE "window" >= ${from} AND "window" < ${cutoff} AND length("window") > 7
      ORDER BY "window" LIMIT ${limit})
    RETURNING "window"`;
  return rows.map((r) => r.window);
}

/** Deletes dedup keys created before `cutoff`, month keys (`month:…`) only before `monthCutoff`; returns how many. */
export const deleteUsageDedup = (cutoff: string, monthCutoff: string, limit: number): Promise<number> => db.$executeRaw`
  DELETE FROM "UsageDedup" WHERE "dedupKey" IN (
    SELECT "dedupKey" FROM "UsageDedup"
    WHERE "createdAt" < ${cutoff} AND ("dedupKey" NOT LIKE 'month:%' OR "createdAt" < ${monthCutoff})
    ORDER BY "createdAt" LIMIT ${limit})`;

/** Deletes sign-in throttle rows whose last failure is before `cutoff` (epoch ms); returns how many. */
export const deleteSignInThrottle = (cutoff: number, limit: number): Promise<number> => db.$executeRaw`
  DELETE FROM "SignInThrottle" WHERE "key" IN (
    SELECT "key" FROM "SignInThrottle" WHERE "lastFailureAt" < ${cutoff} ORDER BY "lastFailureAt" LIMIT ${limit})`;
