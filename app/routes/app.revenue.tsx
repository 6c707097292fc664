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
import { sourceLabel } from "~/domains/revenue/sources";
import { formatMoney } from "~/lib/money";

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
  return outcome(async () => ({ attributionWindowDays: await setAttributionWindow(shop.id, Number(field(form, "days") || NaN)) }));
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
  const money = (minor: number, currency: string) => formatMoney(minor, currency, "en-US") ?? "—";
  // Alert kinds: the sources the alerts' own record counts sends for.
  const alerts = report.sources.filter((s) => s.alertsSent !== null);
  return (
    <Page title="Wishlist revenue" subtitle={`${report.range.from} to ${report.range.to} (UTC)`}>
      <Layout>
        {rangeError ? (
          <Layout.Section>
            <Banner tone="warning" title="Showing the last 30 days">
              <p>{rangeError}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <Form method="get">
              <InlineStack gap="300" blockAlign="end" wrap>
                <TextField label="From" type="date" name="from" value={from} onChange={setFrom} autoComplete="off" />
                <TextField label="To" type="date" name="to" value={to} onChange={setTo} autoComplete="off" />
                <Button submit loading={navigation.state === "loading"}>
                  Show
                </Button>
                <Button
                  onClick={() => {
                    setExportFailed(false);
                    downloadCsv(report.range.from, report.range.to, "lines").catch(() => setExportFailed(true));
                  }}
                >
                  Export CSV
                </Button>
                <Button
                  onClick={() => {
                    setExportFailed(false);
                    downloadCsv(report.range.from, report.range.to, "sources").catch(() => setExportFailed(true));
                  }}
                >
                  Export sources CSV
                </Button>
              </InlineStack>
            </Form>
            {exportFailed ? (
              <Text as="p" tone="critical">
                The export could not be downloaded. Please try again.
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
                Revenue per day ({report.currency})
              </Text>
              <RevenueChart summary={report} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                By source
              </Text>
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={["Source", "Orders", "Items", "Revenue"]}
                rows={report.sources.map((s) => [sourceLabel(s.source), s.orders, s.units, money(s.revenueMinor, s.currency)])}
                footerContent={report.sources.length ? undefined : "No attributed orders in these days."}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        {alerts.length ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Alert e-mails
                </Text>
                <Text as="p" tone="subdued">
                  Alerts and reminders sent in these days, how many of them were clicked through, and the orders their links brought; each
                  with its share of those sent. Reminder links lead to the shop directly, so their clicks are not known.
                </Text>
                <DataTable
                  columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                  headings={["Alert", "Alerts sent", "Clicked", "Bought"]}
                  rows={alerts.map((s) => [
                    sourceLabel(s.source).replace(/^Alert: (.)/, (_, first: string) => first.toUpperCase()),
                    s.alertsSent ?? 0,
                    s.alertsClicked === null ? "–" : `${s.alertsClicked} (${percent(s.clickRate ?? 0)})`,
                    `${s.orders} (${percent(s.boughtRate ?? 0)})`,
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
                By product
              </Text>
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={["Product", "Orders", "Items", "Revenue"]}
                rows={report.products.map((p) => [p.title || "(untitled)", p.orders, p.units, money(p.revenueMinor, p.currency)])}
                footerContent={report.products.length ? undefined : "No attributed orders in these days."}
              />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Attribution window
              </Text>
              <Text as="p">
                An order counts as wishlist revenue when it carries a wishlist link or drawer reference, or when the buyer saved the product within
                this many days before ordering. Saves bought: {percent(report.conversion.rate)} of the saves in these days were bought since.
              </Text>
              <Form method="post">
                <InlineStack gap="300" blockAlign="end">
                  <TextField
                    label="Days after a save"
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
                    Save
                  </Button>
                </InlineStack>
              </Form>
              {saved?.ok ? (
                <Text as="p" tone="success">
                  Saved: {saved.attributionWindowDays} days.
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
