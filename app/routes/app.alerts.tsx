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
import { isLang } from "~/i18n/lang";
import { renderMail } from "~/pages/emails";
import { LOW_STOCK_THRESHOLD_MAX, REMINDER_DAYS, SENDER_NAME_MAX } from "~/domains/alerts/limits";
import { reminderPreview } from "~/domains/alerts/reminders.server";
import { getPartner } from "~/domains/partners/partners.server";
import { formatMoney } from "~/lib/money";
import { ALERT_KINDS, getPlan, type AlertKind } from "~/domains/plans/plans";
import { ApiError } from "~/lib/api/errors";
import { ADMIN_TEXTS, adminLang } from "~/i18n/admin";
import { useAdminTexts } from "~/admin/use-texts";

type PreviewKind = AlertKind | "reminder";
const PREVIEW_KINDS: readonly PreviewKind[] = [...ALERT_KINDS, "reminder"];

export async function loader({ request }: LoaderFunctionArgs) {
  const { partnerId, shop } = await requireAdmin(request);
  const partner = await getPartner(partnerId);
  // The e-mail preview: `?preview=<kind|reminder>&lang=<de|en>` (defaults: price drop, the admin's language).
  const url = new URL(request.url);
  const asked = url.searchParams.get("preview");
  const kind: PreviewKind = PREVIEW_KINDS.find((k) => k === asked) ?? "price_drop";
  const askedLang = url.searchParams.get("lang");
  const adminLanguage = adminLang(request);
  const lang = isLang(askedLang) ? askedLang : isLang(adminLanguage) ? adminLanguage : "en";
  const [settings, sent] = await Promise.all([alertSettingsOf(shop.id, partner.plan), sentAlertsOf(shop.id)]);
  const { model, ...envelope } = kind === "reminder" ? await reminderPreview(shop.id, settings, lang) : await alertPreview(shop.id, settings, kind, lang);
  // The template the outbox sends with (app/pages/emails/).
  const { subject, html } = renderMail(model)!;
  return json({ settings, sent, planName: getPlan(partner.plan)?.name ?? partner.plan, preview: { kind, lang, ...envelope, subject, html } });
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
  const t = ADMIN_TEXTS[adminLang(request)].alerts;
  return outcome(request, async () => {
    const parsed = form.safeParse(Object.fromEntries(["priceDrop", "backInStock", "lowStock", "lowStockThreshold", "senderName", "replyTo", "reminderDays"].map((k) => [k, field(data, k)])));
    if (!parsed.success) throw new ApiError(400, "invalid_input", t.thresholdInvalid(LOW_STOCK_THRESHOLD_MAX));
    await updateAlertSettings(shop.id, parsed.data);
    return { message: t.saved };
  });
}

/** A cell whose text may wrap (DataTable cells do not), so the table fits a phone without scrolling. */
const wrapping = (text: string) => <span style={{ whiteSpace: "normal" }}>{text}</span>;

const sentAt = (iso: string, locale: string) =>
  new Date(iso).toLocaleString(locale, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });

const money = (minor: number | null, currency: string | null, locale: string) =>
  minor === null || !currency ? "—" : (formatMoney(minor, currency, locale) ?? "—");

