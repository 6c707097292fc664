// `GET` / `POST /partner/shops/{id}/lists`: a shop's curated lists, and a new one.
import { z } from "zod";
import { endpoint, json, LIVE_SESSION, route } from "~/api/endpoint.server";
import { parseId } from "~/api/partner/params";
import { createShopList, listCreateSchema, partnerShopLists } from "~/domains/shops/shop-page-admin.server";
import { adminList, shopIdParams } from "./schemas";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "A shop's curated lists with their product ids",
      params: shopIdParams,
      response: z.object({ lists: z.array(adminList) }),
      errors: { no_partner: 404, invalid_id: 400 },
    },
    ({ partner, params }) => partnerShopLists(partner, parseId(params.id)),
  ),
  POST: route(
    "partner",
    {
      summary: "Creates a curated list (slug unique per shop) with products of this shop, in order (owner only)",
      description: "`product_ids` must be products of this shop (400 `invalid_product_ids`); 409 `list_exists` when the slug is taken.",
      params: shopIdParams,
      body: listCreateSchema,
      codes: { missing: { slug: "missing_params", title: "missing_params" } },
      response: z.object({ list: adminList }),
      status: 201,
      errors: { no_partner: 404, invalid_id: 400, forbidden: 403, list_exists: 409, invalid_product_ids: 400 },
    },
    async ({ partner, params, body }) => json(await createShopList(partner, parseId(params.id), body), { status: 201 }),
    LIVE_SESSION,
  ),
});
export const action = loader;
