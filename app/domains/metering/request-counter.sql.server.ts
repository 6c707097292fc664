// The request counter's one statement (raw Prisma SQL: an upsert that returns the new count).
import { db } from "~/db.server";

/** Adds `delta` to a key's count in `window` and returns the new total. */
export async function addToRequestCount(apiKeyId: number, window: string, delta: number): Promise<number> {
  const rows = await db.$queryRaw<{ count: number | bigint }[]>`
    INSERT INTO "ApiKeyRequestCounter" ("apiKeyId", "window", "count") VALUES (${apiKeyId}, ${window}, ${delta})
    ON CONFLICT ("apiKeyId", "window") DO UPDATE SET "count" = "ApiKeyRequestCounter"."count" + excluded."count"
    RETURNING "count"`;
  return Number(rows[0]!.count);
}