export default function Alerts() {
  const { settings, sent, planName, preview } = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  const { lang: adminLanguage } = useAdminTexts();
  // `locale` keeps the admin's language for the reload.
  const showPreview = (next: { kind?: string; lang?: string }) =>
    setSearchParams(
      { preview: next.kind ?? preview.kind, lang: next.lang ?? preview.lang, locale: adminLanguage },
      { preventScrollReset: true, replace: true },
    );
  const fetcher = useFetcher<typeof action>();
  const allowed = (kind: AlertKind) => settings.allowed.includes(kind);
  const [priceDrop, setPriceDrop] = useState(settings.priceDrop);
  const [backInStock, setBackInStock] = useState(settings.backInStock);
  const [lowStock, setLowStock] = useState(settings.lowStock);
  const [threshold, setThreshold] = useState(String(settings.lowStockThreshold));
  const [senderName, setSenderName] = useState(settings.senderName ?? "");
  const [replyTo, setReplyTo] = useState(settings.replyTo ?? "");
  const [reminderDays, setReminderDays] = useState(String(settings.reminderDays));
  const { t: texts, locale } = useAdminTexts();
  const t = texts.alerts;
  const gatedKinds = [...ALERT_KINDS.filter((k) => !allowed(k)).map((k) => t.kinds[k] ?? k), ...(settings.remindersAllowed ? [] : [t.reminders])];
  const data = fetcher.data;
  const save = () =>
    fetcher.submit(
      { priceDrop: String(priceDrop), backInStock: String(backInStock), lowStock: String(lowStock), lowStockThreshold: threshold, senderName, replyTo, reminderDays },
      { method: "post" },
    );
  return (
    <Page title={t.title}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                {t.toShoppers}
              </Text>
              <Text as="p" tone="subdued">
                {t.intro}
              </Text>
              {data && !data.ok && (
                <Banner tone="critical">
                  <p>{data.error}</p>
                </Banner>
              )}
              {data?.ok && (
                <Banner tone="success">
                  <p>{t.saved}</p>
                </Banner>
              )}
              <Checkbox
                label={t.kinds.price_drop}
                helpText={allowed("price_drop") ? t.priceDropHelp : undefined}
                checked={allowed("price_drop") && priceDrop}
                disabled={!allowed("price_drop")}
                onChange={setPriceDrop}
              />
              <Checkbox label={t.kinds.back_in_stock} checked={allowed("back_in_stock") && backInStock} disabled={!allowed("back_in_stock")} onChange={setBackInStock} />
              <Checkbox
                label={t.kinds.low_stock}
                helpText={allowed("low_stock") ? t.lowStockHelp : undefined}
                checked={allowed("low_stock") && lowStock}
                disabled={!allowed("low_stock")}
                onChange={setLowStock}
              />
              {/* Said once, in readable text: Polaris greys a disabled checkbox's help text below contrast. */}
              {gatedKinds.length > 0 && (
                <Text as="p" tone="subdued">
                  {t.gatedKinds(gatedKinds, planName)}
                </Text>
              )}
              {/* A few digits: a full-width field would look like it wants a sentence. */}
              <Box maxWidth="240px">
                <TextField
                  label={t.threshold}
                  type="number"
                  min={1}
                  max={LOW_STOCK_THRESHOLD_MAX}
                  value={threshold}
                  onChange={setThreshold}
                  autoComplete="off"
                  disabled={!allowed("low_stock")}
                  helpText={t.thresholdHelp}
                />
              </Box>
              <Select
                label={t.reminderSelect}
                options={REMINDER_DAYS.map((d) => ({ label: t.reminderOptions[d] ?? String(d), value: String(d) }))}
                value={settings.remindersAllowed ? reminderDays : "0"}
                onChange={setReminderDays}
                disabled={!settings.remindersAllowed}
                helpText={settings.remindersAllowed ? t.reminderHelp : undefined}
              />
              <TextField
                label={t.senderName}
                value={senderName}
                onChange={setSenderName}
                autoComplete="off"
                maxLength={SENDER_NAME_MAX}
                helpText={t.senderHelp}
              />
              <TextField
                label={t.replyTo}
                type="email"
                value={replyTo}
                onChange={setReplyTo}
                autoComplete="off"
                helpText={t.replyToHelp}
              />
              <div>
                <Button variant="primary" onClick={save} loading={fetcher.state !== "idle"}>
                  {t.save}
                </Button>
              </div>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.previewTitle}
              </Text>
              <InlineStack gap="300" wrap>
                <Select
                  label={t.previewEmail}
                  options={PREVIEW_KINDS.map((k) => ({ label: t.kinds[k] ?? k, value: k }))}
                  value={preview.kind}
                  onChange={(kind) => showPreview({ kind })}
                />
                <Select
                  label={t.previewLanguage}
                  options={[
                    { label: t.languages.en!, value: "en" },
                    { label: t.languages.de!, value: "de" },
                  ]}
                  value={preview.lang}
                  onChange={(lang) => showPreview({ lang })}
                />
              </InlineStack>
              {!preview.allowed && (
                <Text as="p" tone="subdued">
                  {t.gatedPreview(planName)}
                </Text>
              )}
              <Text as="p">
                <Text as="span" fontWeight="semibold">
                  {t.from}
                </Text>{" "}
                {preview.from}
                {preview.replyTo ? t.repliesTo(preview.replyTo) : ""}
                <br />
                <Text as="span" fontWeight="semibold">
                  {t.subject}
                </Text>{" "}
                {preview.subject}
              </Text>
              <Text as="p" tone="subdued">
                {preview.kind === "reminder" ? t.previewNoteReminder : t.previewNoteAlert} {t.previewNoteParts}
              </Text>
              {/* The e-mail's own HTML, sandboxed: no script runs, no link navigates the admin. */}
              <iframe title={t.previewFrame} sandbox="" srcDoc={preview.html} style={{ width: "100%", height: 520, border: "1px solid #e3e3e3", borderRadius: 8 }} />
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t.sentTitle}
              </Text>
              {sent.length === 0 ? (
                <Text as="p" tone="subdued">
                  {t.noneSent}
                </Text>
              ) : (
                <DataTable
                  columnContentTypes={["text", "text", "numeric"]}
                  headings={[t.product, t.alert, t.price]}
                  rows={sent.map((a) => [
                    wrapping(a.title),
                    <BlockStack gap="050" key={a.id}>
                      {wrapping(t.kinds[a.kind] ?? a.kind)}
                      <Text as="span" variant="bodySm" tone="subdued">
                        {sentAt(a.sentAt, locale)} UTC
                      </Text>
                    </BlockStack>,
                    money(a.priceMinor, a.currency, locale),
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
