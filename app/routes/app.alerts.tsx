// Admin: alerts on saved products (docs/alerts.md) — which alerts the shop
// sends to shoppers who opted in, the low-stock threshold, how often shoppers
// who chose reminders get a digest of their saved items not yet bought, and
// the alerts sent lately. Free gets back in stock only; the other kinds and
// reminders show disabled, saying why.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, Checkbox, DataTable, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { field, outcome } from "~/admin/outcome.server";
import { requireAdmin } from "~/admin/session.server";
import { alertPreview, alertSettingsOf, sentAlertsOf, updateAlertSettings } from "~/domains/alerts/alerts.server";
import { isAlertLang } from "~/domains/alerts/alert-texts";
import { LOW_STOCK_THRESHOLD_MAX, REMINDER_DAYS, SENDER_NAME_MAX } from "~/domains/alerts/limits";
import { reminderPreview } from "~/domains/alerts/reminders.server";
import { getPartner } from "~/domains/partners/partners.server";
import { formatMoney } from "~/lib/money";
import { ALERT_KINDS, getPlan, type AlertKind } from "~/domains/plans/plans";
import { ApiError } from "~/lib/api/errors";

type PreviewKind = AlertKind | "reminder";
const PREVIEW_KINDS: readonly PreviewKind[] = [...ALERT_KINDS, "reminder"];

export async function loader({ request }: LoaderFunctionArgs) {
  const { partnerId, shop } = await requireAdmin(request);
  const partner = await getPartner(partnerId);
  // The e-mail preview: `?preview=<kind|reminder>&lang=<de|en>` (defaults: price drop, English).
  const url = new URL(request.url);
  const asked = url.searchParams.get("preview");
  const kind: PreviewKind = PREVIEW_KINDS.find((k) => k === asked) ?? "price_drop";
  const askedLang = url.searchParams.get("lang");
  const lang = isAlertLang(askedLang) ? askedLang : "en";
  const [settings, sent] = await Promise.all([alertSettingsOf(shop.id, partner.plan), sentAlertsOf(shop.id)]);
  const preview =
    kind === "reminder"
      ? await reminderPreview(shop.id, settings, lang)
      : await alertPreview(shop.id, settings, kind, lang);
  return json({ settings, sent, planName: getPlan(partner.plan)?.name ?? partner.plan, preview: { kind, lang, ...preview } });
}

const form = z.object({
  priceDrop: z.enum(["true", "false"]).transform((v) => v === "true"),
  backInStock: z.enum(["true", "false"]).transform((v) => v === "true"),
  lowStock: z.enum(["true", "false"]).transform((v) => v === "true"),
  lowStockThreshold: z.coerce.number().int().min(1).max(LOW_STOCK_THRESHOLD_MAX),
  senderName: z.string().max(200),
  replyTo: z.string().max(320),
  // Absent (an older form): left as it is.
  reminderDays: z
    .string()
    .regex(/^\d{0,3}$/)
    .transform((v) => (v === "" ? undefined : Number(v))),
});

export async function action({ request }: ActionFunctionArgs) {
  const { shop } = await requireAdmin(request);
  const data = await request.formData();
  return outcome(async () => {
    const parsed = form.safeParse(Object.fromEntries(["priceDrop", "backInStock", "lowStock", "lowStockThreshold", "senderName", "replyTo", "reminderDays"].map((k) => [k, field(data, k)])));
    if (!parsed.success) throw new ApiError(400, "invalid_input", `The low-stock threshold must be a whole number from 1 to ${LOW_STOCK_THRESHOLD_MAX}.`);
    await updateAlertSettings(shop.id, parsed.data);
    return { message: "Saved." };
  });
}

const KIND_LABEL: Record<string, string> = { price_drop: "Price drop", back_in_stock: "Back in stock", low_stock: "Low stock", reminder: "Reminder of saved items" };
const REMINDER_LABEL: Record<number, string> = { 0: "Off", 7: "Weekly", 14: "Every 2 weeks", 30: "Monthly" };

