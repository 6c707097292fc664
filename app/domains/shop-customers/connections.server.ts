// "Connected shops" on My lists (docs/identity.md, "Joins and merges"): every
// store the account is joined with (its ShopCustomer links) and every shop
// that currently recognises the shopper (ShopperConsent), one entry per
// partner, and Disconnect, which ends both for that partner. The items stay
// in the account; the store customer gets a fresh store account of their
// own on their next visit (shopperOfCustomer makes one for a customer
// without a link), and the customer metafield mirror is rewritten for them.
import { db } from "~/db.server";
import { publish } from "~/domains/events/events.server";
import { notFound } from "~/lib/api/errors";
import { log } from "~/lib/log.server";

export interface Connection {
  partner_id: number;
  /** The shop's name when it is a Shopify store that told us, else its host. */
  name: string;
  /** What the shopper knows the shop by: its primary domain, myshopify domain, or the host the dialog named. */
  host: string;
  /** The account is joined with a customer account of this store. */
  joined: boolean;
  /** The shop may recognise the shopper (a consent). */
  recognised: boolean;
  /** Since when (ISO 8601): the consent's date, else the store link's. */
  since: string;
}

export async function connectionsOf(userId: string): Promise<{ connections: Connection[] }> {
  const [links, consents] = await Promise.all([
    db.shopCustomer.findMany({
      where: { userId },
      select: { createdAt: true, shop: { select: { partnerId: true, domain: true, primaryDomain: true, name: true } } },
    }),
    db.shopperConsent.findMany({ where: { userId }, select: { partnerId: true, host: true, createdAt: true } }),
  ]);
  const byPartner = new Map<number, Connection>();
  for (const link of links) {
    const host = link.shop.primaryDomain ?? link.shop.domain;
    byPartner.set(link.shop.partnerId, {
      partner_id: link.shop.partnerId,
      name: link.shop.name?.trim() || host,
      host,
      joined: true,
      recognised: false,
      since: link.createdAt.toISOString(),
    });
  }
  for (const consent of consents) {
    const known = byPartner.get(consent.partnerId);
    if (known) Object.assign(known, { recognised: true, since: consent.createdAt.toISOString() });
    else byPartner.set(consent.partnerId, { partner_id: consent.partnerId, name: consent.host, host: consent.host, joined: false, recognised: true, since: consent.createdAt.toISOString() });
  }
  const connections = [...byPartner.values()].sort((a, b) => b.since.localeCompare(a.since) || a.partner_id - b.partner_id);
  return { connections };
}

/**
 * `DELETE /hosted/me/connections/{partnerId}`: the partner's shops no longer
 * recognise the shopper and the account is no longer joined with their
 * customers. 404 when there was nothing to end.
 */
export async function disconnect(userId: string, partnerId: number) {
  const { links, consents } = await db.$transaction(async (tx) => {
    const links = await tx.shopCustomer.findMany({ where: { userId, shop: { partnerId } }, select: { shopId: true, customerId: true } });
    const { count } = await tx.shopperConsent.deleteMany({ where: { userId, partnerId } });
    for (const link of links) await tx.shopCustomer.deleteMany({ where: { shopId: link.shopId, customerId: link.customerId, userId } });
    return { links, consents: count };
  });
  if (links.length === 0 && consents === 0) throw notFound("not_found", "This shop is not connected with your account");
  // The customer's mirror now says what their next store account holds: nothing yet.
  for (const link of links) await publish("customer.unlinked", { shopId: link.shopId, customerId: link.customerId });
  log.info("shop disconnected", { partnerId, shops: links.length, consents });
  return { ok: true as const, disconnected: { shops: links.length, consents } };
}
