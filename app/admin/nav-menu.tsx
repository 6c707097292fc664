// The app's navigation in the Shopify admin sidebar: App Bridge's
// <ui-nav-menu> web component (what @shopify/app-bridge-react's NavMenu
// renders), loaded by AppProvider's App Bridge script. Labels come from the
// admin catalogue; the links keep the admin's language.
import { Link } from "@remix-run/react";
import type { AdminTexts } from "~/i18n/admin";
import { useAdminTexts } from "./use-texts";

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "ui-nav-menu": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}

type PageKey = Exclude<keyof AdminTexts["nav"], "home" | "appName" | "pagesLabel">;

/** Pages of the admin, in menu order. Add an entry (and its label in texts.ts) when a page exists. */
export const ADMIN_PAGES: ReadonlyArray<{ to: string; key: PageKey }> = [
  { to: "/app/revenue", key: "revenue" },
  { to: "/app/usage", key: "usage" },
  { to: "/app/keys", key: "keys" },
  { to: "/app/baskets", key: "baskets" },
  { to: "/app/alerts", key: "alerts" },
  { to: "/app/plans", key: "plans" },
];

export function NavMenu() {
  const { t, href } = useAdminTexts();
  return (
    <ui-nav-menu>
      <Link to={href("/app")} rel="home">
        {t.nav.home}
      </Link>
      {ADMIN_PAGES.map((page) => (
        <Link key={page.to} to={href(page.to)}>
          {t.nav[page.key]}
        </Link>
      ))}
    </ui-nav-menu>
  );
}
