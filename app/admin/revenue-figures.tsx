// Wishlist revenue as the admin shows it (the home card and /app/revenue):
// the key figures and revenue per day as bars, with the numbers in text for
// screen readers. Amounts come as minor units with their currency.
import { BlockStack, Card, InlineGrid, Text } from "@shopify/polaris";
import { formatMoney as money } from "~/lib/money";
import { useAdminTexts } from "./use-texts";

/** Amounts in the admin's locale; a malformed currency shows as a dash. */
const formatMoney = (minor: number, currency: string, locale: string) => money(minor, currency, locale) ?? "—";

export interface RevenueSummaryView {
  range: { from: string; to: string; days: number };
  currency: string;
  /** Net of refunds. */
  revenue: Array<{ currency: string; revenueMinor: number }>;
  /** What refunds took off, per currency (only currencies with refunds). */
  refunded: Array<{ currency: string; refundedMinor: number }>;
  orders: number;
  conversion: { saves: number; bought: number; rate: number };
  daily: Array<{ day: string; orders: number; revenueMinor: number }>;
}

export const revenueText = (summary: Pick<RevenueSummaryView, "revenue" | "currency">, locale: string) =>
  summary.revenue.length
    ? summary.revenue.map((r) => formatMoney(r.revenueMinor, r.currency, locale)).join(" + ")
    : formatMoney(0, summary.currency, locale);

/** A share with one decimal: "12.5%" in English, "12,5 %" in German. */
export const percent = (rate: number, locale: string) =>
  rate.toLocaleString(locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function RevenueFigures({ summary }: { summary: RevenueSummaryView }) {
  const { conversion } = summary;
  const { t: texts, locale } = useAdminTexts();
  const t = texts.figures;
  return (
    <InlineGrid columns={{ xs: 1, sm: 3 }} gap="400">
      <Figure
        label={t.revenue}
        value={revenueText(summary, locale)}
        note={
          summary.refunded.length
            ? t.netOf(summary.refunded.map((r) => formatMoney(r.refundedMinor, r.currency, locale)).join(" + "))
            : t.netOfRefunds
        }
      />
      <Figure label={t.orders} value={summary.orders.toLocaleString(locale)} />
      <Figure
        label={t.savesBought}
        value={percent(conversion.rate, locale)}
        note={t.boughtOf(conversion.bought.toLocaleString(locale), conversion.saves.toLocaleString(locale))}
      />
    </InlineGrid>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="p" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
        {note ? (
          <Text as="p" tone="subdued" variant="bodySm">
            {note}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

/** Revenue per day in the summary's currency, as bars of a fixed height (no layout shift). */
export function RevenueChart({ summary }: { summary: RevenueSummaryView }) {
  const { t, locale, day } = useAdminTexts();
  const max = Math.max(1, ...summary.daily.map((d) => d.revenueMinor));
  const total = summary.daily.reduce((sum, d) => sum + d.revenueMinor, 0);
  return (
    <div
      role="img"
      aria-label={t.figures.chartLabel(day(summary.range.from), day(summary.range.to), formatMoney(total, summary.currency, locale))}
      style={{ display: "flex", alignItems: "flex-end", gap: 2, height: 96 }}
    >
      {summary.daily.map((d) => (
        <div
          key={d.day}
          title={t.figures.dayTitle(day(d.day), formatMoney(d.revenueMinor, summary.currency, locale), d.orders)}
          style={{
            flex: 1,
            height: `${Math.max(2, (d.revenueMinor / max) * 100)}%`,
            background: d.revenueMinor ? "var(--p-color-bg-fill-success)" : "var(--p-color-border)",
            borderRadius: 2,
          }}
        />
      ))}
    </div>
  );
}
