// Wishlist revenue as the admin shows it (the home card and /app/revenue):
// the key figures and revenue per day as bars, with the numbers in text for
// screen readers. Amounts come as minor units with their currency.
import { BlockStack, Card, InlineGrid, Text } from "@shopify/polaris";
import { formatMoney as money } from "~/lib/money";

/** Amounts in the admin (English); a malformed currency shows as a dash. */
const formatMoney = (minor: number, currency: string) => money(minor, currency, "en-US") ?? "—";

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

export const revenueText = (summary: Pick<RevenueSummaryView, "revenue" | "currency">) =>
  summary.revenue.length ? summary.revenue.map((r) => formatMoney(r.revenueMinor, r.currency)).join(" + ") : formatMoney(0, summary.currency);

export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

export function RevenueFigures({ summary }: { summary: RevenueSummaryView }) {
  const { conversion } = summary;
  return (
    <InlineGrid columns={{ xs: 1, sm: 3 }} gap="400">
      <Figure
        label="Wishlist revenue"
        value={revenueText(summary)}
        note={
          summary.refunded.length
            ? `Net of ${summary.refunded.map((r) => formatMoney(r.refundedMinor, r.currency)).join(" + ")} refunded`
            : "Net of refunds"
        }
      />
      <Figure label="Attributed orders" value={summary.orders.toLocaleString("en-US")} />
      <Figure
        label="Saves bought"
        value={percent(conversion.rate)}
        note={`${conversion.bought.toLocaleString("en-US")} of ${conversion.saves.toLocaleString("en-US")} saves`}
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
  const max = Math.max(1, ...summary.daily.map((d) => d.revenueMinor));
  const total = summary.daily.reduce((sum, d) => sum + d.revenueMinor, 0);
  return (
    <div
      role="img"
      aria-label={`Wishlist revenue per day from ${summary.range.from} to ${summary.range.to}: ${formatMoney(total, summary.currency)} in total`}
      style={{ display: "flex", alignItems: "flex-end", gap: 2, height: 96 }}
    >
      {summary.daily.map((d) => (
        <div
          key={d.day}
          title={`${d.day}: ${formatMoney(d.revenueMinor, summary.currency)}, ${d.orders} ${d.orders === 1 ? "order" : "orders"}`}
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
