// The shopper's consent that a shop (partner) may recognise them (docs/identity.md,
// "Consent"): a ShopperConsent row, made by a save or "stay signed in" in the save
// dialog that named the shop, or by joining a store customer. Every grant and every
// shopper credential of the pair lives only while the row does.
import { db, type Prisma } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";

/** Records the consent; true when it is the shopper's first for this shop (the dialog then offers "Not on this shop"). */
export async function recordConsent(userId: string, partnerId: number, host: string): Promise<boolean> {
  try {
    await db.shopperConsent.create({ data: { userId, partnerId, host } });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * The consent a join or a store's own account of its customer stands for (no "first time" to tell);
 * `client`: the caller's transaction, when the consent belongs to a larger change.
 */
export async function ensureConsent(userId: string, partnerId: number, host: string, client: Pick<Prisma.TransactionClient, "shopperConsent"> = db): Promise<void> {
  await client.shopperConsent.upsert({
    where: { userId_partnerId: { userId, partnerId } },
    create: { userId, partnerId, host },
    update: {},
  });
}

export async function hasConsent(userId: string, partnerId: number): Promise<boolean> {
  const row = await db.shopperConsent.findUnique({ where: { userId_partnerId: { userId, partnerId } }, select: { userId: true } });
  return row !== null;
}

/** Ends the consent, and with it every credential of the pair; `sid`: also drop that page's grant now. */
export async function endConsent(userId: string, partnerId: number, sid?: string): Promise<void> {
  await db.$transaction([
    db.shopperConsent.deleteMany({ where: { userId, partnerId } }),
    ...(sid ? [db.widgetSession.deleteMany({ where: { sid, partnerId } })] : []),
  ]);
}
