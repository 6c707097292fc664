// Customers of a platform shop and the shopper accounts that hold their lists.
// Shopify names a signed-in customer on app proxy requests
// (`logged_in_customer_id`) and in customer account session tokens; the app
// links each (shop, customer id) to one shopper account of ours, created on
// first sight. Customer ids are the shop's own: the same id at two shops is
// two customers and two links. The account made here has no password or
// e-mail of its own (it is anonymous, reachable only through the shop's
// signed requests), so the existing account migration can later move it into
// an account the shopper signs in to (account-link.server.ts).
//
// The link's primary key (shopId, customerId) makes the first sight
// race-safe: concurrent first requests all try to create, one wins, the others
// read the winner's link.
import { randomUUID } from "node:crypto";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { badRequest } from "~/lib/api/errors";

/** Shopify customer ids are positive 64-bit integers; they travel as decimal text. */
const CUSTOMER_ID = /^[1-9]\d{0,19}$/;

export function isCustomerId(value: unknown): value is string {
  return typeof value === "string" && CUSTOMER_ID.test(value);
}

function checked(customerId: string | number): string {
  const id = String(customerId);
  if (!isCustomerId(id)) throw badRequest("invalid_customer", "The customer id is not a Shopify customer id");
  return id;
}

export interface CustomerShopper {
  /** The shopper account (User.id) linked to the customer. */
  userId: string;
  /** True when this call made the account and the link. */
  created: boolean;
  /** False once the customer joined the account with one they sign in to (account-link.server.ts). */
  isAnonymous: boolean;
}

/**
 * The shopper account of a shop's customer, created and linked on first use.
 * Safe under concurrent first requests. A link to a deleted account (a
 * tombstone) is replaced by a fresh account.
 */
export async function shopperOfCustomer(shopId: number, customerId: string | number): Promise<CustomerShopper> {
  const id = checked(customerId);
  const key = { shopId_customerId: { shopId, customerId: id } };
  for (let attempt = 1; ; attempt++) {
    const link = await db.shopCustomer.findUnique({ where: key, select: { userId: true, user: { select: { deletedAt: true, isAnonymous: true } } } });
    if (link && !link.user.deletedAt) return { userId: link.userId, created: false, isAnonymous: link.user.isAnonymous };
    if (link) await db.shopCustomer.deleteMany({ where: { shopId, customerId: id, userId: link.userId } });
    try {
      // One nested write: the account exists only together with its link.
      const created = await db.shopCustomer.create({
        data: {
          shop: { connect: { id: shopId } },
          customerId: id,
          user: { create: { id: randomUUID(), isAnonymous: true } },
        },
        select: { userId: true },
      });
      return { userId: created.userId, created: true, isAnonymous: true };
    } catch (err) {
      // Another request linked the customer first: read its link on the next turn.
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

/** The customer id a shopper account is linked to at this shop, or null. */
export async function customerOfShopper(shopId: number, userId: string): Promise<string | null> {
  const link = await db.shopCustomer.findUnique({ where: { shopId_userId: { shopId, userId } }, select: { customerId: true } });
  return link?.customerId ?? null;
}

/** The link of one customer, for a data request (customers/data_request); null when there is none. */
export async function customerLink(shopId: number, customerId: string | number) {
  if (!isCustomerId(String(customerId))) return null;
  return db.shopCustomer.findUnique({
    where: { shopId_customerId: { shopId, customerId: String(customerId) } },
    select: { customerId: true, userId: true, createdAt: true },
  });
}

/** Forgets one customer's link (customers/redact); their account and lists are removed by the caller. */
export async function forgetCustomer(shopId: number, customerId: string | number): Promise<number> {
  if (!isCustomerId(String(customerId))) return 0;
  const { count } = await db.shopCustomer.deleteMany({ where: { shopId, customerId: String(customerId) } });
  return count;
}
