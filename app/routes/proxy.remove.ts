// POST /proxy/remove {item_id} (`/apps/wishlist/remove`): the signed-in
// customer removes an item saved from this shop, from the wishlist page.
import type { ActionFunctionArgs } from "@remix-run/node";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";
import { removeCustomerItem } from "~/flows/storefront.server";
import { answerProxy, proxyJsonBody, requireCustomer } from "~/proxy/app-proxy.server";

export const action = ({ request }: ActionFunctionArgs) =>
  answerProxy(request, "POST", async (proxy) => {
    const customerId = requireCustomer(proxy);
    const { item_id } = await proxyJsonBody(request);
    const { userId } = await shopperOfCustomer(proxy.shop.id, customerId);
    return removeCustomerItem(proxy.shop, userId, item_id);
  });
export const loader = action;
