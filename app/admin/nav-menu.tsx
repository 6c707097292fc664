// The app's navigation in the Shopify admin sidebar: App Bridge's
// <ui-nav-menu> web component (what @shopify/app-bridge-react's NavMenu
// renders), loaded by AppProvider's App Bridge script.
import { Link } from "@remix-run/react";

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "ui-nav-menu": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}

/** Pages of the admin, in menu order. Add an entry when a page exists. */
/** The home page's label; the admin's pages are in English (the preview's banner follows the browser). */
export const HOME_LABEL = "Home";

export const ADMIN_PAGES: ReadonlyArray<{ to: string; label: string }> = [
  { to: "/app/revenue", label: "Revenue" },
  { to: "/app/usage", label: "Usage" },
  { to: "/app/keys", label: "Keys and tokens" },
  { to: "/app/baskets", label: "Wishlist drawer" },
  { to: "/app/alerts", label: "Alerts" },
  { to: "/app/plans", label: "Plans" },
];

export function NavMenu() {
  return (
    <ui-nav-menu>
      <Link to="/app" rel="home">
        {HOME_LABEL}
      </Link>
      {ADMIN_PAGES.map((page) => (
        <Link key={page.to} to={page.to}>
          {page.label}
        </Link>
      ))}
    </ui-nav-menu>
  );
}
