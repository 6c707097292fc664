// GET /discover/*: what the public can browse without an account. Rankings
// come from the saves (ListItem rows) of a recent window, read by a range of
// the ListItem(addedAt, productId) index and kept in memory for
// DISCOVER_CACHE_SECONDS (cache.server.ts): the save transaction, the hottest
// write of the service, gains no extra write for them. Only public lists and
// catalogue facts are shown: never a private list, an e-mail address, or a
// shopper's manual product.
import { readDb } from "~/db/replica.server";
import { appOrigin } from "~/env.server";
import { catalogueMarkets, curatedListIds, occasionProducts, trendingProducts } from "./discover.sql.server";
import { safeImageUrl } from "~/lib/api/schemas";
import { occasionTitle } from "~/domains/lists/serialize";
import { cached } from "./cache.server";
import { productCards } from "./public-products.server";
import { daysBetween, nextDate } from "./seasons";

const DAY_MS = 86_400_000;
/** The longest ranking kept per key; `limit` slices it. */
const RANKED = 100;

const since = (days: number) => new Date(Date.now() - days * DAY_MS);
const today = () => new Date().toISOString().slice(0, 10);

export interface Page {
  limit: number;
  offset: number;
}

// ---------------------------------------------------------------- trending

export interface TrendingQuery {
  days: number;
  market?: string;
  limit: number;
}

/** The markets the catalogue holds localizations for (cached like the rankings). */
const knownMarkets = () => cached("markets", async () => new Set((await catalogueMarkets()).map((r) => r.market)));

/** The most saved products of the last `days` days (in `market`: products the catalogue holds for it). */
export async function trending({ days, market, limit }: TrendingQuery) {
  // A market the catalogue does not hold has no products: answered without a
  // computation, so made-up markets cannot fill the cache or force window reads.
  if (market && !(await knownMarkets()).has(market)) {
    return { days, market, computed_at: new Date().toISOString(), products: [] };
  }
  const ranking = await cached(`trending:${days}:${market ?? ""}`, async () => {
    const computedAt = new Date();
    const rows = await trendingProducts(since(days), market ?? "", RANKED);
    const saves = new Map(rows.map((r) => [r.productId, r.saves]));
    const cards = await productCards(rows.map((r) => r.productId), market);
    return { computedAt: computedAt.toISOString(), products: cards.map((c) => ({ ...c, saves: saves.get(c.id) ?? 0 })) };
  });
  return { days, market: market ?? null, computed_at: ranking.computedAt, products: ranking.products.slice(0, limit) };
}

// ---------------------------------------------------------------- lists

const listSelect = {
  id: true,
  shareToken: true,
  name: true,
  description: true,
  imagePath: true,
  occasionSlug: true,
  updatedAt: true,
  owner: { select: { username: true, avatarUrl: true } },
};

type ListRow = Awaited<ReturnType<typeof loadLists>>[number];

/** Public lists by id with their item counts (counted for these lists only: a `_count` include would group every list's items). */
async function loadLists(ids: number[]) {
  if (ids.length === 0) return [];
  const [lists, counts] = await Promise.all([
    readDb.wishlist.findMany({ where: { id: { in: ids }, sharePublic: true }, select: listSelect }),
    readDb.listItem.groupBy({ by: ["wishlistId"], where: { wishlistId: { in: ids } }, _count: { _all: true } }),
  ]);
  const count = new Map(counts.map((c) => [c.wishlistId, c._count._all]));
  return lists.map((l) => ({ ...l, itemCount: count.get(l.id) ?? 0 }));
}

const occasionsBySlug = () => cached("occasions", async () => new Map((await readDb.occasion.findMany()).map((o) => [o.slug, o])));

type OccasionRow = Awaited<ReturnType<typeof readDb.occasion.findMany>>[number];

/** A public list as discover shows it: SPEC 2.2's public fields, no e-mail, no owner id. */
function publicListCard(list: ListRow, occasions: Map<string, OccasionRow>, lang: string | undefined) {
  return {
    id: list.shareToken,
    name: list.name,
    description: list.description,
    image_path: list.imagePath,
    occasion_slug: list.occasionSlug,
    occasion_title: occasionTitle(occasions.get(list.occasionSlug) ?? null, { lang }),
    productCount: list.itemCount,
    owner_username: list.owner.username,
    owner_avatar: safeImageUrl(list.owner.avatarUrl),
    updated_at: list.updatedAt.toISOString(),
  };
}

export interface CuratedQuery {
  days: number;
  occasion?: string;
  lang?: string;
  limit: number;
}

/** Public lists with the most saves in the last `days` days (optionally of one occasion). */
export async function curatedLists({ days, occasion, lang, limit }: CuratedQuery) {
  // An unknown occasion has no lists: answered without a computation (bounded cache keys).
  if (occasion && !(await occasionsBySlug()).has(occasion)) {
    return { days, occasion, computed_at: new Date().toISOString(), lists: [] };
  }
  const ranking = await cached(`curated:${days}:${occasion ?? ""}:${lang ?? ""}`, async () => {
    const computedAt = new Date();
    const rows = await curatedListIds(since(days), occasion ?? "", RANKED);
    const [lists, occasions] = await Promise.all([loadLists(rows.map((r) => r.wishlistId)), occasionsBySlug()]);
    const byId = new Map(lists.map((l) => [l.id, l]));
    const cards = rows.flatMap((r) => {
      const list = byId.get(r.wishlistId);
      return list ? [{ ...publicListCard(list, occasions, lang), recent_saves: r.saves }] : [];
    });
    return { computedAt: computedAt.toISOString(), lists: cards };
  });
  return { days, occasion: occasion ?? null, computed_at: ranking.computedAt, lists: ranking.lists.slice(0, limit) };
}

