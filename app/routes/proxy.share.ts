// POST /proxy/share {list} (`/apps/wishlist/share`): the signed-in customer
// makes one of their lists public and gets its share link.
import type { ActionFunctionArgs } from "@remix-run/node";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";
import { shareCustomerList } from "~/flows/storefront.server";
import { answerProxy, proxyJsonBody, requireCustomer } from "~/proxy/app-proxy.server";

export const action = ({ request }: ActionFunctionArgs) =>
  answerProxy(request, "POST", async (proxy) => {
    const customerId = requireCustomer(proxy);
    const { list } = await proxyJsonBody(request);
    const { userId } = await shopperOfCustomer(proxy.shop.id, customerId);
    return shareCustomerList(proxy.shop, userId, list, proxy.lang);
  });
export const loader = action;
