// Shopify's mandatory compliance webhooks (docs/shopify.md "Shopify webhooks"). The
// customer data the app holds for a shop: what orders/create derived
// (purchase confirmations: order id, customer id, list item; attributed
// orders, docs/revenue.md: order id, customer id, lines) and the link of a
// customer signed in to the store to the shopper account the app proxy made
// for them (ShopCustomer, app/domains/shop-customers). Other shoppers' own
// lists belong to the shoppers, not to the shop, and are never touched here.
import { db } from "~/db.server";
import type { Prisma } from "~/db.server";
import type { PlatformWebhook } from "~/domains/shops/webhook-deliveries.server";
import { findPlatformShop } from "~/domains/shops/platform-webhooks.server";
import { items, record, shopifyId } from "~/domains/shops/payload";
import { allowedDomainsOf } from "~/domains/keys/key-rules";
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import { deleteAccount } from "./account-deletion.server";
import { customerLink, forgetCustomer } from "~/domains/shop-customers/shop-customers.server";
import { forgetCustomerTriggers, forgetShopTriggers, triggersOfCustomer } from "~/domains/flow/triggers.server";
import { alertDataOf, forgetAlertsOfShop } from "~/domains/alerts/alerts.server";
import { forgetAlertsOfUser } from "~/domains/alerts/consent.server";
import { itemsOfShop, type ShopScope } from "~/domains/lists/shop-items";
import { pairwiseShopperId } from "~/domains/widget/pairwise.server";

/**
 * The customer's link to their shopper account and what that account saved from this shop, for a data request:
 * never other shops' items of a joined account, and the shop's pairwise id of the account, never its own id.
 */
async function linkedAccountData(shop: ShopScope | null, customerId: string | null) {
  const link = shop && customerId ? await customerLink(shop.id, customerId) : null;
  if (!link || !shop) return null;
  const shopId = shop.id;
  const items = await db.listItem.findMany({
    where: { wishlist: { ownerId: link.userId }, ...itemsOfShop(shop) },
    orderBy: { id: "asc" },
    take: 1000,
    select: { id: true, addedAt: true, ownTitle: true, wishlist: { select: { name: true } }, product: { select: { canonicalUrl: true } } },
  });
  return {
    customer_id: link.customerId,
    account_id: await pairwiseShopperId(shop.partnerId, link.userId),
    linked_at: link.createdAt.toISOString(),
    saved_products: items.map((i) => ({ list: i.wishlist.name, url: i.product.canonicalUrl, title: i.ownTitle, saved_at: i.addedAt.toISOString() })),
    // The alert address and consent (docs/alerts.md), and the alerts this shop sent.
    alerts: await alertDataOf(link.userId, shopId),
  };
}

/**
 * Forgets the customer's link; the account the proxy made for them (no e-mail
 * or password of its own, linked to no other shop) goes with its lists, as an
 * account deletion does: nothing could reach it any more.
 */
async function forgetLinkedAccount(shopId: number | undefined, customerId: string | null): Promise<{ links: number; account_deleted: boolean; alert_consents_deleted: number }> {
  const link = shopId && customerId ? await customerLink(shopId, customerId) : null;
  if (!shopId || !customerId || !link) return { links: 0, account_deleted: false, alert_consents_deleted: 0 };
  // The alert address is personal data of the customer: it goes with the link, also from an account they
  // joined with the store's (they may opt in again on "My lists").
  const alerts = await forgetAlertsOfUser(link.userId);
  const links = await forgetCustomer(shopId, customerId);
  const user = await db.user.findUnique({ where: { id: link.userId }, select: { isAnonymous: true, email: true, deletedAt: true, _count: { select: { shopCustomers: true } } } });
  const alone = !!user && user.isAnonymous && !user.email && !user.deletedAt && user._count.shopCustomers === 0;
  if (alone) await deleteAccount(link.userId);
  return { links, account_deleted: alone, alert_consents_deleted: alerts.consents };
}

/** The confirmations of one customer of a shop: by customer id, or by the orders named. */
function customerConfirmations(shopDomain: string, payload: unknown) {
  const body = record(payload);
  const customerId = shopifyId(record(body.customer).id);
  const orderIds = [...items(body.orders_requested), ...items(body.orders_to_redact)]
    .map(shopifyId)
    .filter((id): id is string => id !== null)
    .slice(0, 1000);
  const or: Prisma.PurchaseConfirmationWhereInput[] = [];
  if (customerId) or.push({ customerId });
  if (orderIds.length) or.push({ orderId: { in: orderIds } });
  return { customerId, orderIds, where: or.length ? { shopDomain, OR: or } : null };
}

