// /app: the admin home. Plan, trial, the month's actions against the limit
// with the 80% and 100% banners (SPEC 3), the wishlist revenue of the last 30
// days (docs/revenue.md), and the setup checklist.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, InlineStack, Layout, Page, ProgressBar, SkeletonBodyText, Text } from "@shopify/polaris";
import { requireAdmin } from "~/admin/session.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";
import { setupChecklist, shopOverview } from "~/domains/shops/overview.server";
import { partnerAnalytics } from "~/domains/analytics/analytics.server";
import { lastDays, revenueSummary } from "~/domains/revenue/figures.server";
import { RevenueChart, RevenueFigures } from "~/admin/revenue-figures";
import { toDecimal } from "~/lib/money";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await requireAdmin(request);
  const [overview, checklist, analytics, revenue] = await Promise.all([
    shopOverview(shop),
    setupChecklist(shop),
    partnerAnalytics(shop.partnerId, 14),
    revenueSummary(shop, lastDays(30)),
  ]);
  return { overview, checklist, analytics, revenue };
};

const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

function UsageBanner({ usage, planId }: { usage: ReturnType<typeof useLoaderData<typeof loader>>["overview"]["usage"]; planId: string }) {
  if (usage.level === "exceeded" && planId === "free") {
    return (
      <Banner tone="critical" title={`Saves are paused until ${day(usage.periodEnd)}`}>
        <p>
          You used all {usage.limit?.toLocaleString("en-US")} actions of the Free plan this month. Shares and list views are still
          counted. <Link to="/app/plans">Upgrade</Link> to resume saving at once.
        </p>
      </Banner>
    );
  }
  if (usage.level === "exceeded") {
    const cost = usage.overageCostMinor === null ? null : toDecimal(usage.overageCostMinor, "USD");
    return (
      <Banner tone="info" title="You are over this month's included actions">
        <p>
          Overage so far: {usage.overageActions.toLocaleString("en-US")} actions
          {cost !== null ? ` at ${usage.overagePerActionMinor} ct each, ${cost} in total` : ""}. Nothing is switched off.{" "}
          <Link to="/app/plans">Compare plans</Link>
        </p>
      </Banner>
    );
  }
  if (usage.level === "warning") {
    return (
      <Banner tone="warning" title={`You have used ${usage.percent}% of this month's actions`}>
        <p>
          {planId === "free" ? "Saves pause at 100% on the Free plan. " : ""}
          <Link to="/app/plans">See plans</Link>
        </p>
      </Banner>
    );
  }
  return null;
}

type Analytics = ReturnType<typeof useLoaderData<typeof loader>>["analytics"];

/** Events per day of the last two weeks (POST /analytics/track), as plain bars. */
function EventsChart({ analytics }: { analytics: Analytics }) {
  const perDay = analytics.series.map((d) => ({ date: d.date, total: Object.values(d.counts).reduce((a, b) => a + b, 0) }));
  const max = Math.max(1, ...perDay.map((d) => d.total));
  const totals = Object.entries(analytics.totals);
  return (
    <BlockStack gap="300">
      <Text as="h2" variant="headingMd">
        Events, last {analytics.days} days
      </Text>
      <div role="img" aria-label={`Events per day from ${analytics.from} to ${analytics.to}`} style={{ display: "flex", alignItems: "flex-end", gap: 4, height: 80 }}>
        {perDay.map((d) => (
          <div
            key={d.date}
            title={`${d.date}: ${d.total}`}
            style={{ flex: 1, height: `${Math.max(2, (d.total / max) * 100)}%`, background: d.total ? "var(--p-color-bg-fill-info-active)" : "var(--p-color-border)", borderRadius: 2 }}
          />
        ))}
      </div>
      <Text as="p" tone="subdued">
        {totals.length ? totals.map(([event, count]) => `${event}: ${count.toLocaleString("en-US")}`).join(" · ") : "No events yet."}
      </Text>
    </BlockStack>
  );
}

function Check({ done, children }: { done: boolean | null; children: React.ReactNode }) {
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <Badge tone={done ? "success" : "attention"}>{done ? "Done" : done === null ? "Check" : "To do"}</Badge>
      <Text as="span">{children}</Text>
    </InlineStack>
  );
}

export default function Home() {
  const { overview, checklist, analytics, revenue } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  const { plan, trial, usage } = overview;
  const progress = usage.limit === null ? 0 : Math.min(100, usage.percent);
  return (
    <Page title={overview.shop.name}>
      <Layout>
        {trial.expired ? (
          <Layout.Section>
            <Banner tone="critical" title="Your trial has ended">
              <p>
                Wishlist buttons are off on your store until you <Link to="/app/plans">choose a plan</Link>.
              </p>
            </Banner>
          </Layout.Section>
        ) : null}
        {/* An empty section would still take its margin. */}
        {usage.level !== "ok" ? (
          <Layout.Section>
            <UsageBanner usage={usage} planId={plan.id} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            {loading ? (
              <SkeletonBodyText lines={3} />
            ) : (
              <BlockStack gap="300">
                <InlineStack align="space-between">
                  <Text as="h2" variant="headingMd">
                    Plan: {plan.name}
                  </Text>
                  <Link to="/app/plans">Plans</Link>
                </InlineStack>
                {trial.daysLeft !== null && trial.daysLeft > 0 ? (
                  <Text as="p">
                    Free trial: {trial.daysLeft} {trial.daysLeft === 1 ? "day" : "days"} left
                  </Text>
                ) : null}
                <Text as="p" id="usage-label">
                  Actions this month: {usage.used.toLocaleString("en-US")}
                  {usage.limit !== null ? ` of ${usage.limit.toLocaleString("en-US")}` : " (unlimited)"}
                </Text>
                {usage.limit !== null ? (
                  <ProgressBar
                    progress={progress}
                    tone={usage.level === "exceeded" ? "critical" : usage.level === "warning" ? "highlight" : "primary"}
                    ariaLabelledBy="usage-label"
                  />
                ) : null}
              </BlockStack>
            )}
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Wishlist revenue, last 30 days
                </Text>
                <Link to="/app/revenue">By product and source</Link>
              </InlineStack>
              <RevenueFigures summary={revenue} />
              <RevenueChart summary={revenue} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <EventsChart analytics={analytics} />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Setup
              </Text>
              <Check done={null}>
                Turn on the Wishlist app embed: check in the{" "}
                <a href={checklist.themeEditorUrl} target="_top">
                  theme editor
                </a>
                .
              </Check>
              <Check done={checklist.keyActive}>
                {checklist.keyActive ? "Your store's public key is active." : "Your store's public key is not active."}
              </Check>
              <Check done={checklist.firstSaveSeen}>
                {checklist.firstSaveSeen ? "Shoppers are saving products." : "No product saved yet."}
              </Check>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
