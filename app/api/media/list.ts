// `GET /media?shopId=…`: a shop's creator media, in order.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { listMedia } from "~/domains/media/creator-media.server";
import { mediaPartnerId, mediaSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "partner",
    {
      summary: "List a shop's media items by position",
      description: "By `position`, then id.",
      query: z.object({ shopId: z.string().regex(/^[1-9]\d{0,14}$/).describe("A PlatformShop id of the partner") }),
      codes: { missing: { shopId: "invalid_shop_id" }, invalid: { shopId: "invalid_shop_id" } },
      response: z.object({ media: z.array(mediaSchema) }),
      errors: { no_partner: 403, not_found: 404 },
    },
    async ({ partner, query }) => ({ media: await listMedia(mediaPartnerId(partner), Number(query.shopId)) }),
  ),
});
export const action = loader;
