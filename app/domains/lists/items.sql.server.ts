// The items' statements. Reading: the items of one list with their products
// and localizations, in one SQL join. This is the read behind every list view
// (owner and share page): a prepared statement rather than a Prisma
// `include`, which cost about five times a raw query (4.2 ms vs 0.8 ms for 50
// items on SQLite) before the query compiler's own cost per call; shaped into
// the rows the serializers take (serialize.ts), whose columns it selects.
// Writing: the save's item upsert and the list's touch, steps of the save's
// transaction (save.server.ts).
import type { ListItem } from "~/db.server";
import { all, one, readExec, run, statement, type Op } from "~/db/sql.server";
import { ITEM_COLUMNS, ITEM_PRODUCT_COLUMNS, LOCALIZATION_COLUMNS, type ItemRow } from "./serialize";
import type { Localization } from "~/domains/products/localization";

type ItemColumn = (typeof ITEM_COLUMNS)[number];
type ProductColumn = (typeof ITEM_PRODUCT_COLUMNS)[number];
type LocalizationColumn = (typeof LOCALIZATION_COLUMNS)[number];
// One flat row per item and localization; the tables' columns under prefixed names (item i, product p, localization l).
type Row = { [C in ItemColumn as `i.${C}`]: ItemRow[C] } & { [C in ProductColumn as `p.${C}`]: ItemRow["product"][C] } & {
  [C in LocalizationColumn as `l.${C}`]: Localization[C] | null;
} & { supplierPartnerId: number | null };

const select = (alias: string, columns: readonly string[]) => columns.map((c) => `${alias}."${c}" AS "${alias}.${c}"`).join(", ");

const LIST_ITEMS = statement<Row>(
  "list_items",
  `SELECT ${select("i", ITEM_COLUMNS)},
          COALESCE(i."sourcePartnerId", p."sourcePartnerId") AS "supplierPartnerId",
          ${select("p", ITEM_PRODUCT_COLUMNS)},
          ${select("l", LOCALIZATION_COLUMNS)}
   FROM "ListItem" i
   JOIN "Product" p ON p."id" = i."productId"
   LEFT JOIN "ProductLocalization" l ON l."productId" = p."id"
   WHERE i."wishlistId" = $1
   ORDER BY i."addedAt" DESC, i."id" DESC, l."market" ASC`,
  { "i.purchased": "bool", "i.addedAt": "date" },
);

/** An item as readListItems gives it: what the serializers take, plus who supplied it. */
export interface ListItemRow extends ItemRow {
  /** The partner that supplied the item (the item's source partner, else the product's), as metering attributes it. */
  supplierPartnerId: number | null;
}

function columnsOf<C extends string>(row: Row, alias: string, columns: readonly C[]): Record<C, unknown> {
  const picked = {} as Record<C, unknown>;
  for (const c of columns) picked[c] = (row as unknown as Record<string, unknown>)[`${alias}.${c}`];
  return picked;
}

/** Items of the list, newest first, shaped like the Prisma rows the serializers take (on the replica within a publicReads). */
export async function readListItems(wishlistId: number): Promise<ListItemRow[]> {
  const rows = await readExec(() => all(LIST_ITEMS, wishlistId));
  const items = new Map<number, ListItemRow>();
  for (const r of rows) {
    let item = items.get(r["i.id"]);
    if (!item) {
      const product = { ...columnsOf(r, "p", ITEM_PRODUCT_COLUMNS), localizations: [] } as unknown as ItemRow["product"];
      item = { ...(columnsOf(r, "i", ITEM_COLUMNS) as Pick<ListItem, ItemColumn>), supplierPartnerId: r.supplierPartnerId, product };
      items.set(r["i.id"], item);
    }
    if (r["l.market"] !== null) {
      const localization = columnsOf(r, "l", LOCALIZATION_COLUMNS) as Localization;
      localization.title ??= "";
      localization.description ??= "";
      item.product.localizations.push(localization);
    }
  }
  return [...items.values()];
}

// The saver's item, created or updated in place (one per list and product).
// Metadata and priority a save does not carry keep their stored values.
// `added`: the row is new (an update keeps the stored addedAt).
const UPSERT_ITEM = statement<Pick<ListItem, "id"> & { added: boolean }>(
  "list_item_save",
  `INSERT INTO "ListItem" ("wishlistId", "productId", "addedByUserId", "market", "offerId", "sourceLabel", "checkoutMeta", "variantId",
     "sourcePartnerId", "sourceShopId", "sourceDomain", "priority", "ownTitle", "ownDescription", "ownImageUrl", "ownPriceMinor",
     "ownCurrency", "addedAt")
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
   ON CONFLICT ("wishlistId", "productId") DO UPDATE SET
     "addedByUserId" = excluded."addedByUserId", "market" = excluded."market", "offerId" = excluded."offerId",
     "sourceLabel" = excluded."sourceLabel", "checkoutMeta" = COALESCE(excluded."checkoutMeta", "ListItem"."checkoutMeta"),
     "variantId" = excluded."variantId", "sourcePartnerId" = excluded."sourcePartnerId", "sourceShopId" = excluded."sourceShopId",
     "sourceDomain" = excluded."sourceDomain", "priority" = COALESCE(excluded."priority", "ListItem"."priority"),
     "ownTitle" = excluded."ownTitle", "ownDescription" = excluded."ownDescription", "ownImageUrl" = excluded."ownImageUrl",
     "ownPriceMinor" = excluded."ownPriceMinor", "ownCurrency" = excluded."ownCurrency"
   RETURNING "id", "addedAt" = $18 AS "added"`,
  { added: "bool" },
);

/** What a save writes on its item; `checkoutMeta` as JSON text. */
export type SavedItem = Pick<
  ListItem,
  | "wishlistId"
  | "productId"
  | "addedByUserId"
  | "market"
  | "offerId"
  | "sourceLabel"
  | "variantId"
  | "sourcePartnerId"
  | "sourceShopId"
  | "sourceDomain"
  | "priority"
  | "ownTitle"
  | "ownDescription"
  | "ownImageUrl"
  | "ownPriceMinor"
  | "ownCurrency"
  | "addedAt"
> & { checkoutMeta: string | null };

/** Creates or updates the saver's item (a transaction step); `added` when it is new. */
export function* upsertSavedItem(item: SavedItem): Op<{ id: number; added: boolean }> {
  const row = yield* one(
    UPSERT_ITEM,
    item.wishlistId,
    item.productId,
    item.addedByUserId,
    item.market,
    item.offerId,
    item.sourceLabel,
    item.checkoutMeta,
    item.variantId,
    item.sourcePartnerId,
    item.sourceShopId,
    item.sourceDomain,
    item.priority,
    item.ownTitle,
    item.ownDescription,
    item.ownImageUrl,
    item.ownPriceMinor,
    item.ownCurrency,
    item.addedAt,
  );
  return row!;
}

const TOUCH_LIST = statement("list_touch", `UPDATE "Wishlist" SET "updatedAt" = $2 WHERE "id" = $1`);

/** Marks the list changed at `at` (a transaction step). */
export const touchList = (wishlistId: number, at: Date) => run(TOUCH_LIST, wishlistId, at);
