// What an orders/create payload says about money, line by line, read
// leniently like every webhook payload (shops/payload.ts). Amounts are the
// shop currency's: `shop_money` of the line's `price_set` and of each
// discount allocation's `amount_set` (docs/revenue.md "Currency").
import { currencyCode, items, record, shopifyId, text, type Fields } from "~/domains/shops/payload";
import { toMinor } from "~/lib/money";
import { WISH_REF_PARAM, WISH_REF_PROPERTY } from "~/domains/lists/wish-ref.server";

const REF_NAMES = new Set([WISH_REF_PROPERTY, WISH_REF_PARAM]);
/** Shopify orders hold at most a few hundred lines; more is not an order we can read. */
const MAX_LINES = 500;
const MAX_QUANTITY = 100_000;

export interface OrderLine {
  lineId: string;
  shopifyProductId: string | null;
  title: string;
  quantity: number;
  /** Price × quantity − the line's discount allocations, in minor units of the shop currency; never below 0. */
  revenueMinor: number;
  /** References in the line's own properties (`_wish_ref`). */
  refs: string[];
}

export interface ParsedOrder {
  orderId: string;
  customerId: string | null;
  currency: string;
  orderedAt: Date;
  lines: OrderLine[];
  /** Order-level references: cart attributes (the drawer's) and the landing URL's (a share page's link). */
  cartRefs: string[];
  landingRefs: string[];
}

const split = (value: string) => value.split(/[\s,]+/).filter(Boolean);

function pairRefs(pairs: unknown): string[] {
  const refs: string[] = [];
  for (const pair of items(pairs).map(record)) {
    const name = text(pair.name, 100);
    const value = text(pair.value, 2000);
    if (name && value && REF_NAMES.has(name)) refs.push(...split(value));
  }
  return refs;
}

/** The shop-currency amount of a money bag (`{shop_money: {amount}}`), else the plain field beside it. */
function shopAmount(set: unknown, plain: unknown, currency: string): number | null {
  return toMinor(record(record(set).shop_money).amount, currency) ?? toMinor(plain, currency);
}

function lineOf(line: Fields, index: number, currency: string): OrderLine {
  const quantity = typeof line.quantity === "number" && Number.isSafeInteger(line.quantity) ? Math.min(Math.max(line.quantity, 0), MAX_QUANTITY) : 1;
  const unit = shopAmount(line.price_set, line.price, currency) ?? 0;
  const discount = items(line.discount_allocations)
    .map(record)
    .reduce((sum, d) => sum + (shopAmount(d.amount_set, d.amount, currency) ?? 0), 0);
  const revenue = Math.max(0, unit * quantity - discount);
  return {
    lineId: shopifyId(line.id) ?? `#${index}`,
    shopifyProductId: shopifyId(line.product_id),
    title: text(line.title, 500) ?? text(line.name, 500) ?? "",
    quantity,
    revenueMinor: Math.min(revenue, 2_147_483_647),
    refs: pairRefs(line.properties),
  };
}

/** The order's id, buyer, currency, time and lines; null when it names no order or no currency. */
export function parseOrder(payload: unknown, fallbackCurrency: string | null, now = new Date()): ParsedOrder | null {
  const order = record(payload);
  const orderId = shopifyId(order.id);
  // `currency` is the shop currency of the order (presentment_currency is the buyer's).
  const currency = currencyCode(order.currency) ?? fallbackCurrency;
  if (!orderId || !currency) return null;
  const created = text(order.created_at, 64) ?? text(order.processed_at, 64);
  const parsed = created ? new Date(created) : null;
  const orderedAt = parsed && !Number.isNaN(parsed.getTime()) && parsed.getTime() <= now.getTime() + 86_400_000 ? parsed : now;
  const landingRefs: string[] = [];
  for (const field of [order.landing_site, order.landing_site_ref]) {
    const landing = text(field, 4000);
    if (!landing) continue;
    try {
      landingRefs.push(...new URL(landing, "https://landing.invalid").searchParams.getAll(WISH_REF_PARAM).flatMap(split));
    } catch {
      // not a URL: no reference there
    }
  }
  return {
    orderId,
    customerId: shopifyId(record(order.customer).id),
    currency,
    orderedAt,
    lines: items(order.line_items)
      .slice(0, MAX_LINES)
      .map((line, i) => lineOf(record(line), i, currency)),
    cartRefs: pairRefs(order.note_attributes),
    landingRefs,
  };
}

/** `2026-11-24` for a time, in UTC: the figures' days. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
