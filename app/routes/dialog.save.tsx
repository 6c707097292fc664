// The hosted save dialog (SPEC 4.7 {hosted_save_url}), opened by widget.js in
// a popup as /dialog/save#token=…&product=…&locale=… (docs/storefront-protocol.md).
// Everything happens in the browser: the widget token arrives in the fragment,
// which never reaches the server, so the server renders only the shell.
// State and calls: app/hosted-pages/save-dialog/use-save-dialog.ts; screens: screens.tsx beside it.
import type { LinksFunction, MetaFunction } from "@remix-run/node";
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
