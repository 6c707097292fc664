// GET /{lang}/account/data: "Download my data" on My lists, for the shopper
// of the wish_user cookie: one JSON file (app/domains/consumer/account-data.server.ts).
// The cookie is SameSite=Lax and the answer carries no CORS headers, so
// another site can neither send it with a request of its own nor read it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteSession } from "~/domains/identity/site-session.server";
import { accountDataOf } from "~/domains/consumer/account-data.server";
import { readCookie, setCookie, SITE_COOKIE } from "~/http/cookies.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const lang = params.lang === "de" ? "de" : "en";
  const site = await siteSession(readCookie(request, SITE_COOKIE));
  if (!site) return new Response(null, { status: 303, headers: { Location: `/${lang}/lists`, "Cache-Control": "no-store" } });
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Content-Disposition": `attachment; filename="wishlist-data-${new Date().toISOString().slice(0, 10)}.json"`,
    "Cache-Control": "private, no-store",
    "X-Robots-Tag": "noindex",
  });
  if (site.renewed) headers.set("Set-Cookie", setCookie(SITE_COOKIE, site.renewed));
  return new Response(JSON.stringify(await accountDataOf(site.identity.userId), null, 2), { headers });
}
