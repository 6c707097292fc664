// /alerts/buy?token=…&lang=de|en (docs/alerts.md "Clicks"): the Buy-now link
// of every alert e-mail. A token we handed out counts one click for its alert
// (not for HEAD requests or link scanners that say who they are) and
// leads to the product page the alert named, with its signed wish_ref; the
// address comes from the alert's record, never from the request. It
// redirects only to an installed shop's page; any other address (a scraped
// page anyone could have priced) is shown on a page as a plain link, so our
// domain never redirects there. Any other token gets a small page saying
// the link is invalid (404).
import { json, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { followAlertLink, isLinkScanner } from "~/domains/alerts/clicks.server";
import { alertTexts } from "~/i18n/alert-pages";
import { ALERT_LINK_HEADERS as HEADERS, AlertLeavePage, AlertLinkPage, alertLinkLinks, alertLinkMeta, alertLinkParams } from "~/hosted-pages/alert-link-page";

export const links = alertLinkLinks;

/** The page keeps the loader's headers: not cached, not indexed. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const { token, lang } = alertLinkParams(request);
  const counted = request.method === "GET" && !isLinkScanner(request.headers.get("user-agent"));
  const target = await followAlertLink(token, counted);
  if (target?.trusted) return redirect(target.url, { status: 302, headers: HEADERS });
  if (target) return json({ lang, leave: target.url }, { headers: HEADERS });
  return json({ lang, leave: null }, { status: 404, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const t = alertTexts(data?.lang ?? "en");
  return alertLinkMeta(data?.leave ? t.leaveTitle : t.invalidTitle);
};

export default function AlertBuyLink() {
  const { lang, leave } = useLoaderData<typeof loader>();
  const t = alertTexts(lang);
  if (leave) return <AlertLeavePage lang={lang} title={t.leaveTitle} text={t.leaveText(new URL(leave).hostname)} label={t.leaveLinkLabel} url={leave} />;
  return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.buyLinkInvalidText} button={null} tone="error" />;
}
