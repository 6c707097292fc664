// The day count's upsert (raw Prisma SQL, so it can run in a batch transaction beside the event's insert).
import { db } from "~/db.server";

/** Adds one to a partner's count of `event` on `day`. */
export const countAnalyticsDay = (partnerId: number, day: string, event: string) =>
  db.$executeRaw`INSERT INTO "AnalyticsDay" ("partnerId", "day", "event", "count") VALUES (${partnerId}, ${day}, ${event}, 1)
    ON CONFLICT ("partnerId", "day", "event") DO UPDATE SET "count" = "AnalyticsDay"."count" + 1`;