// ---------------------------------------------------------------- occasions

export interface OccasionQuery {
  date?: string;
  market?: string;
  lang?: string;
}

/** The occasion catalogue with the next date of each dated one and how many public lists it has. */
export async function occasionCatalogue({ date, market, lang }: OccasionQuery) {
  const day = date ?? today();
  const [rows, counts] = await Promise.all([
    readDb.occasion.findMany({ orderBy: { position: "asc" } }),
    cached("occasion-counts", () =>
      readDb.wishlist.groupBy({ by: ["occasionSlug"], where: { sharePublic: true }, _count: { _all: true } }),
    ),
  ]);
  const count = new Map(counts.map((c) => [c.occasionSlug, c._count._all]));
  const locale = { market, lang };
  return {
    date: day,
    occasions: rows.map((o) => {
      const next = nextDate(o.slug, day, market);
      return {
        slug: o.slug,
        title: occasionTitle(o, locale),
        titles: { de: o.titleDe, en: o.titleEn },
        next_date: next,
        days_until: next ? daysBetween(day, next) : null,
        public_list_count: count.get(o.slug) ?? 0,
      };
    }),
  };
}

export interface SeasonalQuery extends OccasionQuery {
  days: number;
  limit: number;
}

/**
 * The dated occasions of the next `days` days, soonest first, each with its
 * most saved products and its most recently updated public lists.
 */
export async function seasonal({ date, market, lang, days, limit }: SeasonalQuery) {
  const day = date ?? today();
  return cached(`seasonal:${day}:${days}:${market ?? ""}:${lang ?? ""}:${limit}`, async () => {
    const locale = { market, lang };
    const upcoming = (await readDb.occasion.findMany({ orderBy: { position: "asc" } }))
      .map((o) => ({ o, next: nextDate(o.slug, day, market) }))
      .filter((x): x is { o: OccasionRow; next: string } => x.next !== null && daysBetween(day, x.next) <= days)
      .sort((a, b) => a.next.localeCompare(b.next));
    const occasions = await Promise.all(
      upcoming.map(async ({ o, next }) => {
        const [products, lists] = await Promise.all([
          occasionProducts(o.slug, limit),
          readDb.wishlist.findMany({
            where: { occasionSlug: o.slug, sharePublic: true, items: { some: {} } },
            orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
            take: limit,
            select: { id: true },
          }),
        ]);
        const saves = new Map(products.map((p) => [p.productId, p.saves]));
        const cards = await productCards(products.map((p) => p.productId), market);
        const occasionMap = new Map([[o.slug, o]]);
        const listRows = await loadLists(lists.map((l) => l.id));
        const byId = new Map(listRows.map((l) => [l.id, l]));
        return {
          slug: o.slug,
          title: occasionTitle(o, locale),
          date: next,
          days_until: daysBetween(day, next),
          products: cards.map((c) => ({ ...c, saves: saves.get(c.id) ?? 0 })),
          lists: lists.flatMap((l) => {
            const row = byId.get(l.id);
            return row ? [publicListCard(row, occasionMap, lang ?? market?.slice(0, 2).toLowerCase())] : [];
          }),
        };
      }),
    );
    return { date: day, days, occasions };
  });
}

// ---------------------------------------------------------------- shops, partners

/** Merchant shops with the app installed. */
/** Published shop pages (SPEC 4.8 Shops) of installed shops, oldest first. */
export async function discoverShops({ limit, offset }: Page) {
  const rows = await readDb.platformShop.findMany({
    where: { active: true, published: true, handle: { not: null } },
    orderBy: { id: "asc" },
    skip: offset,
    take: limit + 1,
    select: { handle: true, name: true, domain: true, primaryDomain: true },
  });
  return {
    shops: rows.slice(0, limit).map((s) => ({
      handle: s.handle!,
      name: s.name ?? s.primaryDomain ?? s.domain,
      domain: s.primaryDomain ?? s.domain,
      url: `https://${s.primaryDomain ?? s.domain}`,
      page_url: `${appOrigin}/shops/${encodeURIComponent(s.handle!)}`,
    })),
    limit,
    offset,
    has_more: rows.length > limit,
  };
}

/** Partners with at least one active shop: their name and shop count (no e-mail, no plan). */
export async function discoverPartners({ limit, offset }: Page) {
  const rows = await readDb.partner.findMany({
    where: { shops: { some: { active: true } } },
    orderBy: { id: "asc" },
    skip: offset,
    take: limit + 1,
    select: { id: true, name: true, _count: { select: { shops: { where: { active: true } } } } },
  });
  return {
    partners: rows.slice(0, limit).map((p) => ({ id: p.id, name: p.name, shop_count: p._count.shops })),
    limit,
    offset,
    has_more: rows.length > limit,
  };
}
