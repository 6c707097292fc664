// GET /proxy: the wishlist page on the shop's domain (`/apps/wishlist`, through
// Shopify's app proxy), as Liquid in the theme's layout (app/pages/proxy-wishlist-page.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";
import { customerLists } from "~/flows/storefront.server";
import { answerProxy } from "~/proxy/app-proxy.server";
import { wishlistPage } from "~/pages/proxy-wishlist-page";

export const loader = ({ request }: LoaderFunctionArgs) =>
  answerProxy(request, "GET", async ({ shop, customerId, lang, liquid }) => {
    const customer = customerId ? await shopperOfCustomer(shop.id, customerId) : null;
    const lists = customer ? await customerLists(shop, customer.userId, lang) : null;
    // A customer whose store account is still the store's own is offered to join it with their account.
    return liquid(wishlistPage(lists, lang, { offerJoin: !!customer?.isAnonymous }), { headers: { "Cache-Control": "no-store" } });
  });
export const action = loader;
