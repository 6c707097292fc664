// Folding one list into another when two accounts become one
// (docs/identity.md, "Joins and merges"): the moved list's items join the
// target list, and a product the target already holds keeps one item. Runs
// inside the caller's transaction; every step acts only on rows still in the
// source list, so a repeat finds nothing left to do.
import type { Prisma } from "~/db.server";

type Tx = Prisma.TransactionClient;

/** Fields the kept item takes from the other one when it has none of its own. */
const OWN_FIELDS = [
  "addedByUserId",
  "market",
  "offerId",
  "sourceLabel",
  "priceOverrideMinor",
  "currencyOverride",
  "variantId",
  "ownTitle",
  "ownDescription",
  "ownImageUrl",
  "ownPriceMinor",
  "ownCurrency",
  "sourcePartnerId",
  "sourceShopId",
  "sourceDomain",
] as const;

const itemSelect = {
  id: true,
  productId: true,
  addedAt: true,
  priority: true,
  purchased: true,
  purchasedAt: true,
  purchaseConfirmed: true,
  checkoutMeta: true,
  addedByUserId: true,
  market: true,
  offerId: true,
  sourceLabel: true,
  priceOverrideMinor: true,
  currencyOverride: true,
  variantId: true,
  ownTitle: true,
  ownDescription: true,
  ownImageUrl: true,
  ownPriceMinor: true,
  ownCurrency: true,
  sourcePartnerId: true,
  sourceShopId: true,
  sourceDomain: true,
} as const satisfies Prisma.ListItemSelect & Record<(typeof OWN_FIELDS)[number], true>;

type Item = Prisma.ListItemGetPayload<{ select: typeof itemSelect }>;

const earlier = (a: Date | null, b: Date | null) => (a && b ? (a <= b ? a : b) : (a ?? b));
/** Priorities run 1 (highest) to 4; none ranks below any. */
const higherPriority = (a: number | null, b: number | null) => (a !== null && b !== null ? Math.min(a, b) : (a ?? b));

/** What the kept item becomes when `other` (the same product) is folded into it. */
function combined(kept: Item, other: Item): Prisma.ListItemUncheckedUpdateInput {
  const purchased = kept.purchased || other.purchased;
  const data: Prisma.ListItemUncheckedUpdateInput = {
    addedAt: earlier(kept.addedAt, other.addedAt)!,
    priority: higherPriority(kept.priority, other.priority),
    purchased,
    purchasedAt: purchased ? earlier(kept.purchased ? kept.purchasedAt : null, other.purchased ? other.purchasedAt : null) : null,
    purchaseConfirmed: kept.purchaseConfirmed || other.purchaseConfirmed,
  };
  for (const field of OWN_FIELDS) {
    if (kept[field] === null && other[field] !== null) (data as Record<string, unknown>)[field] = other[field];
  }
  if (kept.checkoutMeta === null && other.checkoutMeta !== null) data.checkoutMeta = other.checkoutMeta as Prisma.InputJsonValue;
  return data;
}

/** Re-points what names `fromId` to `toId`, so nothing that referred to the dropped item is lost. */
async function repointReferences(tx: Tx, fromId: number, toId: number) {
  // One confirmation per order and item: an order that confirmed both keeps the kept item's.
  const confirmed = await tx.purchaseConfirmation.findMany({ where: { listItemId: toId }, select: { orderId: true } });
  if (confirmed.length > 0) {
    await tx.purchaseConfirmation.deleteMany({ where: { listItemId: fromId, orderId: { in: confirmed.map((c) => c.orderId) } } });
  }
  await tx.purchaseConfirmation.updateMany({ where: { listItemId: fromId }, data: { listItemId: toId } });
  await tx.attributedLine.updateMany({ where: { listItemId: fromId }, data: { listItemId: toId } });
  await tx.alertSent.updateMany({ where: { listItemId: fromId }, data: { listItemId: toId } });
}

export interface ListMerge {
  /** Items that joined the target list as they were. */
  moved: number;
  /** Items of a product the target list held already, folded into its item. */
  duplicates: number;
}

/**
 * Moves every item of `sourceId` into `targetId`. The target's item of a
 * product stays (its id, so its references and links stay valid) and takes
 * the earliest added date, the highest priority, purchased and confirmed if
 * either was, and the other item's own fields where it has none.
 */
export async function mergeListItems(tx: Tx, sourceId: number, targetId: number): Promise<ListMerge> {
  const items = await tx.listItem.findMany({ where: { wishlistId: sourceId }, select: itemSelect, orderBy: { id: "asc" } });
  if (items.length === 0) return { moved: 0, duplicates: 0 };
  const existing = await tx.listItem.findMany({
    where: { wishlistId: targetId, productId: { in: items.map((i) => i.productId) } },
    select: itemSelect,
  });
  const kept = new Map(existing.map((i) => [i.productId, i]));
  const result: ListMerge = { moved: 0, duplicates: 0 };
  for (const item of items) {
    const target = kept.get(item.productId);
    if (!target) {
      await tx.listItem.update({ where: { id: item.id }, data: { wishlistId: targetId }, select: { id: true } });
      result.moved++;
      continue;
    }
    await tx.listItem.update({ where: { id: target.id }, data: combined(target, item), select: { id: true } });
    await repointReferences(tx, item.id, target.id);
    await tx.listItem.delete({ where: { id: item.id }, select: { id: true } });
    result.duplicates++;
  }
  // Imports that filled the source list now sync into the target.
  await tx.listImport.updateMany({ where: { wishlistId: sourceId }, data: { wishlistId: targetId } });
  return result;
}

/** `name`, or `name (2)`, `name (3)` … : the first that is not in `taken` (compared case-insensitively). */
export function freeListName(name: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((n) => n.trim().toLowerCase()));
  if (!used.has(name.trim().toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name} (${n})`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
