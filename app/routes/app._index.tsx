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
import { formatMoney, formatUnitPrice } from "~/lib/money";
import { useAdminTexts } from "~/admin/use-texts";

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

function UsageBanner({ usage, planId }: { usage: ReturnType<typeof useLoaderData<typeof loader>>["overview"]["usage"]; planId: string }) {
  const { t: texts, locale, href } = useAdminTexts();
  const t = texts.home;
  const number = (n: number) => n.toLocaleString(locale);
  if (usage.level === "exceeded" && planId === "free") {
    const until = new Date(usage.periodEnd).toLocaleDateString(locale, { month: "long", day: "numeric", timeZone: "UTC" });
    return (
      <Banner tone="critical" title={t.pausedTitle(until)}>
        <p>
          {t.pausedText(number(usage.limit ?? 0))} <Link to={href("/app/plans")}>{t.upgrade}</Link>
          {t.upgradeAfter}
        </p>
      </Banner>
    );
  }
  if (usage.level === "exceeded") {
    // Overage is billed in USD through Shopify (SPEC 8.1); a fraction of a cent per action is shown as such.
    const cost = usage.overageCostMinor === null ? null : formatMoney(usage.overageCostMinor, "USD", locale);
    const perAction = usage.overagePerActionMinor === null ? null : formatUnitPrice(usage.overagePerActionMinor, "USD", locale);
    return (
      <Banner tone="info" title={t.overTitle}>
        <p>
          {t.overText(number(usage.overageActions), cost, perAction)} <Link to={href("/app/plans")}>{t.comparePlans}</Link>
        </p>
      </Banner>
    );
  }
  if (usage.level === "warning") {
    return (
      <Banner tone="warning" title={t.warningTitle((usage.percent / 100).toLocaleString(locale, { style: "percent", maximumFractionDigits: 1 }))}>
        <p>
          {planId === "free" ? `${t.warningFree} ` : ""}
          <Link to={href("/app/plans")}>{t.seePlans}</Link>
        </p>
      </Banner>
    );
  }
  return null;
}

type Analytics = ReturnType<typeof useLoaderData<typeof loader>>["analytics"];

/** Events per day of the last two weeks (POST /analytics/track), as plain bars. */
function EventsChart({ analytics }: { analytics: Analytics }) {
  const { t, locale, day } = useAdminTexts();
  const perDay = analytics.series.map((d) => ({ date: d.date, total: Object.values(d.counts).reduce((a, b) => a + b, 0) }));
  const max = Math.max(1, ...perDay.map((d) => d.total));
  const totals = Object.entries(analytics.totals);
  return (
    <BlockStack gap="300">
      <Text as="h2" variant="headingMd">
        {t.home.eventsTitle(analytics.days)}
      </Text>
      <div role="img" aria-label={t.home.eventsLabel(day(analytics.from), day(analytics.to))} style={{ display: "flex", alignItems: "flex-end", gap: 4, height: 80 }}>
        {perDay.map((d) => (
          <div
            key={d.date}
            title={`${day(d.date)}: ${d.total.toLocaleString(locale)}`}
            style={{ flex: 1, height: `${Math.max(2, (d.total / max) * 100)}%`, background: d.total ? "var(--p-color-bg-fill-info-active)" : "var(--p-color-border)", borderRadius: 2 }}
          />
        ))}
      </div>
      <Text as="p" tone="subdued">
        {totals.length ? totals.map(([event, count]) => `${t.home.eventName(event)}: ${count.toLocaleString(locale)}`).join(" · ") : t.home.noEvents}
      </Text>
    </BlockStack>
  );
}

function Check({ done, children }: { done: boolean | null; children: React.ReactNode }) {
  const t = useAdminTexts().t.home;
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <Badge tone={done ? "success" : "attention"}>{done ? t.done : done === null ? t.check : t.toDo}</Badge>
      <Text as="span">{children}</Text>
    </InlineStack>
  );
}

export default function Home() {
  const { overview, checklist, analytics, revenue } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  const { plan, trial, usage } = overview;
  const { t: texts, locale, href } = useAdminTexts();
  const t = texts.home;
  const progress = usage.limit === null ? 0 : Math.min(100, usage.percent);
  return (
    <Page title={overview.shop.name}>
      <Layout>
        {trial.expired ? (
          <Layout.Section>
            <Banner tone="critical" title={t.trialEndedTitle}>
              <p>
                {t.trialEndedBefore}
                <Link to={href("/app/plans")}>{t.trialEndedLink}</Link>
                {t.trialEndedAfter}
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
                    {t.plan(plan.name)}
                  </Text>
                  <Link to={href("/app/plans")}>{t.plansLink}</Link>
                </InlineStack>
                {trial.daysLeft !== null && trial.daysLeft > 0 ? (
                  <Text as="p">{t.trialLeft(trial.daysLeft)}</Text>
                ) : null}
                <Text as="p" id="usage-label">
                  {t.actionsThisMonth(usage.used.toLocaleString(locale), usage.limit !== null ? usage.limit.toLocaleString(locale) : null)}
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
                  {t.revenueTitle}
                </Text>
                <Link to={href("/app/revenue")}>{t.revenueLink}</Link>
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
                {t.setupTitle}
              </Text>
              <Check done={null}>
                {t.embedBefore}
                <a href={checklist.themeEditorUrl} target="_top">
                  {t.embedLink}
                </a>
                {t.embedAfter}
              </Check>
              <Check done={checklist.keyActive}>{checklist.keyActive ? t.keyActive : t.keyInactive}</Check>
              <Check done={checklist.firstSaveSeen}>{checklist.firstSaveSeen ? t.saving : t.notSaving}</Check>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
