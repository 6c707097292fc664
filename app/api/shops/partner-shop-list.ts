// `PUT` / `DELETE /partner/shops/{id}/lists/{slug}`: changes or removes a curated list.
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { parseId } from "~/api/partner/params";
import { deleteShopList, listUpdateSchema, updateShopList } from "~/domains/shops/shop-page-admin.server";
import { adminList } from "./schemas";

const params = z.object({ id: z.string().describe("The platform shop's numeric id"), slug: z.string() });

export const loader = endpoint({
  PUT: route(
    "partner",
    {
      summary: "Changes a curated list's title, description, featured flag, position; `product_ids` replaces its products (owner only)",
      params,
      body: listUpdateSchema,
      response: z.object({ list: adminList }),
      errors: { no_partner: 404, invalid_id: 400, forbidden: 403, invalid_product_ids: 400 },
    },
    ({ partner, params, body }) => updateShopList(partner, parseId(params.id), params.slug, body),
    LIVE_SESSION,
  ),
  DELETE: route(
    "partner",
    {
      summary: "Deletes a curated list (owner only)",
      params,
      response: z.object({ ok: z.literal(true) }),
      errors: { no_partner: 404, invalid_id: 400, forbidden: 403 },
    },
    ({ partner, params }) => deleteShopList(partner, parseId(params.id), params.slug),
    LIVE_SESSION,
  ),
});
export const action = loader;
