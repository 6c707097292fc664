// Manual products (a shopper's own typed entries): each belongs to one user
// and lives only while an item uses it.
import { db } from "~/db.server";

/** Deletes those of `productIds` that are manual and no item uses any more. */
export async function deleteOrphanManualProducts(productIds: number[]) {
  if (productIds.length === 0) return;
  await db.product.deleteMany({ where: { id: { in: productIds }, isManual: true, items: { none: {} } } });
}
