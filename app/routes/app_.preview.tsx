// GET /app/preview: starts the admin preview of a local installation (the
// demo shop, docs/shopify.md "Preview the admin locally") and opens /app.
// Anywhere else — APP_URL not on localhost, HOST not loopback, a request
// addressed to another host name — it is an unknown address: 404.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { mintPreviewCookie, previewAvailable } from "~/admin/preview.server";
import { previewShop } from "~/domains/demo/preview-shop.server";
import { errorResponse } from "~/http/error-reply.server";
import { notFound } from "~/lib/api/errors";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!previewAvailable(request)) throw errorResponse(notFound("not_found", "There is nothing at this address"), request);
  await previewShop();
  return redirect("/app", { headers: { "Set-Cookie": await mintPreviewCookie(), "Cache-Control": "no-store" } });
}
