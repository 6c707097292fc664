// /alerts/buy?token=…&lang=de|en (docs/alerts.md "Clicks"): the Buy-now link
// of every alert e-mail. A token we handed out counts one click for its alert
// (not for HEAD requests or link scanners that say who they are) and
// redirects to the product page the alert named, with its signed wish_ref;
// the address comes from the alert's record, never from the request. Any
// other token gets a small page saying the link is invalid (404).
import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { followAlertLink, isLinkScanner } from "~/domains/alerts/clicks.server";
import { alertTexts } from "~/domains/alerts/alert-texts";
import { ALERT_LINK_HEADERS as HEADERS, AlertLinkPage, alertLinkLinks, alertLinkMeta, alertLinkParams } from "~/hosted-pages/alert-link-page";

export const links = alertLinkLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const { token, lang } = alertLinkParams(request);
  const counted = request.method === "GET" && !isLinkScanner(request.headers.get("user-agent"));
  const target = await followAlertLink(token, counted);
  if (target) return redirect(target, { status: 302, headers: HEADERS });
  return json({ lang }, { status: 404, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => alertLinkMeta(alertTexts(data?.lang ?? "en").invalidTitle);

export default function AlertBuyLink() {
  const { lang } = useLoaderData<typeof loader>();
  const t = alertTexts(lang);
  return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.buyLinkInvalidText} button={null} tone="error" />;
}
