import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shareCustomerWishlist } from "~/domains/customer-accounts/wishlist.server";

export const loader = endpoint({
  POST: route(
    "customer",
    {
      summary: "Share the signed-in customer's wishlist of this shop",
      description:
        "Makes the list holding the customer's newest item of this shop public (counted as a share action once per list and day, SPEC 8) and answers its share page. 404 while nothing is saved; 403 `forbidden` when that list is not the store's to publish (it holds products of other shops, or is a named list not made through this store): the shopper shares it on My lists.",
      tag: "customer-account",
      body: z.object({ lang: z.enum(["de", "en"]).default("en").describe("Language of the share page") }).strict(),
      response: z.object({ ok: z.literal(true), list_id: z.string().describe("The list's share token"), share_url: z.string() }),
      errors: { forbidden: 403 },
    },
    ({ customer, body }) => shareCustomerWishlist(customer, body.lang),
  ),
});
export const action = loader;
