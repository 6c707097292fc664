// Error boundary of the embedded admin routes: Shopify's own thrown pages
// (bounce, exit-iframe) render as the library wants; "Shopify is off" gets
// its sentence; anything else a calm message, never the raw error, in the
// admin's language.
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { SHOPIFY_OFF_CODE } from "./shopify-off";
import { useAdminTexts } from "./use-texts";

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
  const t = useAdminTexts().t.errorPage;
  if (isRouteErrorResponse(error)) {
    const data = error.data as unknown;
    if (typeof data === "object" && data !== null && (data as { error?: unknown }).error === SHOPIFY_OFF_CODE) {
      return <Notice title={t.offTitle} text={t.offText} />;
    }
    // The library's own pages (bounce, exit-iframe, reauthorize) arrive as HTML text.
    if (typeof data === "string" && data.trim().startsWith("<")) return boundary.error(error);
    if (error.status === 404) return <Notice title={t.notFoundTitle} text={t.notFoundText} />;
    if (error.status < 500) return <Notice title={t.unavailableTitle} text={t.unavailableText} />;
  }
  return <Notice title={t.failedTitle} text={t.failedText} />;
}
