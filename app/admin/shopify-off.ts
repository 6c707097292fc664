// What /app, /auth and the Shopify webhooks answer while the Shopify app is
// not configured (SHOPIFY_API_KEY / SHOPIFY_API_SECRET unset): a 503 whose
// text says so. The rest of the service runs as usual.
import { json } from "@remix-run/node";
import { ApiError } from "~/lib/api/errors";

export const SHOPIFY_OFF_CODE = "shopify_not_configured";
export const SHOPIFY_OFF_MESSAGE =
  "The Shopify app is not configured on this server: set SHOPIFY_API_KEY and SHOPIFY_API_SECRET to turn it on.";

/** Thrown from loaders and actions; the admin error boundary shows the message. */
export function shopifyOffResponse(): Response {
  return json(new ApiError(503, SHOPIFY_OFF_CODE, SHOPIFY_OFF_MESSAGE).body(), { status: 503 });
}
