// `GET` / `PATCH /partner/shops/{id}`: a shop's storefront page settings (handle, published, description).
import { z } from "zod";
import { endpoint, LIVE_SESSION, route } from "~/api/endpoint.server";
import { parseId } from "~/api/partner/params";
import { partnerShop, shopUpdateSchema, updatePartnerShop } from "~/domains/shops/shop-page-admin.server";
import { adminShop, shopIdParams } from "./schemas";

const answer = z.object({ shop: adminShop });

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "A shop's storefront page settings",
      params: shopIdParams,
      response: answer,
      errors: { no_partner: 404, invalid_id: 400 },
    },
    ({ partner, params }) => partnerShop(partner, parseId(params.id)),
  ),
  PATCH: route(
    "partner",
    {
      summary: "Sets a shop's handle, published flag or description (owner only)",
      params: shopIdParams,
      body: shopUpdateSchema,
      codes: { invalid: { handle: "invalid_handle" } },
      response: answer,
      errors: { no_partner: 404, invalid_id: 400, forbidden: 403, handle_taken: 409 },
    },
    ({ partner, params, body }) => updatePartnerShop(partner, parseId(params.id), body),
    LIVE_SESSION,
  ),
});
export const action = loader;
