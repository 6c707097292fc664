// The lease's statements (raw Prisma SQL): expiry is written and compared with the database's clock.
import { db } from "~/db.server";

/** One statement: insert when free, or overwrite when it is `holder`'s or has expired; returns the holder after it. */
export async function upsertLease(postgres: boolean, name: string, holder: string, ttlMs: number): Promise<string | undefined> {
  const rows = postgres
    ? await db.$queryRaw<{ holder: string }[]>`
        INSERT INTO "JobLease" ("name", "holder", "expiresAt")
        VALUES (${name}, ${holder}, (clock_timestamp() AT TIME ZONE 'UTC') + ${ttlMs}::int * interval '1 millisecond')
        ON CONFLICT ("name") DO UPDATE SET "holder" = excluded."holder", "expiresAt" = excluded."expiresAt"
        WHERE "JobLease"."holder" = excluded."holder" OR "JobLease"."expiresAt" <= (clock_timestamp() AT TIME ZONE 'UTC')
        RETURNING "holder"`
    : await db.$queryRaw<{ holder: string }[]>`
        INSERT INTO "JobLease" ("name", "holder", "expiresAt")
        VALUES (${name}, ${holder}, strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || (${ttlMs} / 1000.0) || ' seconds'))
        ON CONFLICT ("name") DO UPDATE SET "holder" = excluded."holder", "expiresAt" = excluded."expiresAt"
        WHERE "JobLease"."holder" = excluded."holder" OR "JobLease"."expiresAt" <= strftime('%Y-%m-%d %H:%M:%f', 'now')
        RETURNING "holder"`;
  return rows[0]?.holder;
}

/** Deletes the lease row if `holder` has it; returns the rows deleted (0 or 1). */
export const deleteLease = (name: string, holder: string): Promise<number> => db.$executeRaw`DELETE FROM "JobLease" WHERE "name" = ${name} AND "holder" = ${holder}`;