/** "Price drop, low stock and reminders": one sentence's subject. */
const gatedList = (labels: string[]) => {
  const list = labels.map((l, i) => (i === 0 ? l : l.toLowerCase())).join(", ");
  return list.replace(/, ([^,]*)$/, " and $1");
};

/** A cell whose text may wrap (DataTable cells do not), so the table fits a phone without scrolling. */
const wrapping = (text: string) => <span style={{ whiteSpace: "normal" }}>{text}</span>;

const sentAt = (iso: string) => new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });

const money = (minor: number | null, currency: string | null) => (minor === null || !currency ? "—" : (formatMoney(minor, currency, "en-US") ?? "—"));

export default function Alerts() {
  const { settings, sent, planName, preview } = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  const showPreview = (next: { kind?: string; lang?: string }) =>
    setSearchParams({ preview: next.kind ?? preview.kind, lang: next.lang ?? preview.lang }, { preventScrollReset: true, replace: true });
  const fetcher = useFetcher<typeof action>();
  const allowed = (kind: AlertKind) => settings.allowed.includes(kind);
  const [priceDrop, setPriceDrop] = useState(settings.priceDrop);
  const [backInStock, setBackInStock] = useState(settings.backInStock);
  const [lowStock, setLowStock] = useState(settings.lowStock);
  const [threshold, setThreshold] = useState(String(settings.lowStockThreshold));
  const [senderName, setSenderName] = useState(settings.senderName ?? "");
  const [replyTo, setReplyTo] = useState(settings.replyTo ?? "");
  const [reminderDays, setReminderDays] = useState(String(settings.reminderDays));
  const gated = `Comes with Starter and up; this shop is on ${planName}.`;
  const gatedKinds = [...ALERT_KINDS.filter((k) => !allowed(k)).map((k) => KIND_LABEL[k]), ...(settings.remindersAllowed ? [] : ["Reminders"])];
  const data = fetcher.data;
  const save = () =>
    fetcher.submit(
      { priceDrop: String(priceDrop), backInStock: String(backInStock), lowStock: String(lowStock), lowStockThreshold: threshold, senderName, replyTo, reminderDays },
      { method: "post" },
    );
  return (
    <Page title="Alerts">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                Alerts to shoppers
              </Text>
              <Text as="p" tone="subdued">
                E-mails to shoppers who saved your products and opted in (with a confirmed address). Each has a one-click unsubscribe; a shopper gets a few per day at most.
              </Text>
              {data && !data.ok && (
                <Banner tone="critical">
                  <p>{data.error}</p>
                </Banner>
              )}
              {data?.ok && (
                <Banner tone="success">
                  <p>Saved.</p>
                </Banner>
              )}
              <Checkbox
                label="Price drop"
                helpText={allowed("price_drop") ? "With the previous price and the lowest price of the 30 days before." : undefined}
                checked={allowed("price_drop") && priceDrop}
                disabled={!allowed("price_drop")}
                onChange={setPriceDrop}
              />
              <Checkbox label="Back in stock" checked={allowed("back_in_stock") && backInStock} disabled={!allowed("back_in_stock")} onChange={setBackInStock} />
              <Checkbox
                label="Low stock"
                helpText={allowed("low_stock") ? "When a saved variant's stock falls to the threshold or below." : undefined}
                checked={allowed("low_stock") && lowStock}
                disabled={!allowed("low_stock")}
                onChange={setLowStock}
              />
              {/* Said once, in readable text: Polaris greys a disabled checkbox's help text below contrast. */}
              {gatedKinds.length > 0 && (
                <Text as="p" tone="subdued">
                  {gatedList(gatedKinds)} come with Starter and up; this shop is on {planName}.
                </Text>
              )}
              {/* A few digits: a full-width field would look like it wants a sentence. */}
              <Box maxWidth="240px">
                <TextField
                  label="Low-stock threshold"
                  type="number"
                  min={1}
                  max={LOW_STOCK_THRESHOLD_MAX}
                  value={threshold}
                  onChange={setThreshold}
                  autoComplete="off"
                  disabled={!allowed("low_stock")}
                  helpText="Units left in stock."
                />
              </Box>
              <Select
                label="Reminders of saved items not yet bought"
                options={REMINDER_DAYS.map((d) => ({ label: REMINDER_LABEL[d] ?? String(d), value: String(d) }))}
                value={settings.remindersAllowed ? reminderDays : "0"}
                onChange={setReminderDays}
                disabled={!settings.remindersAllowed}
                helpText={
                  settings.remindersAllowed
                    ? "A digest of their saved products they haven't bought, to shoppers who chose reminders; at most once a week. Off until you choose."
                    : undefined
                }
              />
              <TextField
                label="Sender name"
                value={senderName}
                onChange={setSenderName}
                autoComplete="off"
                maxLength={SENDER_NAME_MAX}
                helpText="Shown as the e-mails' sender, e.g. your shop's name. Empty: the service's default sender."
              />
              <TextField
                label="Reply-to address"
                type="email"
                value={replyTo}
                onChange={setReplyTo}
                autoComplete="off"
                helpText="Where shoppers' replies go. Empty: replies are not collected."
              />
              <div>
                <Button variant="primary" onClick={save} loading={fetcher.state !== "idle"}>
                  Save
                </Button>
              </div>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                E-mail preview
              </Text>
              <InlineStack gap="300" wrap>
                <Select
                  label="E-mail"
                  options={PREVIEW_KINDS.map((k) => ({ label: KIND_LABEL[k] ?? k, value: k }))}
                  value={preview.kind}
                  onChange={(kind) => showPreview({ kind })}
                />
                <Select
                  label="Language"
                  options={[
                    { label: "English", value: "en" },
                    { label: "German", value: "de" },
                  ]}
                  value={preview.lang}
                  onChange={(lang) => showPreview({ lang })}
                />
              </InlineStack>
              {!preview.allowed && (
                <Text as="p" tone="subdued">
                  {gated}
                </Text>
              )}
              <Text as="p">
                <Text as="span" fontWeight="semibold">
                  From:
                </Text>{" "}
                {preview.from}
                {preview.replyTo ? ` (replies to ${preview.replyTo})` : ""}
                <br />
                <Text as="span" fontWeight="semibold">
                  Subject:
                </Text>{" "}
                {preview.subject}
              </Text>
              <Text as="p" tone="subdued">
                {preview.kind === "reminder" ? "With your three newest products at their prices." : "With your newest product and example prices."} The e-mail also has a plain-text
                part and the one-click unsubscribe headers.
              </Text>
              {/* The e-mail's own HTML, sandboxed: no script runs, no link navigates the admin. */}
              <iframe title="Alert e-mail preview" sandbox="" srcDoc={preview.html} style={{ width: "100%", height: 520, border: "1px solid #e3e3e3", borderRadius: 8 }} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Sent alerts
              </Text>
              {sent.length === 0 ? (
                <Text as="p" tone="subdued">
                  No alerts sent yet.
                </Text>
              ) : (
                <DataTable
                  columnContentTypes={["text", "text", "numeric"]}
                  headings={["Product", "Alert", "Price"]}
                  rows={sent.map((a) => [
                    wrapping(a.title),
                    <BlockStack gap="050" key={a.id}>
                      {wrapping(KIND_LABEL[a.kind] ?? a.kind)}
                      <Text as="span" variant="bodySm" tone="subdued">
                        {sentAt(a.sentAt)} UTC
                      </Text>
                    </BlockStack>,
                    money(a.priceMinor, a.currency),
                  ])}
                />
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
