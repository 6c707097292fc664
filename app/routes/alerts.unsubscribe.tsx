// /alerts/unsubscribe?token=…&lang=de|en[&scope=reminders] (docs/alerts.md):
// every alert e-mail's one-click unsubscribe, and with `scope=reminders` every
// reminder digest's, which ends reminders only. GET shows a button; POST (the
// button, or a mail client's RFC 8058 `List-Unsubscribe=One-Click`)
// unsubscribes, without a session: the signed token names the shopper and
// address (and a reminder link's token is signed for reminders alone).
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { unsubscribeAlerts, unsubscribeReminders } from "~/domains/alerts/consent.server";
import { alertTexts } from "~/i18n/alert-pages";
import { ALERT_LINK_HEADERS as HEADERS, AlertLinkPage, alertLinkLinks, alertLinkMeta, alertLinkParams } from "~/hosted-pages/alert-link-page";

export const links = alertLinkLinks;

/** The link's token and language, and whether it ends reminders only (`scope=reminders`) or all alerts. */
function parse(request: Request) {
  const { token, lang, params } = alertLinkParams(request);
  return { token, lang, scope: params.get("scope") === "reminders" ? ("reminders" as const) : ("alerts" as const) };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { lang, scope } = parse(request);
  return json({ lang, scope, outcome: null }, { headers: HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const { token, lang, scope } = parse(request);
  const outcome = scope === "reminders" ? await unsubscribeReminders(token) : await unsubscribeAlerts(token);
  return json({ lang, scope, outcome }, { status: outcome === "invalid" ? 400 : 200, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const t = alertTexts(data?.lang ?? "en");
  return alertLinkMeta(data?.scope === "reminders" ? t.remindersOffTitle : t.unsubscribeTitle);
};

export default function Unsubscribe() {
  const { lang, scope } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const t = alertTexts(lang);
  if (scope === "reminders") {
    if (done?.outcome === "unsubscribed") return <AlertLinkPage lang={lang} title={t.remindersOffDoneTitle} text={t.remindersOffDoneText} button={null} tone="success" />;
    if (done?.outcome === "invalid") return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.invalidText} button={null} tone="error" />;
    return <AlertLinkPage lang={lang} title={t.remindersOffTitle} text={t.remindersOffIntro} button={t.remindersOffButton} tone="neutral" />;
  }
  if (done?.outcome === "unsubscribed") return <AlertLinkPage lang={lang} title={t.unsubscribedTitle} text={t.unsubscribedText} button={null} tone="success" />;
  if (done?.outcome === "invalid") return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.invalidText} button={null} tone="error" />;
  return <AlertLinkPage lang={lang} title={t.unsubscribeTitle} text={t.unsubscribeIntro} button={t.unsubscribeButton} tone="neutral" />;
}
