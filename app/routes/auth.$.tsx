// Shopify's OAuth and session-token pages (/auth/*); the library answers
// them by throwing responses from its authentication.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "~/admin/session.server";
import { AdminErrorBoundary } from "~/admin/error-boundary";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticateAdmin(request);
  return null;
};

export const ErrorBoundary = AdminErrorBoundary;
