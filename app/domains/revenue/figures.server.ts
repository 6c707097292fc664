// The wishlist revenue a shop's admin shows (docs/revenue.md "Figures"): for a
// span of UTC days, revenue per currency, attributed orders, conversion of
// saves, per day, per source and per product, and the lines for the CSV export.
import { db } from "~/db.server";
import { badRequest } from "~/lib/api/errors";
import { itemsOfShop, type ShopScope } from "~/domains/customer-accounts/shop-items";
import { attributedLines, revenueByCurrency, revenueByDay, revenueBySource, revenueByProduct, revenueTotals } from "./revenue.sql.server";
import { utcDay } from "./order-lines.server";
import { csvLines } from "./csv";
import { decimalAmount } from "./money";
import { ATTRIBUTION_WINDOW_DAYS } from "./limits";

const DAY_MS = 86_400_000;
const MAX_SPAN_DAYS = 366;
export const DEFAULT_SPAN_DAYS = 30;
const RANGE_HINT = "Choose a start and an end date.";
export const MAX_EXPORT_ROWS = 10_000;
const MAX_PRODUCTS = 100;

export interface DayRange {
  /** First and last UTC day, inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
  days: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The last `days` days up to today. */
export function lastDays(days = DEFAULT_SPAN_DAYS, now = new Date()): DayRange {
  return { from: utcDay(new Date(now.getTime() - (days - 1) * DAY_MS)), to: utcDay(now), days };
}

/** A range from the admin's `from`/`to` (both, or neither for the last 30 days); 400 `invalid_range` when they make none. */
export function dayRange(from: string | undefined, to: string | undefined, now = new Date()): DayRange {
  if (from === undefined && to === undefined) return lastDays(DEFAULT_SPAN_DAYS, now);
  const valid = (d: string | undefined): d is string => !!d && DAY.test(d) && !Number.isNaN(dayStart(d).getTime()) && utcDay(dayStart(d)) === d;
  if (!valid(from) || !valid(to)) throw badRequest("invalid_range", RANGE_HINT);
  const days = Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS) + 1;
  if (days < 1) throw badRequest("invalid_range", "The start date must not be after the end date.");
  if (days > MAX_SPAN_DAYS) throw badRequest("invalid_range", `Choose at most ${MAX_SPAN_DAYS} days.`);
  return { from, to, days };
}

/** Every day of the range, in order. */
const daysOf = (range: DayRange) => Array.from({ length: range.days }, (_, i) => utcDay(new Date(dayStart(range.from).getTime() + i * DAY_MS)));

/** Saves of the shop's products in the range, and how many of those items an attributed order line bought since. */
async function saveConversion(shop: ShopScope, range: DayRange) {
  const where = { AND: [itemsOfShop(shop), { addedAt: { gte: dayStart(range.from), lt: new Date(dayStart(range.to).getTime() + DAY_MS) } }] };
  const [saves, bought] = await Promise.all([
    db.listItem.count({ where }),
    db.listItem.count({ where: { AND: [...where.AND, { attributedLines: { some: {} } }] } }),
  ]);
  return { saves, bought, rate: saves ? bought / saves : 0 };
}

/** Key figures and the per-day series (the admin home and the revenue page). */
export async function revenueSummary(shop: ShopScope & { currency: string | null }, range: DayRange) {
  const [totals, currencies, perDay, conversion] = await Promise.all([
    revenueTotals(shop.id, range.from, range.to),
    revenueByCurrency(shop.id, range.from, range.to),
    revenueByDay(shop.id, range.from, range.to),
    saveConversion(shop, range),
  ]);
  // The chart shows one currency: the shop's, or the one most revenue is in.
  const currency = currencies[0]?.currency ?? shop.currency ?? "USD";
  const byDay = new Map(perDay.filter((d) => d.currency === currency).map((d) => [d.day, d]));
  return {
    range,
    currency,
    revenue: currencies.map((c) => ({ currency: c.currency, revenueMinor: c.revenueMinor })),
    orders: totals.orders,
    units: totals.units,
    conversion,
    daily: daysOf(range).map((day) => ({ day, orders: byDay.get(day)?.orders ?? 0, revenueMinor: byDay.get(day)?.revenueMinor ?? 0 })),
  };
}