/** The shop's attributed orders of the customer: by customer id, or by the orders named. */
function customerAttributedOrders(shopId: number | undefined, customerId: string | null, orderIds: string[]): Prisma.AttributedOrderWhereInput | null {
  const or: Prisma.AttributedOrderWhereInput[] = [];
  if (customerId) or.push({ customerId });
  if (orderIds.length) or.push({ orderId: { in: orderIds } });
  return shopId && or.length ? { shopId, OR: or } : null;
}

/**
 * customers/data_request: recorded with a copy of what the app holds about
 * the customer, which the merchant reads with `wish shop data-requests
 * --domain <shop>` and hands to the customer.
 */
export async function customerDataRequested(hook: PlatformWebhook): Promise<void> {
  const { customerId, orderIds, where } = customerConfirmations(hook.shop, hook.payload);
  const found = where
    ? await db.purchaseConfirmation.findMany({
        where,
        orderBy: { id: "asc" },
        include: { listItem: { select: { id: true, wishlistId: true, purchasedAt: true } } },
      })
    : [];
  const dataRequestId = shopifyId(record(record(hook.payload).data_request).id);
  const shop = await findPlatformShop(hook.shop);
  const shopCustomer = await linkedAccountData(shop, customerId);
  const attributedWhere = customerAttributedOrders(shop?.id, customerId, orderIds);
  const attributed = attributedWhere
    ? await db.attributedOrder.findMany({
        where: attributedWhere,
        orderBy: { id: "asc" },
        take: 1000,
        include: { lines: { orderBy: { id: "asc" }, select: { lineId: true, title: true, quantity: true, revenueMinor: true, source: true, listItemId: true } } },
      })
    : [];
  const flowTriggers = shop && customerId ? await triggersOfCustomer(shop.id, customerId) : [];
  await db.complianceRequest.create({
    data: {
      shopDomain: hook.shop,
      topic: "customers/data_request",
      customerId,
      data: {
        data_request_id: dataRequestId,
        purchase_confirmations: found.map((c) => ({
          order_id: c.orderId,
          customer_id: c.customerId,
          list_item_id: c.listItemId,
          confirmed_at: c.createdAt.toISOString(),
        })),
        shop_customer: shopCustomer,
        attributed_orders: attributed.map((o) => ({
          order_id: o.orderId,
          customer_id: o.customerId,
          ordered_at: o.orderedAt.toISOString(),
          currency: o.currency,
          revenue_minor: o.revenueMinor,
          lines: o.lines.map((l) => ({
            line_id: l.lineId,
            title: l.title,
            quantity: l.quantity,
            revenue_minor: l.revenueMinor,
            source: l.source,
            list_item_id: l.listItemId,
          })),
        })),
        flow_triggers: flowTriggers.map(({ id: _id, ...t }) => t),
      },
    },
  });
}

/**
 * customers/redact: that customer's purchase confirmations go (the items stay
 * purchased: that is the list owner's data), and so does their link to a
 * shopper account with the account the app proxy made for them. Their
 * attributed orders stay in the shop's revenue figures without the customer:
 * the customer id and the lines' links to saved items are cleared.
 */
