// /app/revenue: wishlist revenue of a span of days by source and by product,
// the attribution window setting, and the CSV export (docs/revenue.md).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, DataTable, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { requireAdmin } from "~/admin/session.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";
import { field, outcome } from "~/admin/outcome.server";
import { RevenueChart, RevenueFigures, percent } from "~/admin/revenue-figures";
import { ApiError } from "~/lib/api/errors";
import { dayRange, lastDays, revenueReport, setAttributionWindow } from "~/domains/revenue/figures.server";
import { ATTRIBUTION_WINDOW_DAYS } from "~/domains/revenue/limits";
import { formatMoney } from "~/lib/money";
import { useAdminTexts } from "~/admin/use-texts";

const rangeQuery = z.object({ from: z.string().max(20).optional(), to: z.string().max(20).optional() });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await requireAdmin(request);
  const query = rangeQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  let range = lastDays();
  let rangeError: string | null = null;
  try {
    // A query too odd to parse is a range without dates.
    range = dayRange(query.success ? query.data.from || undefined : "", query.success ? query.data.to || undefined : "");
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    rangeError = err.message; // the last 30 days instead, with the sentence
  }
  return { report: await revenueReport(shop, range), rangeError };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await requireAdmin(request);
  const form = await request.formData();
  return outcome(request, async () => ({ attributionWindowDays: await setAttributionWindow(shop.id, Number(field(form, "days") || NaN)) }));
};

/** Downloads the CSV through App Bridge's fetch, which adds the session token a plain link could not carry. */
async function downloadCsv(from: string, to: string, table: "lines" | "sources") {
  const res = await fetch(`/app/revenue/export?${new URLSearchParams({ from, to, table })}`);
  if (!res.ok) throw new Error(`export failed: ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = `wishlist-revenue-${table === "sources" ? "sources-" : ""}${from}-${to}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

export default function Revenue() {
  const { report, rangeError } = useLoaderData<typeof loader>();
  const saved = useActionData<typeof action>();
  const navigation = useNavigation();
  const [from, setFrom] = useState(report.range.from);
  const [to, setTo] = useState(report.range.to);
  const [days, setDays] = useState(String(report.attributionWindowDays));
  const [exportFailed, setExportFailed] = useState(false);
  const { t: texts, locale, lang, day } = useAdminTexts();
  const t = texts.revenue;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale) ?? "—";
  const number = (n: number) => n.toLocaleString(locale);
  const sourceLabel = (source: string) => t.sources[source] ?? source;
  // Alert kinds: the sources the alerts' own record counts sends for.
  const alerts = report.sources.filter((s) => s.alertsSent !== null);
  return (
    <Page title={t.title} subtitle={t.subtitle(day(report.range.from), day(report.range.to))}>
      <Layout>
        {rangeError ? (
          <Layout.Section>
            <Banner tone="warning" title={t.rangeFallback}>
              <p>{rangeError}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <Form method="get">
              {/* Keeps the admin's language for the new range. */}
              <input type="hidden" name="locale" value={lang} />
              <InlineStack gap="300" blockAlign="end" wrap>
                <TextField label={t.from} type="date" name="from" value={from} onChange={setFrom} autoComplete="off" />
                <TextField label={t.to} type="date" name="to" value={to} onChange={setTo} autoComplete="off" />
                <Button submit loading={navigation.state === "loading"}>
                  {t.show}
                </Button>
                <Button
                  onClick={() => {
                    setExportFailed(false);
                    downloadCsv(report.range.from, report.range.to, "lines").catch(() => setExportFailed(true));
                  }}
                >
                  {t.exportCsv}
                </Button>
                <Button
                  onClick={() => {
                    setExportFailed(false);
                    downloadCsv(report.range.from, report.range.to, "sources").catch(() => setExportFailed(true));
                  }}
                >
                  {t.exportSources}
                </Button>
              </InlineStack>
            </Form>
            {exportFailed ? (
              <Text as="p" tone="critical">
                {t.exportFailed}
              </Text>
            ) : null}
          </Card>
        </Layout.Section>
        <Layout.Section>
          <RevenueFigures summary={report} />
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.perDay(report.currency)}
              </Text>
              <RevenueChart summary={report} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.bySource}
              </Text>
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={[t.source, t.orders, t.items, t.revenue]}
                rows={report.sources.map((s) => [sourceLabel(s.source), number(s.orders), number(s.units), money(s.revenueMinor, s.currency)])}
                footerContent={report.sources.length ? undefined : t.noOrders}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        {alerts.length ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t.alertMails}
                </Text>
                <Text as="p" tone="subdued">
                  {t.alertMailsIntro}
                </Text>
                <DataTable
                  columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                  headings={[t.alert, t.alertsSent, t.clicked, t.bought]}
                  rows={alerts.map((s) => [
                    t.alertKinds[s.source] ?? sourceLabel(s.source),
                    number(s.alertsSent ?? 0),
                    s.alertsClicked === null ? "–" : `${number(s.alertsClicked)} (${percent(s.clickRate ?? 0, locale)})`,
                    `${number(s.orders)} (${percent(s.boughtRate ?? 0, locale)})`,
                  ])}
                />
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.byProduct}
              </Text>
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={[t.product, t.orders, t.items, t.revenue]}
                rows={report.products.map((p) => [p.title || t.untitled, number(p.orders), number(p.units), money(p.revenueMinor, p.currency)])}
                footerContent={report.products.length ? undefined : t.noOrders}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.windowTitle}
              </Text>
              <Text as="p">{t.windowText(percent(report.conversion.rate, locale))}</Text>
              <Form method="post">
                <InlineStack gap="300" blockAlign="end">
                  <TextField
                    label={t.windowDays}
                    type="number"
                    name="days"
                    min={ATTRIBUTION_WINDOW_DAYS.min}
                    max={ATTRIBUTION_WINDOW_DAYS.max}
                    value={days}
                    onChange={setDays}
                    autoComplete="off"
                    error={saved && !saved.ok ? saved.error : undefined}
                  />
                  <Button submit loading={navigation.state === "submitting"}>
                    {t.save}
                  </Button>
                </InlineStack>
              </Form>
              {saved?.ok ? (
                <Text as="p" tone="success">
                  {t.savedDays(saved.attributionWindowDays)}
                </Text>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
