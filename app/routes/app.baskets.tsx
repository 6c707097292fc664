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

export async function loader({ request }: LoaderFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const [{ baskets }, partner] = await Promise.all([listBasketConfigs(partnerId), getPartner(partnerId)]);
  return json({ baskets, layouts: LAYOUTS, webhooks: getPlan(partner.plan)?.webhooks ?? false, planName: getPlan(partner.plan)?.name ?? partner.plan });
}

export async function action({ request }: ActionFunctionArgs) {
  const { partnerId } = await requireAdmin(request);
  const form = await request.formData();
  const id = field(form, "id");
  return outcome(async () => {
    if (field(form, "intent") === "test-webhook") {
      const { status } = await testBasketWebhook(partnerId, id);
      return { message: `Your endpoint answered ${status}.` };
    }
    const webhookUrl = field(form, "webhookUrl").trim();
    const cartUrl = field(form, "cartUrl").trim();
    const { webhookSecret } = await updateBasketConfig(partnerId, id, {
      layout: field(form, "layout"),
      primaryColor: field(form, "primaryColor").trim(),
      checkout: { mode: field(form, "mode"), ...(cartUrl ? { cartUrl } : {}) },
      ...(form.has("webhookUrl") ? { webhookUrl: webhookUrl || null } : {}),
    });
    return { message: "Saved.", ...(webhookSecret ? { webhookSecret } : {}) };
  });
}

const LAYOUT_LABEL: Record<string, string> = { drawer: "Drawer from the right", modal: "Window in the middle", page: "Full page" };

type Basket = Awaited<ReturnType<typeof listBasketConfigs>>["baskets"][number];

export default function Baskets() {
  const { baskets, layouts, webhooks, planName } = useLoaderData<typeof loader>();
  return (
    <Page title="Wishlist drawer">
      <Layout>
        {baskets.length === 0 && (
          <Layout.Section>
            <Banner tone="warning">
              <p>No drawer is set up for this shop yet. Reinstalling the app creates one.</p>
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
  const save = () =>
    fetcher.submit(
      { id: basket.id, layout, primaryColor: color, mode, cartUrl, ...(webhooks ? { webhookUrl } : {}) },
      { method: "post" },
    );
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Drawer <code>{basket.id}</code>
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
                Signing secret (shown once): <code>{String(data.webhookSecret)}</code>
              </p>
            )}
          </Banner>
        )}
        <InlineStack gap="400" wrap>
          <Select label="Layout" options={layouts.map((l) => ({ label: LAYOUT_LABEL[l] ?? l, value: l }))} value={layout} onChange={setLayout} />
          <TextField label="Color" value={color} onChange={setColor} autoComplete="off" helpText="Buttons and links in the drawer, as #rrggbb; the default is #111111 (near black)." maxLength={7} />
          <Select
            label="Checkout"
            options={[
              { label: "Add to the shop's cart", value: "cart" },
              { label: "Link to the product", value: "link" },
              { label: "Send to my webhook", value: "webhook" },
            ]}
            value={mode}
            onChange={setMode}
          />
        </InlineStack>
        <TextField
          label="Cart URL"
          value={cartUrl}
          onChange={setCartUrl}
          autoComplete="off"
          helpText="With {variant_id} and {quantity}, e.g. /cart/add?id={variant_id}&quantity={quantity}"
        />
        {webhooks ? (
          <TextField label="Checkout webhook URL" value={webhookUrl} onChange={setWebhookUrl} autoComplete="off" helpText="Leave empty for none." />
        ) : (
          <Text as="p" tone="subdued">
            Checkout webhooks come with the Growth plan and up; this shop is on {planName}.
          </Text>
        )}
        <InlineStack gap="200">
          <Button variant="primary" onClick={save} loading={busy}>
            Save
          </Button>
          {webhooks && basket.webhookUrl && (
            <Button onClick={() => fetcher.submit({ intent: "test-webhook", id: basket.id }, { method: "post" })} disabled={busy}>
              Send test
            </Button>
          )}
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
