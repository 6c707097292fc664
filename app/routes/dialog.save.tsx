// The hosted save dialog (SPEC 4.7 {hosted_save_url}), opened by widget.js in
// a popup as /dialog/save#token=…&product=…&locale=… (docs/storefront-protocol.md).
// Everything happens in the browser: the widget token arrives in the fragment,
// which never reaches the server, so the server renders only the shell.
// State and calls: app/hosted-pages/save-dialog/use-save-dialog.ts; screens: screens.tsx beside it.
//
// The route's own action serves the alert offer after a save (docs/alerts.md):
// SPEC has no alert routes, so the dialog posts to its page (a Remix fetcher),
// as "My lists" does. It reads the first-party `wish_user` cookie, never the
// widget token: `alerts-status` says what to offer, `alerts-on` starts the
// double opt-in for the account's own address. Same origin only
// (app/lib/http/page-guard.ts), and the cookie is SameSite=Lax.
import { json, type ActionFunctionArgs, type LinksFunction, type MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/lib/api/client-address";
import { acceptAlertOffer, alertOfferOf } from "~/domains/alerts/consent.server";
import type { AlertOfferAnswer } from "~/hosted-pages/save-dialog/context";
import { siteSession } from "~/domains/identity/site-session.server";
import { readCookie, setCookie, SITE_COOKIE } from "~/http/cookies.server";
import { ApiError } from "~/lib/api/errors";
import { accentStyle } from "~/hosted-pages/accent";
import designCss from "~/hosted-pages/design.css?url";
import dialogCss from "~/hosted-pages/dialog.css?url";
import {
  AuthScreen,
  FailedScreen,
  LoadingScreen,
  NoContextScreen,
  PickScreen,
  RemovedScreen,
  SavedScreen,
  WelcomeScreen,
} from "~/hosted-pages/save-dialog/screens";
import { useSaveDialog } from "~/hosted-pages/save-dialog/use-save-dialog";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: designCss },
  { rel: "stylesheet", href: dialogCss },
];
export const meta: MetaFunction = () => [{ title: "Wishlist" }, { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => null);
  const intent = form?.get("intent");
  const lang = form?.get("lang") === "de" ? "de" : "en";
  const headers = new Headers({ "Cache-Control": "no-store" });
  const site = await siteSession(readCookie(request, SITE_COOKIE));
  if (site?.renewed) headers.set("Set-Cookie", setCookie(SITE_COOKIE, site.renewed));
  const userId = site && !site.identity.isAnonymous ? site.identity.userId : null;
  if (!userId || (intent !== "alerts-status" && intent !== "alerts-on")) return json<AlertOfferAnswer>({ offer: "none" }, { headers });
  try {
    const offer = intent === "alerts-on" ? await acceptAlertOffer(userId, lang, clientAddress(context)) : await alertOfferOf(userId);
    return json<AlertOfferAnswer>({ offer }, { headers });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return json<AlertOfferAnswer>({ offer: "off", error: err.code }, { status: err.status, headers });
  }
}

export default function SaveDialog() {
  const dialog = useSaveDialog();
  const { screen } = dialog;
  return (
    <main className="dialog" style={accentStyle(dialog.ctx?.accent)} aria-busy={dialog.busy || screen.name === "loading"}>
      {screen.name === "loading" && <LoadingScreen dialog={dialog} />}
      {screen.name === "no-context" && <NoContextScreen dialog={dialog} />}
      {screen.name === "welcome" && <WelcomeScreen dialog={dialog} />}
      {screen.name === "auth" && <AuthScreen dialog={dialog} mode={screen.mode} />}
      {screen.name === "saved" && <SavedScreen dialog={dialog} placement={screen.placement} already={screen.already} />}
      {screen.name === "pick" && dialog.session && <PickScreen dialog={dialog} placement={screen.placement} />}
      {screen.name === "failed" && <FailedScreen dialog={dialog} />}
      {screen.name === "removed" && <RemovedScreen dialog={dialog} listName={screen.listName} />}
    </main>
  );
}
