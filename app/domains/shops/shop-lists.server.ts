// A shop page's curated lists (SPEC 4.8): the lists, the featured ones with
// their first products, and a list's products page by page.
import { db, type ShopList } from "~/db.server";
import { notFound } from "~/lib/api/errors";
import type { Locale } from "~/domains/products/localization";
import { offsetCursor, type PageQuery } from "./paging";
import { publishedShop } from "./shop-pages.server";
import { productInclude, shopProductJson } from "./shop-products.server";

type ShopListRow = Pick<ShopList, "id" | "slug" | "title" | "description" | "featured" | "position" | "updatedAt">;

export function shopListJson(list: ShopListRow, productCount: number) {
  return {
    slug: list.slug,
    title: list.title,
    description: list.description,
    featured: list.featured,
    position: list.position,
    product_count: productCount,
    updated_at: list.updatedAt.toISOString(),
  };
}

/** Products per list, counted by ShopListProduct(shopListId) for these lists only (a `_count` include would count every list's). */
export async function listProductCounts(listIds: number[]): Promise<Map<number, number>> {
  if (listIds.length === 0) return new Map();
  const groups = await db.shopListProduct.groupBy({ by: ["shopListId"], where: { shopListId: { in: listIds } }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.shopListId, g._count._all]));
}

const listOrder = [{ position: "asc" as const }, { id: "asc" as const }];

export async function shopLists(handle: string | undefined) {
  const shop = await publishedShop(handle);
  const lists = await db.shopList.findMany({ where: { shopId: shop.id }, orderBy: listOrder });
  const counts = await listProductCounts(lists.map((l) => l.id));
  return { lists: lists.map((l) => shopListJson(l, counts.get(l.id) ?? 0)) };
}

export const FEATURED_PREVIEW = 8;

/** Featured lists with their first products. */
export async function shopFeaturedLists(handle: string | undefined, locale: Locale) {
  const shop = await publishedShop(handle);
  const lists = await db.shopList.findMany({
    where: { shopId: shop.id, featured: true },
    orderBy: listOrder,
    include: {
      products: { orderBy: [{ position: "asc" }, { productId: "asc" }], take: FEATURED_PREVIEW, include: { product: { include: productInclude } } },
    },
  });
  const counts = await listProductCounts(lists.map((l) => l.id));
  return {
    lists: lists.map((l) => ({ ...shopListJson(l, counts.get(l.id) ?? 0), products: l.products.map((e) => shopProductJson(e.product, locale)) })),
  };
}

export async function shopListProducts(handle: string | undefined, slug: string | undefined, query: PageQuery & Locale) {
  const shop = await publishedShop(handle);
  const list = slug
    ? await db.shopList.findUnique({ where: { shopId_slug: { shopId: shop.id, slug } } })
    : null;
  if (!list) throw notFound("not_found", `This shop has no list ${JSON.stringify(slug ?? "")}`);
  const offset = offsetCursor(query.cursor);
  const entries = await db.shopListProduct.findMany({
    where: { shopListId: list.id },
    orderBy: [{ position: "asc" }, { productId: "asc" }],
    skip: offset,
    take: query.limit + 1,
    include: { product: { include: productInclude } },
  });
  const more = entries.length > query.limit;
  const shown = more ? entries.slice(0, query.limit) : entries;
  return {
    list: shopListJson(list, (await listProductCounts([list.id])).get(list.id) ?? 0),
    products: shown.map((e) => shopProductJson(e.product, query)),
    next_cursor: more ? `o${offset + query.limit}` : null,
  };
}
