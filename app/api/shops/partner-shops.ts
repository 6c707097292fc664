// `GET /partner/shops`: the partner's platform shops with their storefront settings.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { partnerShops } from "~/domains/shops/shop-page-admin.server";
import { adminShop } from "./schemas";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "The partner's shops with their storefront page settings (handle, published, description)",
      response: z.object({ shops: z.array(adminShop) }),
      errors: { no_partner: 404 },
    },
    ({ partner }) => partnerShops(partner),
  ),
});
export const action = loader;
