// POST /hosted/link-shop-customer/preview: what joining a store customer's
// wishlist would do, for the join page's confirmation (docs/storefront-protocol.md,
// "Account holders on several shops"). Nothing is joined here.
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { objectBody } from "~/lib/api/schemas";
import { previewLink } from "~/flows/account-link.server";
import { offlineAdmin } from "~/shopify.server";

const linkBody = objectBody(z.object({ link_token: z.string().trim().min(1).max(4096) }));

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Preview joining a store customer's wishlist with the signed-in account",
      description:
        "Body `{link_token}` as for `POST /hosted/link-shop-customer`. Answers the store (`shop.domain`: its myshopify domain, `shop.host`: its primary domain, `shop.name`), the store's customer account with its e-mail masked (`a•••@example.com`; null when the shop's Admin API does not tell it) and how many lists and items would move. Joins nothing: the join page shows this and joins only after the shopper confirms. Refuses what the join refuses.",
      body: linkBody,
      codes: { missing: { link_token: "missing_data" }, invalid: { link_token: "invalid_link" } },
      response: z.object({
        ok: z.literal(true),
        shop: z.object({ domain: z.string(), host: z.string(), name: z.string().nullable() }),
        customer: z.object({ email_masked: z.string().nullable() }),
        moves: z.object({ lists: z.number().int(), items: z.number().int() }),
        joined: z.boolean(),
      }),
      errors: { missing_data: 400, invalid_link: 400, account_required: 403, not_found: 404, link_used: 409, account_already_linked: 409 },
    },
    async ({ user, body }) => previewLink(user, body.link_token, offlineAdmin),
    LIVE_SESSION,
  ),
});
export const action = loader;
