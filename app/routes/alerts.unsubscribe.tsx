// /alerts/unsubscribe?token=…&lang=de|en (docs/alerts.md): every alert
// e-mail's one-click unsubscribe. GET shows a button; POST (the button, or a
// mail client's RFC 8058 `List-Unsubscribe=One-Click`) unsubscribes, without
// a session: the signed token names the shopper and address.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { unsubscribeAlerts } from "~/domains/alerts/consent.server";
import { alertTexts } from "~/domains/alerts/alert-texts";
import { AlertLinkPage } from "~/hosted-pages/alert-link-page";
import designCss from "~/hosted-pages/design.css?url";

export const links = () => [{ rel: "stylesheet", href: designCss }];

const query = z.object({ token: z.string().max(200).default(""), lang: z.enum(["de", "en"]).catch("en") });
const parse = (request: Request) => query.parse(Object.fromEntries(new URL(request.url).searchParams));
const HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { lang } = parse(request);
  return json({ lang, outcome: null }, { headers: HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const { token, lang } = parse(request);
  const outcome = await unsubscribeAlerts(token);
  return json({ lang, outcome }, { status: outcome === "invalid" ? 400 : 200, headers: HEADERS });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: alertTexts(data?.lang ?? "en").unsubscribeTitle },
  { name: "robots", content: "noindex" },
];

export default function Unsubscribe() {
  const { lang } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const t = alertTexts(lang);
  if (done?.outcome === "unsubscribed") return <AlertLinkPage lang={lang} title={t.unsubscribedTitle} text={t.unsubscribedText} button={null} tone="success" />;
  if (done?.outcome === "invalid") return <AlertLinkPage lang={lang} title={t.invalidTitle} text={t.invalidText} button={null} tone="error" />;
  return <AlertLinkPage lang={lang} title={t.unsubscribeTitle} text={t.unsubscribeIntro} button={t.unsubscribeButton} tone="neutral" />;
}
