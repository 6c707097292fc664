// orders/create → wishlist revenue (docs/revenue.md). A line of an order is
// the wishlist's when
//   1. it carries a signed item reference of this shop's product (the
//      drawer's `_wish_ref` line property), or the order does (a cart
//      attribute, or the landing URL of a share page's link) and the line is
//      that reference's product; the source is the reference's own, else
//      derived from where it was found; or
//   2. the buyer (a customer linked to a shopper account, ShopCustomer) saved
//      that product within the shop's attribution window before the order:
//      source `saved`.
// One row per shop and order (unique), so a resent order counts once.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { findPlatformShop, shopHosts } from "~/domains/shops/platform-webhooks.server";
import type { PlatformWebhook } from "~/domains/shops/webhook-deliveries.server";
import { customerLink } from "~/domains/shop-customers/shop-customers.server";
import { orderCreated as confirmPurchases } from "~/domains/lists/order-confirmations.server";
import { readWishRef, type WishRefSource } from "~/domains/lists/wish-ref.server";
import { parseOrder, utcDay, type OrderLine } from "./order-lines.server";

/** Where an attributed line came from: a reference's place, or the buyer's own save. */
export type RevenueSource = WishRefSource | "saved";

const MAX_REFS = 50;
const MAX_SAVES = 500;
const DAY_MS = 86_400_000;

interface Earner {
  itemId: number;
  shopifyProductId: string | null;
  source: RevenueSource;
}

const hostOf = (url: string | null) => {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
};

/** orders/create: confirm the purchases the references name (lists), then record the wishlist's revenue. */
export async function orderReceived(hook: PlatformWebhook): Promise<void> {
  await confirmPurchases(hook);
  await attributeOrder(hook);
}

export async function attributeOrder(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  if (!shop) return;
  const order = parseOrder(hook.payload, shop.currency);
  if (!order || order.lines.length === 0) return;
  const hosts = shopHosts(shop);

  // The references that verify and name an item whose product this shop sells.
  const refs = [...new Set([...order.lines.flatMap((l) => l.refs), ...order.cartRefs, ...order.landingRefs])].slice(0, MAX_REFS);
  const verified = new Map<string, { itemId: number; source: WishRefSource | null }>();
  for (const ref of refs) {
    const read = await readWishRef(ref);
    if (read) verified.set(ref, read);
  }
  const refItems = verified.size
    ? await db.listItem.findMany({
        where: { id: { in: [...new Set([...verified.values()].map((v) => v.itemId))] } },
        select: { id: true, product: { select: { canonicalUrl: true, rawProductId: true } } },
      })
    : [];
  const shopItems = new Map(refItems.filter((i) => hosts.includes(hostOf(i.product.canonicalUrl) ?? "")).map((i) => [i.id, i]));
  const earnerOf = (ref: string, derived: WishRefSource): Earner | null => {
    const read = verified.get(ref);
    const item = read ? shopItems.get(read.itemId) : undefined;
    return read && item ? { itemId: item.id, shopifyProductId: item.product.rawProductId, source: read.source ?? derived } : null;
  };
  // References without a source of their own: a line property or cart attribute is the drawer's, a landing URL a share page's.
  const orderLevel = [...order.cartRefs.map((r) => earnerOf(r, "drawer")), ...order.landingRefs.map((r) => earnerOf(r, "share_page"))].filter(
    (e): e is Earner => e !== null,
  );
  const saves = await windowSaves(shop, order.customerId, order.orderedAt, order.lines, hosts);

  const seen = new Set<string>();
  const earned: Array<OrderLine & Earner> = [];
  for (const line of order.lines) {
    if (seen.has(line.lineId)) continue;
    seen.add(line.lineId);
    const sameProduct = (e: Earner) => line.shopifyProductId !== null && e.shopifyProductId === line.shopifyProductId;
    const earner =
      line.refs.map((r) => earnerOf(r, "drawer")).find((e) => e !== null) ?? orderLevel.find(sameProduct) ?? saves.find(sameProduct) ?? null;
    if (earner) earned.push({ ...line, ...earner });
  }
  if (earned.length === 0) return;

  const day = utcDay(order.orderedAt);
  try {
    await db.attributedOrder.create({
      data: {
        shopId: shop.id,
        orderId: order.orderId,
        customerId: order.customerId,
        currency: order.currency,
        revenueMinor: Math.min(
          earned.reduce((sum, l) => sum + l.revenueMinor, 0),
          2_147_483_647,
        ),
        orderedAt: order.orderedAt,
        day,
        lines: {
          create: earned.map((l) => ({
            shopId: shop.id,
            lineId: l.lineId,
            source: l.source,
            listItemId: l.itemId,
            shopifyProductId: l.shopifyProductId,
            productKey: l.shopifyProductId ? `p:${l.shopifyProductId}` : `t:${l.title.slice(0, 200)}`,
            title: l.title,
            quantity: l.quantity,
            revenueMinor: l.revenueMinor,
            currency: order.currency,
            day,
          })),
        },
      },
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // this order was attributed already (a resent delivery)
  }
}

/** The buyer's saves of this shop's products on the order, within the shop's window before it; newest first. */
async function windowSaves(
  shop: { id: number; attributionWindowDays: number },
  customerId: string | null,
  orderedAt: Date,
  lines: OrderLine[],
  hosts: string[],
): Promise<Earner[]> {
  const productIds = [...new Set(lines.map((l) => l.shopifyProductId).filter((id): id is string => id !== null))];
  if (!customerId || productIds.length === 0) return [];
  const link = await customerLink(shop.id, customerId);
  if (!link) return [];
  const saves = await db.listItem.findMany({
    where: {
      wishlist: { ownerId: link.userId },
      addedAt: { gte: new Date(orderedAt.getTime() - shop.attributionWindowDays * DAY_MS), lte: orderedAt },
      product: { rawProductId: { in: productIds } },
    },
    orderBy: [{ addedAt: "desc" }, { id: "desc" }],
    take: MAX_SAVES,
    select: { id: true, product: { select: { canonicalUrl: true, rawProductId: true } } },
  });
  return saves
    .filter((s) => hosts.includes(hostOf(s.product.canonicalUrl) ?? ""))
    .map((s) => ({ itemId: s.id, shopifyProductId: s.product.rawProductId, source: "saved" as const }));
}
