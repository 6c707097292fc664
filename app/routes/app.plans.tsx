// /app/plans, the {upgrade_url} of every 402 and 403 subscription_required:
// current plan, trial and usage, the plans to buy through Shopify billing,
// and the branding badge setting (SPEC 8.1).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { z } from "zod";
import { requireAdmin } from "~/admin/session.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";
import { embeddedAppUrl } from "~/admin/urls";
import { env } from "~/env.server";
import { BILLING_IS_TEST } from "~/shopify.server";
import { ApiError } from "~/lib/api/errors";
import { billingPlanByName } from "~/domains/plans/billing-plans";
import { brandingBadge, setBrandingBadge } from "~/domains/shops/badge.server";
import { planOffers, shopOverview } from "~/domains/shops/overview.server";
import { formatMoney, toMinor } from "~/lib/money";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, admin, partnerId } = await requireAdmin(request);
  const [overview, badge] = await Promise.all([shopOverview(shop), brandingBadge(admin.graphql, partnerId)]);
  return { overview, offers: planOffers(overview.plan.id, shop.plan), badge, testCharges: BILLING_IS_TEST };
};

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), plan: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("badge"), shown: z.enum(["true", "false"]) }),
]);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { billing, session, partnerId, admin } = await requireAdmin(request);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "invalid_input", message: "Choose a plan or a badge setting" }, { status: 400 });
  const input = parsed.data;
  try {
    if (input.intent === "subscribe") {
      const plan = billingPlanByName(input.plan);
      if (!plan) return data({ error: "invalid_plan", message: `There is no plan called ${JSON.stringify(input.plan)}` }, { status: 400 });
      // Throws Shopify's confirmation redirect (a 401 with a reauthorize URL for App Bridge's fetch).
      await billing.request({
        plan: plan.name,
        isTest: BILLING_IS_TEST,
        returnUrl: embeddedAppUrl(session.shop, env.SHOPIFY_API_KEY ?? "", "/app/plans"),
      });
      return data({ error: "billing_failed", message: "Shopify did not return a confirmation page" }, { status: 502 });
    }
    const badge = await setBrandingBadge(admin.graphql, partnerId, input.shown === "true");
    return { ok: true as const, badge };
  } catch (err) {
    // A plan rule, or the local preview's "not connected to Shopify"; Shopify's own responses pass on.
    if (err instanceof ApiError) return data(err.body() as { error: string; message: string }, { status: err.status });
    throw err;
  }
};

const usd = (amount: number) => formatMoney(toMinor(amount, "USD"), "USD", "en-US");

export default function Plans() {
  const { overview, offers, badge, testCharges } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData?.get("plan") ?? navigation.formData?.get("intent") : null;
  const error = result && "error" in result ? result : null;
  const { trial, usage } = overview;
  return (
    <Page title="Plans">
      <Layout>
        {error ? (
          <Layout.Section>
            {/* The local preview's note is information, not a failure. */}
            {error.error === "preview_read_only" ? (
              <Banner tone="info">
                <p>{error.message}</p>
              </Banner>
            ) : (
              <Banner tone="critical" title="That did not work">
                <p>{error.message}</p>
              </Banner>
            )}
          </Layout.Section>
        ) : null}
        {trial.expired ? (
          <Layout.Section>
            <Banner tone="warning" title="Your trial has ended">
              <p>Wishlist buttons stay off on your store until you choose a plan.</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Your plan: {overview.plan.name}
                {overview.subscription.status === "active" ? " (subscribed)" : ""}
              </Text>
              {trial.daysLeft !== null && trial.daysLeft > 0 ? (
                <Text as="p">
                  Free trial: {trial.daysLeft} {trial.daysLeft === 1 ? "day" : "days"} left. Choose a plan before it ends to keep the wishlist buttons on.
                </Text>
              ) : null}
              <Text as="p">
                Actions this month: {usage.used.toLocaleString("en-US")}
                {usage.limit !== null ? ` of ${usage.limit.toLocaleString("en-US")}` : ""}
              </Text>
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
                    {offer.current ? <Badge tone="success">Current</Badge> : null}
                  </InlineStack>
                  <Text as="p">{offer.includedActions?.toLocaleString("en-US")} actions a month included</Text>
                  <Text as="p">{offer.trialDays}-day free trial{offer.webhooks ? " · checkout webhooks" : ""}</Text>
                  {offer.variants.map((variant) => (
                    <Form method="post" key={variant.name}>
                      <input type="hidden" name="intent" value="subscribe" />
                      <input type="hidden" name="plan" value={variant.name} />
                      <InlineStack align="space-between" blockAlign="center">
                        <Text as="span">
                          {usd(variant.amountUsd)} {variant.interval === "monthly" ? "every 30 days" : "a year (−20%)"}
                        </Text>
                        <Button
                          submit
                          disabled={variant.current}
                          loading={busy === variant.name}
                          accessibilityLabel={`Choose ${variant.name}`}
                        >
                          {variant.current ? "Current" : "Choose"}
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
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Free
              </Text>
              <Text as="p">
                200 actions a month while the 14-day free trial of the app lasts; saves pause at the limit until the next month. No charge. When the
                trial ends, choose a plan to keep the wishlist buttons on.
              </Text>
              {testCharges ? (
                <Text as="p" tone="subdued">
                  Charges on this server are test charges.
                </Text>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Branding badge
              </Text>
              <Text as="p">
                {badge.shown ? "The “Wishlist by Wish” badge under the wishlist button is shown on your store." : "The badge is hidden on your store."}{" "}
                {badge.canHide ? "" : "It can be switched off on a paid plan."}
              </Text>
              <Form method="post">
                <input type="hidden" name="intent" value="badge" />
                <input type="hidden" name="shown" value={badge.shown ? "false" : "true"} />
                <Button submit disabled={badge.shown && !badge.canHide} loading={busy === "badge"}>
                  {badge.shown ? "Hide the badge" : "Show the badge"}
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