/** Alert e-mails the shop sent in the range, by source name (`alert_<kind>`, and `reminder` for the digests): what each kind's orders came out of. */
async function alertsSent(shopId: number, range: DayRange): Promise<Record<string, number>> {
  const createdAt = { gte: new Date(`${range.from}T00:00:00Z`), lt: new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS) };
  const [rows, reminders] = await Promise.all([
    db.alertSent.groupBy({ by: ["kind"], where: { shopId, createdAt }, _count: { _all: true } }),
    db.reminderSent.count({ where: { shopId, createdAt } }),
  ]);
  return { ...Object.fromEntries(rows.map((r) => [`alert_${r.kind}`, r._count._all])), ...(reminders > 0 ? { reminder: reminders } : {}) };
}

/** The revenue page: the summary, and the breakdowns by source (with the alerts sent of each alert kind) and by product. */
export async function revenueReport(shop: ShopScope & { currency: string | null; attributionWindowDays: number }, range: DayRange) {
  const [summary, sources, products, sent] = await Promise.all([
    revenueSummary(shop, range),
    revenueBySource(shop.id, range.from, range.to),
    revenueByProduct(shop.id, range.from, range.to, MAX_PRODUCTS),
    alertsSent(shop.id, range),
  ]);
  // An alert kind that was sent but sold nothing is a row too: its conversion is the point.
  const silent = Object.keys(sent)
    .filter((source) => !sources.some((s) => s.source === source))
    .sort()
    .map((source) => ({ source, currency: summary.currency, orders: 0, units: 0, revenueMinor: 0 }));
  const bySource = [...sources, ...silent].map((s) => ({ ...s, alertsSent: sent[s.source] ?? null }));
  return { ...summary, attributionWindowDays: shop.attributionWindowDays, sources: bySource, products };
}

/** The attributed lines of the range, oldest first, at most MAX_EXPORT_ROWS (and whether more were left out). */
export async function revenueExport(shopId: number, range: DayRange) {
  const rows = await attributedLines(shopId, range.from, range.to, MAX_EXPORT_ROWS + 1);
  return { rows: rows.slice(0, MAX_EXPORT_ROWS), truncated: rows.length > MAX_EXPORT_ROWS };
}

export const EXPORT_COLUMNS = ["day", "order_id", "line_id", "product_id", "title", "quantity", "revenue", "currency", "source"];

/** The range's attributed lines as CSV text (header first), and whether rows were left out. */
export async function revenueCsv(shopId: number, range: DayRange) {
  const { rows, truncated } = await revenueExport(shopId, range);
  const body = csvLines([
    EXPORT_COLUMNS,
    ...rows.map((r) => [r.day, r.orderId, r.lineId, r.shopifyProductId, r.title, r.quantity, decimalAmount(r.revenueMinor, r.currency), r.currency, r.source]),
  ]);
  return { body, rows: rows.length, truncated };
}

/** The shop's attribution window, in days (1–90). */
export async function setAttributionWindow(shopId: number, days: number): Promise<number> {
  if (!Number.isInteger(days) || days < ATTRIBUTION_WINDOW_DAYS.min || days > ATTRIBUTION_WINDOW_DAYS.max) {
    throw badRequest("invalid_window", `Choose a whole number of days from ${ATTRIBUTION_WINDOW_DAYS.min} to ${ATTRIBUTION_WINDOW_DAYS.max}.`);
  }
  await db.platformShop.update({ where: { id: shopId }, data: { attributionWindowDays: days } });
  return days;
}
