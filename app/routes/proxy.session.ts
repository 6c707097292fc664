// POST /proxy/session (`/apps/wishlist/session` on the shop's domain): what
// widget.js asks first on a Shopify store. A signed-in customer gets the shop
// page's shopper credential of their linked account; a guest gets
// `session: null` (docs/storefront-protocol.md "Who is recognised how"). It
// never merges accounts: the body (a JSON object, checked like every proxy
// body) binds nothing here (docs/identity.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { customerSession } from "~/flows/storefront.server";
import { answerProxy, proxyJsonBody } from "~/proxy/app-proxy.server";

export const action = ({ request }: ActionFunctionArgs) =>
  answerProxy(request, "POST", async ({ shop, customerId, lang }) => {
    await proxyJsonBody(request);
    return customerSession(shop, customerId, lang);
  });
export const loader = action;
