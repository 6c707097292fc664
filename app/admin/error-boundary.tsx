// Error boundary of the embedded admin routes: Shopify's own thrown pages
// (bounce, exit-iframe) render as the library wants; "Shopify is off" gets
// its sentence; anything else a calm message, never the raw error.
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { SHOPIFY_OFF_CODE, SHOPIFY_OFF_MESSAGE } from "./shopify-off";

function Notice({ title, text }: { title: string; text: string }) {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "3rem", textAlign: "center" }}>
      <h1>{title}</h1>
      <p>{text}</p>
    </main>
  );
}

export function AdminErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const data = error.data as unknown;
    if (typeof data === "object" && data !== null && (data as { error?: unknown }).error === SHOPIFY_OFF_CODE) {
      return <Notice title="Shopify app not configured" text={SHOPIFY_OFF_MESSAGE} />;
    }
    // The library's own pages (bounce, exit-iframe, reauthorize) arrive as HTML text.
    if (typeof data === "string" && data.trim().startsWith("<")) return boundary.error(error);
    if (error.status === 404) return <Notice title="Page not found" text="There is nothing at this address in the app." />;
    if (error.status < 500) return <Notice title="Not available" text="This page cannot be shown. Open the app again from your Shopify admin." />;
  }
  return <Notice title="Something went wrong" text="The app could not load this page. Please try again in a moment." />;
}
