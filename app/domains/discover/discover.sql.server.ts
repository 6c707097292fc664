// Discovery's statements: the catalogue's title search and the rankings
// (catalogue.server.ts, discover.server.ts), each one statement whose plan the
// query-plan tests hold to its index ranges.
import type { ListItem, ProductLocalization, Product } from "~/db.server";
import { all, readExec, statement } from "~/db/sql.server";

type Saves = { saves: number };

// Case-insensitive title match on both databases (lower() on each side;
// Prisma's `contains` is case-sensitive on PostgreSQL). A title search reads
// the localizations table; the page is bounded by LIMIT.
const SEARCH = statement<Pick<Product, "id">>(
  "discover_product_search",
  `SELECT p."id" FROM "Product" p
   WHERE p."isManual" = false AND EXISTS (
     SELECT 1 FROM "ProductLocalization" l
     WHERE l."productId" = p."id" AND lower(l."title") LIKE $1 ESCAPE '\\' AND ($2 = '' OR l."market" = $2))
   ORDER BY p."id" DESC LIMIT $3 OFFSET $4`,
);

/** Ids of products whose title (lower-cased) matches the LIKE `pattern`, in `market` ("" for any), newest first. */
export const searchProductIds = (pattern: string, market: string, limit: number, offset: number) =>
  readExec(() => all(SEARCH, pattern, market, limit, offset));

// The window's saves by a range of ListItem(addedAt, productId); each product
// and its localization in the market by primary key. MATERIALIZED keeps the
// planner on the window's range (on small tables SQLite would rather walk the
// productId index to skip the GROUP BY sort: the whole table); the product
// is looked up per counted row (a join could be planned as a merge over the
// whole Product index).
const TRENDING = statement<Pick<ListItem, "productId"> & Saves>(
  "discover_trending",
  `WITH "recent" AS MATERIALIZED (SELECT "productId" FROM "ListItem" WHERE "addedAt" >= $1),
   "counted" AS MATERIALIZED (SELECT "productId", COUNT(*) AS "saves" FROM "recent" GROUP BY "productId")
   SELECT "productId", "saves" FROM "counted"
   WHERE (SELECT p."isManual" FROM "Product" p WHERE p."id" = "counted"."productId") = false
     AND ($2 = '' OR EXISTS (SELECT 1 FROM "ProductLocalization" l WHERE l."productId" = "counted"."productId" AND l."market" = $2))
   ORDER BY "saves" DESC, "productId" DESC LIMIT $3`,
);

/** The products saved most since `since` (in `market`, "" for any), most first. */
export const trendingProducts = (since: Date, market: string, limit: number) => readExec(() => all(TRENDING, since, market, limit));

const MARKETS = statement<Pick<ProductLocalization, "market">>("discover_markets", `SELECT DISTINCT "market" FROM "ProductLocalization"`);

/** The markets the catalogue holds localizations for. */
export const catalogueMarkets = () => readExec(() => all(MARKETS));

// The window's saves (ListItem(addedAt, …) range), their lists by primary key.
const CURATED = statement<Pick<ListItem, "wishlistId"> & Saves>(
  "discover_curated_lists",
  `WITH "recent" AS MATERIALIZED (SELECT "wishlistId" FROM "ListItem" WHERE "addedAt" >= $1)
   SELECT "recent"."wishlistId", COUNT(*) AS "saves"
   FROM "recent" JOIN "Wishlist" w ON w."id" = "recent"."wishlistId"
   WHERE w."sharePublic" = true AND ($2 = '' OR w."occasionSlug" = $2)
   GROUP BY "recent"."wishlistId" ORDER BY "saves" DESC, "recent"."wishlistId" DESC LIMIT $3`,
);

/** Public lists (of `occasion`, "" for any) with the most saves since `since`, most first. */
export const curatedListIds = (since: Date, occasion: string, limit: number) => readExec(() => all(CURATED, since, occasion, limit));

// The public lists of an occasion by Wishlist(occasionSlug, sharePublic), their items by list.
const OCCASION_PRODUCTS = statement<Pick<ListItem, "productId"> & Saves>(
  "discover_occasion_products",
  `SELECT i."productId", COUNT(*) AS "saves"
   FROM "Wishlist" w JOIN "ListItem" i ON i."wishlistId" = w."id" JOIN "Product" p ON p."id" = i."productId"
   WHERE w."occasionSlug" = $1 AND w."sharePublic" = true AND p."isManual" = false
   GROUP BY i."productId" ORDER BY "saves" DESC, i."productId" DESC LIMIT $2`,
);

/** The products saved most in the public lists of the occasion, most first. */
export const occasionProducts = (occasionSlug: string, limit: number) => readExec(() => all(OCCASION_PRODUCTS, occasionSlug, limit));
