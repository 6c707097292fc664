// Admin: this month's wishlist actions by kind and by day (SPEC 2.7, 8), and
// the month's API requests per key (SPEC 8.3).
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, DataTable, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { requireAdmin } from "~/admin/session.server";
import { usageHistory, usageRecord } from "~/domains/metering/usage.server";
import { useAdminTexts } from "~/admin/use-texts";
import type { AdminTexts } from "~/i18n/admin";

export async function loader({ request }: LoaderFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const [usage, history] = await Promise.all([usageRecord(partnerId), usageHistory(partnerId)]);
  return json({ usage, history });
}

const KINDS = [
  { key: "saves", color: "#1f5f4a" },
  { key: "shares", color: "#b98900" },
  { key: "listViews", color: "#5c6ac4" },
] as const satisfies ReadonlyArray<{ key: keyof AdminTexts["usage"]; color: string }>;

export default function Usage() {
  const { usage, history } = useLoaderData<typeof loader>();
  const { t: texts, locale } = useAdminTexts();
  const t = texts.usage;
  const number = (n: number) => n.toLocaleString(locale);
  const limit = usage.actions_limit === null ? null : number(usage.actions_limit);
  const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  return (
    <Page title={t.title} subtitle={t.subtitle(usage.plan_name, monthName(history.period, locale))}>
      <Layout>
        <Layout.Section>
          <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
            <Figure label={t.actionsThisMonth} value={t.ofLimit(number(usage.actions_used), limit)} />
            <Figure label={t.saves} value={number(usage.breakdown.save)} />
            <Figure label={t.shares} value={number(usage.breakdown.share)} />
            <Figure label={t.listViews} value={number(usage.breakdown.list_view)} />
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.byDay}
              </Text>
              <DailyChart daily={history.daily} label={t.chartLabel} />
              <Legend labels={t} />
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={[t.day, t.saves, t.shares, t.listViews]}
                rows={history.daily
                  .filter((d) => d.saves + d.shares + d.listViews > 0)
                  .map((d) => [dayLabel(d.day), number(d.saves), number(d.shares), number(d.listViews)])}
                footerContent={history.daily.every((d) => d.saves + d.shares + d.listViews === 0) ? t.noActions : undefined}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.requestsTitle}
              </Text>
              <DataTable
                columnContentTypes={["text", "text", "numeric"]}
                headings={[t.key, t.status, t.requests]}
                rows={history.keys.map((k) => [
                  <Text as="span" key={k.key} fontWeight="medium">
                    <span title={k.key}>{shortKey(k.key)}</span>
                  </Text>,
                  texts.keys.status[k.status] ?? k.status,
                  number(k.requests),
                ])}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** "2026-11" as "November 2026" (in the admin's locale). */
const monthName = (period: string, locale: string) =>
  new Date(`${period}-01T00:00:00Z`).toLocaleDateString(locale, { month: "long", year: "numeric", timeZone: "UTC" });

/** A key's environment prefix and its ends: enough to tell keys apart, short enough for a phone's table. */
const shortKey = (key: string) => (key.length > 20 ? `${key.slice(0, 12)}…${key.slice(-4)}` : key);

/** What the chart's colours stand for. */
function Legend({ labels }: { labels: AdminTexts["usage"] }) {
  return (
    <InlineStack gap="400" wrap>
      {KINDS.map(({ key, color }) => (
        <InlineStack key={key} gap="100" blockAlign="center" wrap={false}>
          <span aria-hidden style={{ display: "inline-block", width: 12, height: 12, borderRadius: 2, background: color }} />
          <Text as="span" variant="bodySm">
            {labels[key]}
          </Text>
        </InlineStack>
      ))}
    </InlineStack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="p" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

type Day = { day: string; saves: number; shares: number; listViews: number };

/** Stacked bars per day; the table beside it carries the same numbers for screen readers. */
function DailyChart({ daily, label }: { daily: Day[]; label: string }) {
  const width = 600;
  const height = 120;
  const max = Math.max(1, ...daily.map((d) => d.saves + d.shares + d.listViews));
  const bar = width / Math.max(daily.length, 1);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} preserveAspectRatio="none" role="img" aria-label={label}>
      {daily.map((d, i) => {
        let y = height;
        return KINDS.map(({ key, color }) => {
          const h = (d[key] / max) * (height - 4);
          y -= h;
          return h > 0 ? <rect key={`${d.day}-${key}`} x={i * bar + 1} y={y} width={Math.max(bar - 2, 1)} height={h} fill={color} /> : null;
        });
      })}
    </svg>
  );
}
