// Layout of the embedded admin (/app/*): authenticates through requireAdmin
// (shared with the child route's loader), loads App Bridge and Polaris.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { requireAdmin } from "~/admin/session.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";
import { NavMenu } from "~/admin/nav-menu";
import { env } from "~/env.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request);
  return { apiKey: env.SHOPIFY_API_KEY ?? "" };
};

export default function App() {
  const { apiKey } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      <NavMenu />
      <Outlet />
    </AppProvider>
  );
}

// Shopify's thrown responses must reach the browser with their headers.
export const ErrorBoundary = AdminErrorBoundary;

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
