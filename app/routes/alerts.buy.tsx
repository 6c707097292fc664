// /alerts/buy?token=…&lang=de|en (docs/alerts.md "Clicks"): the Buy-now link
// of every alert e-mail. A token we handed out counts one click for its alert
// (not for HEAD requests or link scanners that say who they are) and
// redirects to the product page the alert named, with its signed wish_ref;
// the address comes from the alert's record, never from the request. Any
// other token gets a small page saying the link is invalid (404).
import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { followAlertLink, isLinkScanner } from "~/domains/alerts/clicks.server";
import { alertTexts } from "~/domains/alerts/alert-texts";
import { AlertLinkPage } from "~/hosted-pages/alert-link-page";
import designCss from "~/hosted-pages/design.css?url";

export const links = () => [{ rel: "stylesheet", href: designCss }];

const query = z.object({ token: z.string().max(200).catch(""), lang: z.enum(["de", "en"]).catch("en") });
// The token must not travel on to the shop as a referrer.
const HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { token, lang } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const counted = request.method === "GET" && !isLinkScanner(request.headers.get("user-agent"));
  const target = await followAlertLink(token, counted);
  if (target) return redirect(target, { status: 302, headers: HEADERS });
  return json({ lang }, { status: 404, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: alertTexts(data?.lang ?? "en").invalidTitle },
  { name: "robots", content: "noindex" },
];

export default function AlertBuyLink() {
  const { lang } = useLoaderData<typeof loader>();
  const t = alertTexts(lang);
  return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.buyLinkInvalidText} button={null} tone="error" />;
}
