// `POST` / `DELETE /shops/{handle}/follow`: the signed-in user follows or unfollows a shop (idempotent).
import { endpoint, route } from "~/api/endpoint.server";
import { followShop, unfollowShop } from "~/domains/shops/shop-follows.server";
import { followState, handleParams } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Follows a published shop (again: no change); answers the follow state and follower count",
      params: handleParams,
      response: followState,
      errors: { shop_not_found: 404 },
    },
    ({ params, user }) => followShop(params.handle, user.userId),
  ),
  DELETE: route(
    "user",
    {
      summary: "Unfollows a shop (not following: no change); answers the follow state and follower count",
      params: handleParams,
      response: followState,
      errors: { shop_not_found: 404 },
    },
    ({ params, user }) => unfollowShop(params.handle, user.userId),
  ),
});
export const action = loader;
