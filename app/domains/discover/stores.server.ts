// GET /stores*: the retailers the catalogue knows, i.e. its products grouped
// by their source domain (any shop whose pages were saved, partner or not),
// with categories from the products' type. Read from the
// Product(sourceDomain, productType) index; manual products have no domain.
import { readDb } from "~/db/replica.server";
import { notFound } from "~/lib/api/errors";
import { cached } from "./cache.server";
import { productCards } from "./public-products.server";
import type { Page } from "./discover.server";

const catalogue = { isManual: false, sourceDomain: { not: null } };

/** `{domain}`: a host name, lower case; anything else is unknown (404). */
function normalizeDomain(value: string | undefined): string {
  const domain = (value ?? "").trim().toLowerCase();
  if (!/^[a-z0-9.-]{1,253}$/.test(domain)) throw notFound("not_found", "No such store");
  return domain;
}

/** A readable name: the installed shop's own, else the host without `www.`. */
async function storeNames(domains: string[]): Promise<Map<string, string>> {
  const shops = domains.length
    ? await readDb.platformShop.findMany({
        where: { OR: [{ domain: { in: domains } }, { primaryDomain: { in: domains } }] },
        select: { domain: true, primaryDomain: true, name: true },
      })
    : [];
  const names = new Map<string, string>();
  for (const s of shops) {
    if (!s.name) continue;
    names.set(s.domain, s.name);
    if (s.primaryDomain) names.set(s.primaryDomain, s.name);
  }
  return new Map(domains.map((d) => [d, names.get(d) ?? d.replace(/^www\./, "")]));
}

export interface StoresQuery extends Page {
  category?: string;
}

/**
 * Stores with their product counts (in `category` when given), most products
 * first. An aggregate over the whole domain index: cached like the rankings;
 * an unknown category is answered without one (bounded cache keys).
 */
export async function listStores({ category, limit, offset }: StoresQuery) {
  if (category && !(await storeCategories()).categories.some((c) => c.category === category)) {
    return { stores: [], category, limit, offset, has_more: false };
  }
  return cached(`stores:${category ?? ""}:${limit}:${offset}`, () => storesPage({ category, limit, offset }));
}

async function storesPage({ category, limit, offset }: StoresQuery) {
  const rows = await readDb.product.groupBy({
    by: ["sourceDomain"],
    where: { ...catalogue, ...(category ? { productType: category } : {}) },
    _count: { _all: true },
    orderBy: [{ _count: { sourceDomain: "desc" } }, { sourceDomain: "asc" }],
    skip: offset,
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const names = await storeNames(page.map((r) => r.sourceDomain!));
  return {
    stores: page.map((r) => ({ domain: r.sourceDomain!, name: names.get(r.sourceDomain!)!, product_count: r._count._all })),
    category: category ?? null,
    limit,
    offset,
    has_more: rows.length > limit,
  };
}

/** Categories (product types) across stores, with product and store counts (an aggregate of the whole catalogue: cached). */
export const storeCategories = () => cached("store-categories", categoriesOfStores);

async function categoriesOfStores() {
  const rows = await readDb.product.groupBy({
    by: ["productType", "sourceDomain"],
    where: { ...catalogue, productType: { not: null } },
    _count: { _all: true },
  });
  const categories = new Map<string, { category: string; product_count: number; store_count: number }>();
  for (const r of rows) {
    const name = r.productType!;
    if (name.trim() === "") continue;
    const c = categories.get(name) ?? { category: name, product_count: 0, store_count: 0 };
    c.product_count += r._count._all;
    c.store_count += 1;
    categories.set(name, c);
  }
  return {
    categories: [...categories.values()].sort((a, b) => b.product_count - a.product_count || a.category.localeCompare(b.category)),
  };
}

/** `GET /stores/{domain}`: 404 `not_found` when the catalogue has no product of that domain. */
export async function storeDetail(domainParam: string | undefined) {
  const domain = normalizeDomain(domainParam);
  const rows = await readDb.product.groupBy({
    by: ["productType"],
    where: { ...catalogue, sourceDomain: domain },
    _count: { _all: true },
  });
  if (rows.length === 0) throw notFound("not_found", `No store ${domain}`);
  const [names, shop] = await Promise.all([
    storeNames([domain]),
    readDb.platformShop.findFirst({ where: { active: true, OR: [{ domain }, { primaryDomain: domain }] }, select: { id: true } }),
  ]);
  return {
    store: {
      domain,
      name: names.get(domain)!,
      product_count: rows.reduce((n, r) => n + r._count._all, 0),
      categories: rows
        .filter((r) => r.productType)
        .map((r) => ({ category: r.productType!, product_count: r._count._all }))
        .sort((a, b) => b.product_count - a.product_count || a.category.localeCompare(b.category)),
      partner_shop: shop !== null,
    },
  };
}

export interface StoreProductsQuery extends StoresQuery {
  market?: string;
}

/** `GET /stores/{domain}/products`: the store's products, newest first. */
export async function storeProducts(domainParam: string | undefined, { category, market, limit, offset }: StoreProductsQuery) {
  const domain = normalizeDomain(domainParam);
  const known = await readDb.product.findFirst({ where: { ...catalogue, sourceDomain: domain }, select: { id: true } });
  if (!known) throw notFound("not_found", `No store ${domain}`);
  const rows = await readDb.product.findMany({
    where: { ...catalogue, sourceDomain: domain, ...(category ? { productType: category } : {}) },
    orderBy: { id: "desc" },
    skip: offset,
    take: limit + 1,
    select: { id: true },
  });
  return {
    domain,
    category: category ?? null,
    products: await productCards(rows.slice(0, limit).map((r) => r.id), market),
    limit,
    offset,
    has_more: rows.length > limit,
  };
}
