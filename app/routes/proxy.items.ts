// POST /proxy/items {sid} (`/apps/wishlist/items`): the wishlist page of a
// guest asks for the lists of this browser's widget session (its grant), to
// show them under the sign-in prompt.
import type { ActionFunctionArgs } from "@remix-run/node";
import { guestLists } from "~/flows/storefront.server";
import { answerProxy, proxyJsonBody } from "~/proxy/app-proxy.server";
import { price } from "~/pages/proxy-wishlist-page";

export const action = ({ request }: ActionFunctionArgs) =>
  answerProxy(request, "POST", async ({ shop, lang }) => {
    const { sid } = await proxyJsonBody(request);
    const lists = await guestLists(shop, sid, lang);
    return {
      lists: lists.map((l) => ({
        name: l.name,
        items: l.items.map((i) => ({
          item_id: i.itemId,
          title: i.title,
          url: i.url,
          image_url: i.imageUrl,
          price: price(i.priceMinor, i.currency, lang) || null,
          variant_id: i.variantId,
          wish_ref: i.wishRef,
        })),
      })),
    };
  });
export const loader = action;
