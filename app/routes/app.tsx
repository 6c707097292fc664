// Layout of the embedded admin (/app/*): authenticates through requireAdmin
// (shared with the child route's loader), App Bridge (rendered in the root's <head>) and Polaris. In
// the local preview there is no Shopify admin around the page: no App
// Bridge, and the preview's banner and page links instead of the sidebar.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { requireAdmin } from "~/admin/session.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";
import { ADMIN_PAGES, NavMenu } from "~/admin/nav-menu";
import { PreviewFrame } from "~/admin/preview-frame";
import { ADMIN_TEXTS, adminLang, type Lang } from "~/i18n/admin";
import { env } from "~/env.server";
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisDe from "@shopify/polaris/locales/de.json";

// The document's title for every admin page (the pages export no meta of their own).
export const meta: MetaFunction<typeof loader> = ({ location, data }) => {
  const t = ADMIN_TEXTS[(data as { lang?: Lang } | undefined)?.lang ?? "en"].nav;
  const page = ADMIN_PAGES.find((p) => location.pathname === p.to);
  return [{ title: page ? `${t[page.key]} · ${t.appName}` : t.appName }];
};

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

// root.tsx puts App Bridge first in the <head> with the loader's apiKey (not in preview).
export const handle = { appBridge: true };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { preview } = await requireAdmin(request);
  // The pages read the language from here (useAdminTexts); root.tsx sets <html lang> from it.
  return { apiKey: env.SHOPIFY_API_KEY ?? "", preview, lang: adminLang(request) };
};

export default function App() {
  const { apiKey, preview, lang } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp={false} apiKey={apiKey} i18n={lang === "de" ? polarisDe : polarisEn}>
      {preview ? <PreviewFrame /> : <NavMenu />}
      <Outlet />
    </AppProvider>
  );
}

// Shopify's thrown responses must reach the browser with their headers.
export const ErrorBoundary = AdminErrorBoundary;

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
