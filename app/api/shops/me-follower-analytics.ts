// `GET /shops/@me/analytics/followers`: follower counts of the shops of the signed-in portal user's partner.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { partnerOfUser } from "~/domains/partners/partners.server";
import { myFollowerAnalytics } from "~/domains/shops/shop-follows.server";
import { followerCounts } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "Follower counts of each shop of the signed-in portal user's partner, and their sum",
      response: z.object({
        shops: z.array(z.object({ shop_id: z.number().int(), handle: z.string().nullable(), published: z.boolean(), followers: followerCounts })),
        followers: followerCounts,
      }),
      errors: { no_partner: 404, no_linked_shop: 400 },
    },
    async ({ user }) => myFollowerAnalytics(await partnerOfUser(user.userId)),
  ),
});
export const action = loader;
