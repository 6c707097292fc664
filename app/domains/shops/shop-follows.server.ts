// Shoppers following shop pages (SPEC 4.8), and the follower counts a
// merchant sees.
import { db } from "~/db.server";
import { ApiError, notFound } from "~/lib/api/errors";
import { offsetCursor, type PageQuery } from "./paging";
import { followerCount, publishedShop, shopPageJson } from "./shop-pages.server";

const DAY = 86_400_000;

async function followState(shopId: number, following: boolean) {
  return { following, follower_count: await followerCount(shopId) };
}

/** Idempotent: following twice keeps the first follow's date. */
export async function followShop(handle: string | undefined, userId: string) {
  const shop = await publishedShop(handle);
  await db.shopFollow.upsert({
    where: { shopId_userId: { shopId: shop.id, userId } },
    create: { shopId: shop.id, userId },
    update: {},
  });
  return followState(shop.id, true);
}

export async function unfollowShop(handle: string | undefined, userId: string) {
  const shop = await publishedShop(handle);
  await db.shopFollow.deleteMany({ where: { shopId: shop.id, userId } });
  return followState(shop.id, false);
}

/** The published shops the user follows, most recently followed first. */
export async function followedShops(userId: string, page: PageQuery) {
  const offset = offsetCursor(page.cursor);
  const where = { userId, shop: { published: true, active: true } };
  const follows = await db.shopFollow.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { shopId: "desc" }],
    skip: offset,
    take: page.limit + 1,
    include: { shop: true },
  });
  const more = follows.length > page.limit;
  const shown = more ? follows.slice(0, page.limit) : follows;
  // Followers of these shops only, by ShopFollow(shopId, …) (a `_count` include would count every shop's).
  const ids = shown.map((f) => f.shopId);
  const groups = ids.length ? await db.shopFollow.groupBy({ by: ["shopId"], where: { shopId: { in: ids } }, _count: { _all: true } }) : [];
  const counts = new Map(groups.map((g) => [g.shopId, g._count._all]));
  return {
    shops: shown.map((f) => ({ ...shopPageJson(f.shop, counts.get(f.shopId) ?? 0), followed_at: f.createdAt.toISOString() })),
    next_cursor: more ? `o${offset + page.limit}` : null,
  };
}

/** Follower counts: all, and those who followed in the last 7 and 30 days. */
export async function followerStats(shopId: number, now = new Date()) {
  const since = (days: number) => new Date(now.getTime() - days * DAY);
  const [total, last7, last30] = await Promise.all([
    db.shopFollow.count({ where: { shopId } }),
    db.shopFollow.count({ where: { shopId, createdAt: { gte: since(7) } } }),
    db.shopFollow.count({ where: { shopId, createdAt: { gte: since(30) } } }),
  ]);
  return { total, last_7_days: last7, last_30_days: last30 };
}

export async function shopFollowerAnalytics(handle: string | undefined) {
  const shop = await publishedShop(handle);
  return { handle: shop.handle!, followers: await followerStats(shop.id) };
}

/**
 * The follower counts of the shops of the signed-in portal user's partner
 * (published or not): 404 `no_partner` without a partner, 400
 * `no_linked_shop` when the partner has no platform shop.
 */
export async function myFollowerAnalytics(partnerId: number | null) {
  if (partnerId === null) throw notFound("no_partner", "This user is not linked to a partner");
  const shops = await db.platformShop.findMany({ where: { partnerId }, orderBy: { id: "asc" } });
  if (shops.length === 0) throw new ApiError(400, "no_linked_shop", "The partner has no linked platform shop");
  const rows = await Promise.all(
    shops.map(async (s) => ({ shop_id: s.id, handle: s.handle, published: s.published, followers: await followerStats(s.id) })),
  );
  const sum = (key: "total" | "last_7_days" | "last_30_days") => rows.reduce((n, r) => n + r.followers[key], 0);
  return { shops: rows, followers: { total: sum("total"), last_7_days: sum("last_7_days"), last_30_days: sum("last_30_days") } };
}
