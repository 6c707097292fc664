// POST /proxy/session (`/apps/wishlist/session` on the shop's domain): what
// widget.js asks first on a Shopify store. A signed-in customer gets the shop
// page's shopper credential of their linked account, with this browser's guest
// list merged in (body `{sid}`: the widget session id); a guest gets
// `session: null` (docs/storefront-protocol.md "Who is recognised how").
import type { ActionFunctionArgs } from "@remix-run/node";
import { customerSession, widgetSid } from "~/domains/shop-customers/storefront.server";
import { answerProxy, proxyJsonBody } from "~/proxy/app-proxy.server";

export const action = ({ request }: ActionFunctionArgs) =>
  answerProxy(request, "POST", async ({ shop, customerId, lang }) => {
    const { sid } = await proxyJsonBody(request);
    return customerSession(shop, customerId, widgetSid(sid), lang);
  });
export const loader = action;
