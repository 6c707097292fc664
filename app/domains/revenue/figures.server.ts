// The wishlist revenue a shop's admin shows (docs/revenue.md "Figures"): for a
// span of UTC days, revenue per currency, attributed orders, conversion of
// saves, per day, per source and per product, and the lines for the CSV export.
import { db } from "~/db.server";
import { badRequest } from "~/lib/api/errors";
import { itemsOfShop, type ShopScope } from "~/domains/lists/shop-items";
import { attributedLines, revenueByCurrency, revenueByDay, revenueBySource, revenueByProduct, revenueTotals } from "./revenue.sql.server";
import { utcDay } from "./order-lines.server";
import { csvLines } from "./csv";
import { toDecimal } from "~/lib/money";
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
    refunded: currencies.filter((c) => c.refundedMinor > 0).map((c) => ({ currency: c.currency, refundedMinor: c.refundedMinor })),
    orders: totals.orders,
    units: totals.units,
    conversion,
    daily: daysOf(range).map((day) => ({ day, orders: byDay.get(day)?.orders ?? 0, revenueMinor: byDay.get(day)?.revenueMinor ?? 0 })),
  };
}

/**
 * E-mails the shop sent in the range by source name: alert e-mails (`alert_<kind>`) with how many of them were clicked
 * through (at any time since), and reminder digests (`reminder`), whose links go to the shop directly (clicks unknown).
 */
async function alertsSent(shopId: number, range: DayRange): Promise<Record<string, { sent: number; clicked: number | null }>> {
  const createdAt = { gte: new Date(`${range.from}T00:00:00Z`), lt: new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS) };
  const [rows, reminders] = await Promise.all([
    // _count of a column counts its non-null values: the alerts with a click.
    db.alertSent.groupBy({ by: ["kind"], where: { shopId, createdAt }, _count: { _all: true, clickedAt: true } }),
    db.reminderSent.count({ where: { shopId, createdAt } }),
  ]);
  return {
    ...Object.fromEntries(rows.map((r) => [`alert_${r.kind}`, { sent: r._count._all, clicked: r._count.clickedAt }])),
    ...(reminders > 0 ? { reminder: { sent: reminders, clicked: null } } : {}),
  };
}

const rate = (part: number, whole: number | null) => (whole ? part / whole : null);

/**
 * The revenue page: the summary, and the breakdowns by source and by product. Alert kinds' rows carry the alerts
 * sent in the range, how many of those were clicked, and the conversions clicked ÷ sent and bought (orders) ÷ sent.
 */
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
  const bySource = [...sources, ...silent].map((s) => {
    const alerts = sent[s.source] ?? null;
    return {
      ...s,
      alertsSent: alerts?.sent ?? null,
      alertsClicked: alerts?.clicked ?? null,
      clickRate: alerts?.clicked != null ? rate(alerts.clicked, alerts.sent) : null,
      boughtRate: alerts ? rate(s.orders, alerts.sent) : null,
    };
  });
  return { ...summary, attributionWindowDays: shop.attributionWindowDays, sources: bySource, products };
}

/** The attributed lines of the range, oldest first, at most MAX_EXPORT_ROWS (and whether more were left out). */
export async function revenueExport(shopId: number, range: DayRange) {
  const rows = await attributedLines(shopId, range.from, range.to, MAX_EXPORT_ROWS + 1);
  return { rows: rows.slice(0, MAX_EXPORT_ROWS), truncated: rows.length > MAX_EXPORT_ROWS };
}

/** `revenue` is net of refunds, `refunded` what refunds took off the line. */
export const EXPORT_COLUMNS = ["day", "order_id", "line_id", "product_id", "title", "quantity", "revenue", "refunded", "currency", "source"];

/** The range's attributed lines as CSV text (header first), and whether rows were left out. */
export async function revenueCsv(shopId: number, range: DayRange) {
  const { rows, truncated } = await revenueExport(shopId, range);
  const body = csvLines([
    EXPORT_COLUMNS,
    ...rows.map((r) => [
      r.day,
      r.orderId,
      r.lineId,
      r.shopifyProductId,
      r.title,
      r.quantity,
      toDecimal(r.revenueMinor, r.currency),
      toDecimal(r.refundedMinor, r.currency),
      r.currency,
      r.source,
    ]),
  ]);
  return { body, rows: rows.length, truncated };
}

export const SOURCE_COLUMNS = ["source", "currency", "alerts_sent", "clicked", "click_rate", "orders", "bought_rate", "items", "revenue"];

const ratio = (r: number | null) => (r === null ? null : r.toFixed(4));

/** The by-source table of the revenue page as CSV (`?table=sources`): alert kinds with sent, clicked and the conversions. */
export async function revenueSourcesCsv(shop: ShopScope & { currency: string | null; attributionWindowDays: number }, range: DayRange) {
  const report = await revenueReport(shop, range);
  const body = csvLines([
    SOURCE_COLUMNS,
    ...report.sources.map((s) => [
      s.source,
      s.currency,
      s.alertsSent,
      s.alertsClicked,
      ratio(s.clickRate),
      s.orders,
      ratio(s.boughtRate),
      s.units,
      toDecimal(s.revenueMinor, s.currency),
    ]),
  ]);
  return { body, rows: report.sources.length, truncated: false };
}

/** The shop's attribution window, in days (1–90). */
export async function setAttributionWindow(shopId: number, days: number): Promise<number> {
  if (!Number.isInteger(days) || days < ATTRIBUTION_WINDOW_DAYS.min || days > ATTRIBUTION_WINDOW_DAYS.max) {
    throw badRequest("invalid_window", `Choose a whole number of days from ${ATTRIBUTION_WINDOW_DAYS.min} to ${ATTRIBUTION_WINDOW_DAYS.max}.`);
  }
  await db.platformShop.update({ where: { id: shopId }, data: { attributionWindowDays: days } });
  return days;
}