export async function customerRedacted(hook: PlatformWebhook): Promise<void> {
  const { customerId: redacted, orderIds, where } = customerConfirmations(hook.shop, hook.payload);
  const deleted = where ? (await db.purchaseConfirmation.deleteMany({ where })).count : 0;
  const shop = await findPlatformShop(hook.shop);
  const attributedWhere = customerAttributedOrders(shop?.id, redacted, orderIds);
  let unlinked = 0;
  if (attributedWhere) {
    unlinked = await db.$transaction(async (tx) => {
      const ids = (await tx.attributedOrder.findMany({ where: attributedWhere, select: { id: true }, take: 10_000 })).map((o) => o.id);
      await tx.attributedLine.updateMany({ where: { attributedOrderId: { in: ids } }, data: { listItemId: null } });
      return (await tx.attributedOrder.updateMany({ where: { id: { in: ids } }, data: { customerId: null } })).count;
    });
  }
  const linked = await forgetLinkedAccount(shop?.id, redacted);
  const triggers = shop && redacted ? await forgetCustomerTriggers(shop.id, redacted) : 0;
  // What was asked and done, without the customer's id.
  await db.complianceRequest.create({
    data: {
      shopDomain: hook.shop,
      topic: "customers/redact",
      data: {
        purchase_confirmations_deleted: deleted,
        attributed_orders_unlinked: unlinked,
        shop_customer_links_deleted: linked.links,
        linked_account_deleted: linked.account_deleted,
        alert_consents_deleted: linked.alert_consents_deleted,
        flow_triggers_deleted: triggers,
      },
    },
  });
  // Data requests answered earlier carry the same data.
  const customerId = shopifyId(record(record(hook.payload).customer).id);
  if (customerId) await db.complianceRequest.deleteMany({ where: { shopDomain: hook.shop, customerId } });
}

/**
 * shop/redact (48 hours after uninstall): the shop's partner-side data goes —
 * Shopify sessions, purchase confirmations, attributed orders (revenue),
 * compliance records, its customers' links to shopper accounts, its Flow trigger messages and records, the shop row's name, e-mail and primary domain, and the partner's keys (with their request
 * counters), basket configurations (with events) and usage. When the partner
 * has other shops, only the keys and baskets of this shop go, and its usage
 * stays. Shoppers' lists and items are kept.
 */
export async function shopRedacted(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  await db.$transaction(async (tx) => {
    await tx.session.deleteMany({ where: { shop: hook.shop } });
    await tx.purchaseConfirmation.deleteMany({ where: { shopDomain: hook.shop } });
    await tx.complianceRequest.deleteMany({ where: { shopDomain: hook.shop } });
    if (!shop) return;
    const hosts = [shop.domain, shop.primaryDomain].filter((h): h is string => h !== null);
    await tx.attributedOrder.deleteMany({ where: { shopId: shop.id } }); // with their lines
    await tx.platformShop.update({ where: { id: shop.id }, data: { name: null, email: null, primaryDomain: null, active: false } });
    // The customer ids of the shop; the shopper accounts they named keep their lists.
    await tx.shopCustomer.deleteMany({ where: { shopId: shop.id } });
    const soleShop = (await tx.platformShop.count({ where: { partnerId: shop.partnerId } })) === 1;
    const keys = await tx.apiKey.findMany({ where: { partnerId: shop.partnerId }, select: { id: true, allowedDomains: true } });
    const shopKeys = keys.filter(
      (k) => soleShop || (allowedDomainsOf(k).length > 0 && allowedDomainsOf(k).every((d) => hosts.includes(d))),
    );
    const keyIds = shopKeys.map((k) => k.id);
    await tx.apiKeyRequestCounter.deleteMany({ where: { apiKeyId: { in: keyIds } } });
    await tx.apiKey.deleteMany({ where: { id: { in: keyIds } } });
    await tx.basketConfig.deleteMany({ where: soleShop ? { partnerId: shop.partnerId } : { partnerId: shop.partnerId, shopId: shop.id } });
    if (soleShop) {
      await tx.usageCounter.deleteMany({ where: { partnerId: shop.partnerId } });
      await tx.usageDedup.deleteMany({ where: { partnerId: shop.partnerId } });
    }
    await tx.complianceRequest.create({
      data: { shopDomain: hook.shop, topic: "shop/redact", data: { keys_deleted: keyIds.length, sole_shop: soleShop } },
    });
  });
  if (shop) {
    // Flow trigger messages name customers; the shop's lifecycle records go with them.
    await forgetShopTriggers(shop.id);
    await forgetAlertsOfShop(shop.id);
    invalidateKeyConfig(shop.partnerId);
  }
}

/** `wish shop data-requests --domain <shop>`: the recorded data requests with the data found, newest first. */
export async function dataRequestsOf(shopDomain: string) {
  const rows = await db.complianceRequest.findMany({
    where: { shopDomain, topic: "customers/data_request" },
    orderBy: { id: "desc" },
    take: 100,
  });
  return rows.map((r) => ({ id: r.id, shop_domain: r.shopDomain, customer_id: r.customerId, received_at: r.createdAt.toISOString(), data: r.data }));
}
