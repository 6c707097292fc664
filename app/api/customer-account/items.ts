import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { parseLocale } from "~/api/locale.server";
import { localeQuery, savedProductSchema } from "~/domains/lists/schemas";
import { customerWishlist } from "~/domains/customer-accounts/wishlist.server";

export const loader = endpoint({
  GET: route(
    "customer",
    {
      summary: "The signed-in customer's saved products of this shop (customer account extension)",
      description:
        "Items of the shopper account linked to the token's customer (`sub`) of the token's shop (`dest`), saved through this shop, newest first (at most 250). `cart_url` adds the item's variant to the shop's cart with `wish_ref` as a hidden line-item property; null without a variant.",
      tag: "customer-account",
      query: localeQuery,
      response: z.object({
        shop: z.object({ domain: z.string(), name: z.string().nullable() }),
        products: z.array(
          savedProductSchema.extend({
            wish_ref: z.string().describe("Signed item reference for cart lines"),
            cart_url: z.string().nullable().describe("Shopify add-to-cart link on the shop's storefront"),
          }),
        ),
      }),
    },
    ({ customer, url }) => customerWishlist(customer, parseLocale(url)),
  ),
});
export const action = loader;
