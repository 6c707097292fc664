// The scheduled re-read's one statement Prisma cannot say: a given-up product
// comes back when a shopper saved it after it was given up on (comparing two
// columns). ListItem's (productId, addedAt) index answers the EXISTS.
import { run, statement } from "~/db/sql.server";

const REVIVE = statement(
  "rescrape_revive",
  `UPDATE "ProductRescrape" SET "gaveUpAt" = NULL, "failures" = 0, "dueAt" = $1
   WHERE "gaveUpAt" IS NOT NULL
     AND EXISTS (SELECT 1 FROM "ListItem" i WHERE i."productId" = "ProductRescrape"."productId" AND i."addedAt" > "ProductRescrape"."gaveUpAt")`,
);

/** Makes given-up products with a newer save due at `now`; the number revived. */
export const reviveGivenUp = (now: Date) => run(REVIVE, now);
