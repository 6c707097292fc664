// The revenue figures' statements: a shop's attributed lines of a span of UTC
// days, by the AttributedLine(shopId, day) index range, summed several ways.
import type { AttributedLine, AttributedOrder } from "~/db.server";
import { all, exec, one, statement } from "~/db/sql.server";

const RANGE = `FROM "AttributedLine" WHERE "shopId" = $1 AND "day" >= $2 AND "day" <= $3`;

const TOTALS = statement<{ orders: number; units: number }>(
  "revenue_totals",
  `SELECT COUNT(DISTINCT "attributedOrderId") AS "orders", COALESCE(SUM("quantity"), 0) AS "units" ${RANGE}`,
);

export type CurrencySum = Pick<AttributedLine, "currency"> & { revenueMinor: number; refundedMinor: number };
// revenueMinor is net of refunds; refundedMinor what refunds took off.
const BY_CURRENCY = statement<CurrencySum>(
  "revenue_by_currency",
  `SELECT "currency", SUM("revenueMinor") AS "revenueMinor", SUM("refundedMinor") AS "refundedMinor"
     ${RANGE} GROUP BY "currency" ORDER BY SUM("revenueMinor") DESC, "currency" LIMIT 20`,
);

export type DaySum = Pick<AttributedLine, "day" | "currency"> & { orders: number; revenueMinor: number };
const BY_DAY = statement<DaySum>(
  "revenue_by_day",
  `SELECT "day", "currency", COUNT(DISTINCT "attributedOrderId") AS "orders", SUM("revenueMinor") AS "revenueMinor"
     ${RANGE} GROUP BY "day", "currency" ORDER BY "day", "currency" LIMIT 8000`,
);

export type GroupSum = Pick<AttributedLine, "currency"> & { orders: number; units: number; revenueMinor: number };
const BY_SOURCE = statement<GroupSum & Pick<AttributedLine, "source">>(
  "revenue_by_source",
  `SELECT "source", "currency", COUNT(DISTINCT "attributedOrderId") AS "orders", SUM("quantity") AS "units", SUM("revenueMinor") AS "revenueMinor"
     ${RANGE} GROUP BY "source", "currency" ORDER BY SUM("revenueMinor") DESC, "source" LIMIT 100`,
);

const BY_PRODUCT = statement<GroupSum & Pick<AttributedLine, "productKey" | "title">>(
  "revenue_by_product",
  `SELECT "productKey", MAX("title") AS "title", "currency", COUNT(DISTINCT "attributedOrderId") AS "orders", SUM("quantity") AS "units",
          SUM("revenueMinor") AS "revenueMinor"
     ${RANGE} GROUP BY "productKey", "currency" ORDER BY SUM("revenueMinor") DESC, "productKey" LIMIT $4`,
);

export type ExportRow = Pick<
  AttributedLine,
  "day" | "lineId" | "title" | "shopifyProductId" | "quantity" | "revenueMinor" | "refundedMinor" | "currency" | "source"
> &
  Pick<AttributedOrder, "orderId">;
const LINES = statement<ExportRow>(
  "revenue_export_lines",
  `SELECT l."day", o."orderId", l."lineId", l."title", l."shopifyProductId", l."quantity", l."revenueMinor", l."refundedMinor", l."currency", l."source"
     FROM "AttributedLine" l JOIN "AttributedOrder" o ON o."id" = l."attributedOrderId"
    WHERE l."shopId" = $1 AND l."day" >= $2 AND l."day" <= $3
    ORDER BY l."day", l."id" LIMIT $4`,
);

export const revenueTotals = async (shopId: number, from: string, to: string) => (await exec(one(TOTALS, shopId, from, to))) ?? { orders: 0, units: 0 };
export const revenueByCurrency = (shopId: number, from: string, to: string) => exec(all(BY_CURRENCY, shopId, from, to));
export const revenueByDay = (shopId: number, from: string, to: string) => exec(all(BY_DAY, shopId, from, to));
export const revenueBySource = (shopId: number, from: string, to: string) => exec(all(BY_SOURCE, shopId, from, to));
export const revenueByProduct = (shopId: number, from: string, to: string, limit: number) => exec(all(BY_PRODUCT, shopId, from, to, limit));
export const attributedLines = (shopId: number, from: string, to: string, limit: number) => exec(all(LINES, shopId, from, to, limit));
