// GET /proxy: the wishlist page on the shop's domain (`/apps/wishlist`, through
// Shopify's app proxy), as Liquid in the theme's layout (app/proxy/wishlist-page.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";
import { customerLists } from "~/domains/shop-customers/storefront.server";
import { answerProxy } from "~/proxy/app-proxy.server";
import { wishlistPage } from "~/proxy/wishlist-page";

export const loader = ({ request }: LoaderFunctionArgs) =>
  answerProxy(request, "GET", async ({ shop, customerId, lang, liquid }) => {
    const lists = customerId ? await customerLists(shop, (await shopperOfCustomer(shop.id, customerId)).userId, lang) : null;
    return liquid(wishlistPage(lists, lang), { headers: { "Cache-Control": "no-store" } });
  });
export const action = loader;
