// Admin: the shop's basket configurations (SPEC 4.5) — drawer layout, colour,
// checkout, and the checkout webhook (Growth and up, SPEC 8.1) with a test send.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { field, outcome } from "~/admin/outcome.server";
import { requireAdmin } from "~/admin/session.server";
import { LAYOUTS, listBasketConfigs, testBasketWebhook, updateBasketConfig } from "~/domains/baskets/baskets.server";
import { getPartner } from "~/domains/partners/partners.server";
import { getPlan } from "~/domains/plans/plans";
import { ADMIN_TEXTS, adminLang } from "~/i18n/admin";
import { useAdminTexts } from "~/admin/use-texts";

export async function loader({ request }: LoaderFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const [{ baskets }, partner] = await Promise.all([listBasketConfigs(partnerId), getPartner(partnerId)]);
  return json({ baskets, layouts: LAYOUTS, webhooks: getPlan(partner.plan)?.webhooks ?? false, planName: getPlan(partner.plan)?.name ?? partner.plan });
}

export async function action({ request }: ActionFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const form = await request.formData();
  const id = field(form, "id");
  const t = ADMIN_TEXTS[adminLang(request)].baskets;
  return outcome(request, async () => {
    if (field(form, "intent") === "test-webhook") {
      const { status } = await testBasketWebhook(partnerId, id);
      return { message: t.endpointAnswered(status) };
    }
    const webhookUrl = field(form, "webhookUrl").trim();
    const cartUrl = field(form, "cartUrl").trim();
    const { webhookSecret } = await updateBasketConfig(partnerId, id, {
      layout: field(form, "layout"),
      primaryColor: field(form, "primaryColor").trim(),
      checkout: { mode: field(form, "mode"), ...(cartUrl ? { cartUrl } : {}) },
      ...(form.has("webhookUrl") ? { webhookUrl: webhookUrl || null } : {}),
    });
    return { message: t.saved, ...(webhookSecret ? { webhookSecret } : {}) };
  });
}

type Basket = Awaited<ReturnType<typeof listBasketConfigs>>["baskets"][number];

export default function Baskets() {
  const { baskets, layouts, webhooks, planName } = useLoaderData<typeof loader>();
  const t = useAdminTexts().t.baskets;
  return (
    <Page title={t.title}>
      <Layout>
        {baskets.length === 0 && (
          <Layout.Section>
            <Banner tone="warning">
              <p>{t.none}</p>
            </Banner>
          </Layout.Section>
        )}
        {baskets.map((basket) => (
          <Layout.Section key={basket.id}>
            <BasketForm basket={basket} layouts={layouts} webhooks={webhooks} planName={planName} />
          </Layout.Section>
        ))}
      </Layout>
    </Page>
  );
}

function BasketForm({ basket, layouts, webhooks, planName }: { basket: Basket; layouts: readonly string[]; webhooks: boolean; planName: string }) {
  const fetcher = useFetcher<typeof action>();
  const checkout = basket.checkout as { mode: string; cartUrl?: string };
  const [layout, setLayout] = useState(basket.layout);
  const [color, setColor] = useState(basket.primaryColor ?? "");
  const [mode, setMode] = useState(checkout.mode);
  const [cartUrl, setCartUrl] = useState(checkout.cartUrl ?? "");
  const [webhookUrl, setWebhookUrl] = useState(basket.webhookUrl ?? "");
  const busy = fetcher.state !== "idle";
  const data = fetcher.data;
  const t = useAdminTexts().t.baskets;
  const save = () =>
    fetcher.submit(
      { id: basket.id, layout, primaryColor: color, mode, cartUrl, ...(webhooks ? { webhookUrl } : {}) },
      { method: "post" },
    );
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {t.drawer} <code>{basket.id}</code>
        </Text>
        {data && !data.ok && (
          <Banner tone="critical">
            <p>{data.error}</p>
          </Banner>
        )}
        {data?.ok && "message" in data && (
          <Banner tone="success">
            <p>{String(data.message)}</p>
            {"webhookSecret" in data && (
              <p>
                {t.secret} <code>{String(data.webhookSecret)}</code>
              </p>
            )}
          </Banner>
        )}
        <InlineStack gap="400" wrap>
          <Select label={t.layout} options={layouts.map((l) => ({ label: t.layouts[l] ?? l, value: l }))} value={layout} onChange={setLayout} />
          <TextField label={t.color} value={color} onChange={setColor} autoComplete="off" helpText={t.colorHelp} maxLength={7} />
          <Select
            label={t.checkout}
            options={[
              { label: t.modeCart, value: "cart" },
              { label: t.modeLink, value: "link" },
              { label: t.modeWebhook, value: "webhook" },
            ]}
            value={mode}
            onChange={setMode}
          />
        </InlineStack>
        <TextField
          label={t.cartUrl}
          value={cartUrl}
          onChange={setCartUrl}
          autoComplete="off"
          helpText={t.cartUrlHelp}
        />
        {webhooks ? (
          <TextField label={t.webhookUrl} value={webhookUrl} onChange={setWebhookUrl} autoComplete="off" helpText={t.webhookHelp} />
        ) : (
          <Text as="p" tone="subdued">
            {t.webhookGated(planName)}
          </Text>
        )}
        <InlineStack gap="200">
          <Button variant="primary" onClick={save} loading={busy}>
            {t.save}
          </Button>
          {webhooks && basket.webhookUrl && (
            <Button onClick={() => fetcher.submit({ intent: "test-webhook", id: basket.id }, { method: "post" })} disabled={busy}>
              {t.sendTest}
            </Button>
          )}
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
