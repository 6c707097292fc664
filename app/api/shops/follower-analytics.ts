// `GET /shops/{handle}/analytics/followers`: follower counts only (no followers named).
import { z } from "zod";
import { endpoint, route } from "~/api/endpoint.server";
import { shopFollowerAnalytics } from "~/domains/shops/shop-follows.server";
import { followerCounts, handleParams } from "./schemas";

export const loader = endpoint({
  GET: route(
    "none",
    {
      summary: "A shop's follower counts: total and new in the last 7 and 30 days",
      params: handleParams,
      response: z.object({ handle: z.string(), followers: followerCounts }),
      errors: { shop_not_found: 404 },
    },
    ({ params }) => shopFollowerAnalytics(params.handle),
  ),
});
export const action = loader;
