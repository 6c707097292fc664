// `GET /shops/@me/following`: the published shops the signed-in user follows.
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { followedShops } from "~/domains/shops/shop-follows.server";
import { followingQuery, shopPageSchema } from "./schemas";

export const loader = endpoint({
  GET: route(
    "user",
    {
      summary: "The published shops the signed-in user follows, most recently followed first, paginated",
      query: followingQuery,
      response: z.object({ shops: z.array(shopPageSchema.extend({ followed_at: z.string() })), next_cursor: z.string().nullable() }),
    },
    ({ user, query }) => followedShops(user.userId, query),
  ),
});
export const action = loader;
