// The demo shop page `/demo` (docs/getting-started.md "Try it in five
// minutes"): a shop page with the real save button, served where DEMO_PAGE
// is on (by default when APP_URL is on localhost). `/demo/{product}` is the
// same page: the address the demo products are saved under.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { demoPageHtml, DEMO_NOT_FOUND_HTML } from "~/pages/demo-page";
import { demoShop } from "~/domains/demo/demo-shop.server";
import { demoPageEnabled, env } from "~/env.server";
import { applySecurityHeaders } from "~/lib/http/security-headers";

export async function loader({ request }: LoaderFunctionArgs) {
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  // A resource route sets its own security headers (entry.server.tsx renders documents only): CSP, nosniff, Referrer-Policy.
  applySecurityHeaders(headers, new URL(request.url).pathname);
  if (!demoPageEnabled(env)) return new Response(DEMO_NOT_FOUND_HTML, { status: 404, headers });
  const { publicKey } = await demoShop();
  return new Response(demoPageHtml({ appUrl: env.APP_URL, publicKey }), { headers });
}
