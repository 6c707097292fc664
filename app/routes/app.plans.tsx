// /app/plans, the {upgrade_url} of every 402 and 403 subscription_required:
// current plan, trial and usage, the plans to buy through Shopify billing,
// the way back to Free, and the branding badge setting (SPEC 8.1).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { z } from "zod";
import { requireAdmin } from "~/admin/session.server";
import { previewReadOnly } from "~/admin/preview.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";
import { embeddedAppUrl } from "~/admin/urls";
import { ADMIN_TEXTS, adminLang, type AdminTexts } from "~/i18n/admin";
import { useAdminTexts } from "~/admin/use-texts";
import { env } from "~/env.server";
import { BILLING_IS_TEST } from "~/shopify.server";
import { ApiError } from "~/lib/api/errors";
import { billingPlanByName } from "~/domains/plans/billing-plans";
import { getPlan } from "~/domains/plans/plans";
import { brandingBadge, setBrandingBadge } from "~/domains/shops/badge.server";
import { planOffers, shopOverview } from "~/domains/shops/overview.server";
import { switchToFree } from "~/domains/shops/subscription.server";
import { formatMoney, toMinor } from "~/lib/money";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, admin, partnerId } = await requireAdmin(request);
  const [overview, badge] = await Promise.all([shopOverview(shop), brandingBadge(admin.graphql, partnerId)]);
  const free = getPlan("free")!;
  return {
    overview,
    offers: planOffers(overview.plan.id, shop.plan),
    badge,
    testCharges: BILLING_IS_TEST,
    free: { includedActions: free.includedActions ?? 0 },
    appTrialDays: getPlan("starter")!.trialDays,
  };
};

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), plan: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("free") }),
  z.object({ intent: z.literal("badge"), shown: z.enum(["true", "false"]) }),
]);

/** Domain errors the page words itself; other codes keep the sentence they came with. */
function errorReply(err: ApiError, t: AdminTexts["plans"]) {
  const message =
    err.code === "cancel_failed" ? t.cancelFailed(err.message) : err.code === "no_subscription" ? t.noSubscription : err.code === "plan_required" ? t.badgePlanRequired : err.message;
  return data({ error: err.code, message }, { status: err.status });
}

export const action = async ({ request }: ActionFunctionArgs) => {
  const { billing, session, partnerId, admin, preview } = await requireAdmin(request);
  const t = ADMIN_TEXTS[adminLang(request)].plans;
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "invalid_input", message: t.invalidInput }, { status: 400 });
  const input = parsed.data;
  try {
    if (input.intent === "subscribe") {
      const plan = billingPlanByName(input.plan);
      if (!plan) return data({ error: "invalid_plan", message: t.unknownPlan(input.plan) }, { status: 400 });
      // Throws Shopify's confirmation redirect (a 401 with a reauthorize URL for App Bridge's fetch).
      await billing.request({
        plan: plan.name,
        isTest: BILLING_IS_TEST,
        returnUrl: embeddedAppUrl(session.shop, env.SHOPIFY_API_KEY ?? "", "/app/plans"),
      });
      return data({ error: "billing_failed", message: t.noConfirmation }, { status: 502 });
    }
    if (input.intent === "free") {
      // The preview's demo shop has no Shopify subscription: it answers with the preview's note, like Choose.
      if (preview) throw previewReadOnly(request);
      await switchToFree(session.shop, admin.graphql, { acceptTest: BILLING_IS_TEST });
      return { ok: true as const, switched: true };
    }
    const badge = await setBrandingBadge(admin.graphql, partnerId, input.shown === "true");
    return { ok: true as const, badge };
  } catch (err) {
    // A plan rule, Shopify's refusal, or the local preview's "not connected to Shopify"; Shopify's own responses pass on.
    if (err instanceof ApiError) return errorReply(err, t);
    throw err;
  }
};

