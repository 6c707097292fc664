// /alerts/confirm?token=…&lang=de|en (docs/alerts.md): the double opt-in
// link sent to a new alert address. GET shows a button (a link scanner's GET
// confirms nothing); POST confirms, without a session: the signed token
// names the shopper and the address.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { confirmAlerts } from "~/domains/alerts/consent.server";
import { alertTexts } from "~/i18n/alert-pages";
import { ALERT_LINK_HEADERS as HEADERS, AlertLinkPage, alertLinkLinks, alertLinkMeta, alertLinkParams } from "~/hosted-pages/alert-link-page";

export const links = alertLinkLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const { lang } = alertLinkParams(request);
  return json({ lang, outcome: null }, { headers: HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const { token, lang } = alertLinkParams(request);
  const outcome = await confirmAlerts(token);
  return json({ lang, outcome }, { status: outcome === "invalid" ? 400 : 200, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => alertLinkMeta(alertTexts(data?.lang ?? "en").confirmTitle);

export default function Confirm() {
  const { lang } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const t = alertTexts(lang);
  if (done?.outcome === "confirmed") return <AlertLinkPage lang={lang} title={t.confirmedTitle} text={t.confirmedText} button={null} tone="success" />;
  if (done?.outcome === "invalid") return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.invalidText} button={null} tone="error" />;
  return <AlertLinkPage lang={lang} title={t.confirmTitle} text={t.confirmIntro} button={t.confirmButton} tone="neutral" />;
}
