// POST /hosted/link-shop-customer: the signed-in account joins a store
// customer's wishlist, proven by the link token the store's wishlist page
// handed out (docs/storefront-protocol.md, "Who is recognised how").
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { objectBody } from "~/lib/api/schemas";
import { linkShopCustomer } from "~/flows/account-link.server";
import { movedSchema } from "~/domains/identity/schemas";

const linkBody = objectBody(z.object({ link_token: z.string().trim().min(1).max(4096) }));

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Join a store customer's wishlist with the signed-in account",
      description:
        "Body `{link_token}` from the store's wishlist page (`/apps/wishlist/link`, valid ten minutes). The store account's lists, items and follows move to the signed-in account (the default lists become one, a product in both keeps one item) (an account with an e-mail address, not a guest), and the store recognises this account for that customer from then on. A second call with the same token answers `joined: false`.",
      body: linkBody,
      codes: { missing: { link_token: "missing_data" }, invalid: { link_token: "invalid_link" } },
      response: z.object({
        ok: z.literal(true),
        shop_domain: z.string(),
        joined: z.boolean(),
        moved: movedSchema,
      }),
      errors: { missing_data: 400, invalid_link: 400, account_required: 403, not_found: 404, link_used: 409, account_already_linked: 409 },
    },
    async ({ user, body }) => linkShopCustomer(user, body.link_token),
    LIVE_SESSION,
  ),
});
export const action = loader;