export default function Plans() {
  const { overview, offers, badge, testCharges, free, appTrialDays } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t: texts, locale } = useAdminTexts();
  const t = texts.plans;
  const [confirming, setConfirming] = useState(false);
  const busy = navigation.state !== "idle" ? navigation.formData?.get("plan") ?? navigation.formData?.get("intent") : null;
  const error = result && "error" in result ? result : null;
  const switched = result && "switched" in result;
  const { trial, usage } = overview;
  const number = (n: number) => n.toLocaleString(locale);
  const usd = (amount: number) => formatMoney(toMinor(amount, "USD"), "USD", locale);
  const paid = overview.subscription.status === "active" && overview.subscription.name !== null;
  const trialEnds = new Date(trial.endsAt).toLocaleDateString(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  return (
    <Page title={t.title}>
      <Layout>
        {error ? (
          <Layout.Section>
            {/* The local preview's note is information, not a failure. */}
            {error.error === "preview_read_only" ? (
              <Banner tone="info">
                <p>{error.message}</p>
              </Banner>
            ) : (
              <Banner tone="critical" title={texts.common.failedTitle}>
                <p>{error.message}</p>
              </Banner>
            )}
          </Layout.Section>
        ) : null}
        {switched ? (
          <Layout.Section>
            <Banner tone="success">
              <p>{t.switched}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {trial.expired ? (
          <Layout.Section>
            <Banner tone="warning" title={t.trialEndedTitle}>
              <p>{t.trialEndedText}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t.yourPlan(overview.plan.name)}
                {overview.subscription.status === "active" ? t.subscribed : ""}
              </Text>
              {trial.daysLeft !== null && trial.daysLeft > 0 ? <Text as="p">{t.trialLeft(trial.daysLeft)}</Text> : null}
              <Text as="p">{t.actionsThisMonth(number(usage.used), usage.limit !== null ? number(usage.limit) : null)}</Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
            {offers.map((offer) => (
              <Card key={offer.id}>
                <BlockStack gap="300">
                  <InlineStack align="space-between">
                    <Text as="h3" variant="headingMd">
                      {offer.name}
                    </Text>
                    {offer.current ? <Badge tone="success">{t.current}</Badge> : null}
                  </InlineStack>
                  <Text as="p">{t.includedActions(number(offer.includedActions ?? 0))}</Text>
                  <Text as="p">
                    {t.trialDays(offer.trialDays)}
                    {offer.webhooks ? t.checkoutWebhooks : ""}
                  </Text>
                  {offer.variants.map((variant) => (
                    <Form method="post" key={variant.name}>
                      <input type="hidden" name="intent" value="subscribe" />
                      <input type="hidden" name="plan" value={variant.name} />
                      <InlineStack align="space-between" blockAlign="center" gap="200">
                        <Text as="span">{variant.interval === "monthly" ? t.monthly(usd(variant.amountUsd) ?? "") : t.yearly(usd(variant.amountUsd) ?? "")}</Text>
                        <Button submit disabled={variant.current} loading={busy === variant.name} accessibilityLabel={variant.current ? undefined : t.chooseLabel(variant.name)}>
                          {variant.current ? t.current : t.choose}
                        </Button>
                      </InlineStack>
                    </Form>
                  ))}
                </BlockStack>
              </Card>
            ))}
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.freeTitle}
              </Text>
              <Text as="p">{t.freeText(number(free.includedActions), appTrialDays)}</Text>
              {testCharges ? (
                <Text as="p" tone="subdued">
                  {t.testCharges}
                </Text>
              ) : null}
              {paid && !switched ? (
                confirming ? (
                  <Banner tone="warning" title={t.confirmTitle(overview.plan.name)}>
                    <BlockStack gap="200">
                      <p>{t.confirmEnds(overview.plan.name)}</p>
                      <p>{t.confirmActions(number(free.includedActions))}</p>
                      <p>{t.confirmFeatures}</p>
                      <p>{trial.endsAt && new Date(trial.endsAt).getTime() > Date.now() ? t.confirmTrialLeft(trialEnds) : t.confirmTrialOver}</p>
                      <Form method="post">
                        <input type="hidden" name="intent" value="free" />
                        <InlineStack gap="200">
                          <Button submit variant="primary" tone="critical" loading={busy === "free"}>
                            {t.confirmYes}
                          </Button>
                          <Button onClick={() => setConfirming(false)}>{t.confirmKeep(overview.plan.name)}</Button>
                        </InlineStack>
                      </Form>
                    </BlockStack>
                  </Banner>
                ) : (
                  <BlockStack gap="200" inlineAlign="start">
                    <Text as="p">{t.switchIntro(overview.plan.name)}</Text>
                    <Button onClick={() => setConfirming(true)}>{t.switchToFree}</Button>
                  </BlockStack>
                )
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t.badgeTitle}
              </Text>
              <Text as="p">
                {badge.shown ? t.badgeShown : t.badgeHidden} {badge.canHide ? "" : t.badgePaidOnly}
              </Text>
              <Form method="post">
                <input type="hidden" name="intent" value="badge" />
                <input type="hidden" name="shown" value={badge.shown ? "false" : "true"} />
                <Button submit disabled={badge.shown && !badge.canHide} loading={busy === "badge"}>
                  {badge.shown ? t.badgeHide : t.badgeShow}
                </Button>
              </Form>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
