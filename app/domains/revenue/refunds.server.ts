// refunds/create → wishlist revenue net of refunds (docs/revenue.md "Refunds").
// A refund of an attributed order takes the refunded lines' subtotals (shop
// money, like the attribution) off those lines, never below zero; lines the
// wishlist did not earn are not touched, and a refund of an order that is not
// the wishlist's changes nothing. The refund's row (unique per shop and
// Shopify refund id) is written in the same transaction as the subtraction,
// so a retried or resent delivery subtracts once. Refunds count in the
// order's period: the lines keep their day.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { findPlatformShop } from "~/domains/shops/platform-webhooks.server";
import type { PlatformWebhook } from "~/domains/shops/webhook-deliveries.server";
import { items, record, shopifyId } from "~/domains/shops/payload";
import { toMinor } from "~/lib/money";

/** A refund names at most the lines of its order; more is not a refund we can read. */
const MAX_REFUND_LINES = 500;

/** Refunded amount per Shopify line id: the refund line items' `subtotal_set.shop_money` (else `subtotal`), summed. */
export function refundedLines(payload: unknown, currency: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const raw of items(record(payload).refund_line_items).slice(0, MAX_REFUND_LINES)) {
    const line = record(raw);
    const lineId = shopifyId(line.line_item_id) ?? shopifyId(record(line.line_item).id);
    const amount = toMinor(record(record(line.subtotal_set).shop_money).amount, currency) ?? toMinor(line.subtotal, currency);
    if (!lineId || amount === null || amount <= 0) continue;
    out.set(lineId, (out.get(lineId) ?? 0) + amount);
  }
  return out;
}

export async function refundReceived(hook: PlatformWebhook): Promise<void> {
  const payload = record(hook.payload);
  const refundId = shopifyId(payload.id);
  const orderId = shopifyId(payload.order_id);
  if (!refundId || !orderId) return;
  const shop = await findPlatformShop(hook.shop);
  if (!shop) return;
  const order = await db.attributedOrder.findUnique({
    where: { shopId_orderId: { shopId: shop.id, orderId } },
    select: { id: true, currency: true, lines: { select: { id: true, lineId: true, revenueMinor: true } } },
  });
  if (!order) return; // not the wishlist's order
  const refunded = refundedLines(payload, order.currency);
  const takes = order.lines
    .map((l) => ({ id: l.id, minor: Math.min(refunded.get(l.lineId) ?? 0, l.revenueMinor) }))
    .filter((t) => t.minor > 0);
  const total = takes.reduce((sum, t) => sum + t.minor, 0);
  if (total === 0) return; // it refunded lines the wishlist did not earn (or shipping only)
  try {
    await db.$transaction(async (tx) => {
      // First, so a second delivery of this refund stops here (unique) before it subtracts anything.
      await tx.attributedRefund.create({ data: { attributedOrderId: order.id, shopId: shop.id, refundId, refundedMinor: total } });
      for (const t of takes) {
        await tx.attributedLine.update({ where: { id: t.id }, data: { revenueMinor: { decrement: t.minor }, refundedMinor: { increment: t.minor } } });
      }
      await tx.attributedOrder.update({ where: { id: order.id }, data: { revenueMinor: { decrement: total }, refundedMinor: { increment: total } } });
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // this refund was subtracted already (a resent delivery)
  }
}
