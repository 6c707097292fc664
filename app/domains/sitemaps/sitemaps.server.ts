// Sitemaps of the site (SPEC 4.8 Sitemaps, docs/api.md "Shops"): public share
// pages (`/sitemap-pages.xml`) and published shop pages
// (`/sitemap-shops.xml` and its JSON twin `/sitemap-shops.json`), the same
// documents at the site root and under `/api/v1`. Addresses inside them
// (index entries, `next`) are the root ones, where the sitemap protocol
// wants the files.
//
// Sitemap protocol rules: at most SITEMAP_URLS_PER_FILE (50,000) URLs a file;
// with more, the bare address answers a <sitemapindex> of `?page=N` files.
// Rows are read in id order in batches (index ranges, never the whole table)
// and yielded as text chunks as they are read (app/api/sitemaps streams them
// to the response), so no file is ever held in memory whole.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { notFound } from "~/lib/api/errors";

const BATCH = 1000;
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NS = "http://www.w3.org/1999/xhtml";


export function xmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

interface Entry {
  id: number;
  lastmod: Date;
}

interface Source<R extends Entry> {
  /** The file's own address, e.g. `/sitemap-pages.xml`. */
  path: string;
  count: () => Promise<number>;
  latest: () => Promise<Date | null>;
  /** Up to `take` rows with id ≥ `fromId`, in id order. */
  batch: (fromId: number, take: number) => Promise<R[]>;
  /** The id of the row at `offset` in id order (first row of a page). */
  idAt: (offset: number) => Promise<number | null>;
}

interface ListEntry extends Entry {
  token: string;
}
interface ShopEntry extends Entry {
  handle: string;
  name: string;
}

const publicLists = { sharePublic: true };
const publishedShops = { published: true, active: true, handle: { not: null } };

export const pagesSource: Source<ListEntry> = {
  path: "/sitemap-pages.xml",
  count: () => db.wishlist.count({ where: publicLists }),
  latest: async () => (await db.wishlist.aggregate({ where: publicLists, _max: { updatedAt: true } }))._max.updatedAt,
  batch: async (fromId, take) =>
    (
      await db.wishlist.findMany({
        where: { ...publicLists, id: { gte: fromId } },
        orderBy: { id: "asc" },
        take,
        select: { id: true, shareToken: true, updatedAt: true },
      })
    ).map((w) => ({ id: w.id, token: w.shareToken, lastmod: w.updatedAt })),
  idAt: async (offset) =>
    (await db.wishlist.findFirst({ where: publicLists, orderBy: { id: "asc" }, skip: offset, select: { id: true } }))?.id ?? null,
};

export const shopsSource: Source<ShopEntry> = {
  path: "/sitemap-shops.xml",
  count: () => db.platformShop.count({ where: publishedShops }),
  latest: async () => (await db.platformShop.aggregate({ where: publishedShops, _max: { updatedAt: true } }))._max.updatedAt,
  batch: async (fromId, take) =>
    (
      await db.platformShop.findMany({
        where: { ...publishedShops, id: { gte: fromId } },
        orderBy: { id: "asc" },
        take,
        select: { id: true, handle: true, name: true, domain: true, updatedAt: true },
      })
    ).map((s) => ({ id: s.id, handle: s.handle!, name: s.name ?? s.domain, lastmod: s.updatedAt })),
  idAt: async (offset) =>
    (await db.platformShop.findFirst({ where: publishedShops, orderBy: { id: "asc" }, skip: offset, select: { id: true } }))?.id ?? null,
};

const shareUrl = (lang: string, token: string) => `${env.APP_URL}/${lang}/list/${encodeURIComponent(token)}`;
export const shopUrl = (handle: string) => `${env.APP_URL}/shops/${encodeURIComponent(handle)}`;

/** What a request for one of the files answers: a `page` that does not exist is null (404). */
export type SitemapPlan = { kind: "index"; pages: number; latest: Date | null } | { kind: "file"; page: number; pages: number; offset: number; take: number } | null;

/** `page` is the `?page=` value: absent means the bare address. */
export async function planSitemap(source: Source<Entry>, page: string | null): Promise<SitemapPlan> {
  const perFile = env.SITEMAP_URLS_PER_FILE;
  const total = await source.count();
  const pages = Math.max(1, Math.ceil(total / perFile));
  if (page === null) {
    if (pages > 1) return { kind: "index", pages, latest: await source.latest() };
    return { kind: "file", page: 1, pages, offset: 0, take: perFile };
  }
  if (!/^[1-9]\d{0,6}$/.test(page) || Number(page) > pages) return null;
  const n = Number(page);
  return { kind: "file", page: n, pages, offset: (n - 1) * perFile, take: perFile };
}

/** The rows of one file, batch by batch. */
async function* entriesOf<R extends Entry>(source: Source<R>, offset: number, take: number): AsyncGenerator<R[]> {
  let from = offset === 0 ? 0 : await source.idAt(offset);
  let left = take;
  while (from !== null && left > 0) {
    const rows = await source.batch(from, Math.min(BATCH, left));
    if (rows.length === 0) return;
    yield rows;
    left -= rows.length;
    from = rows[rows.length - 1]!.id + 1;
  }
}

const noSuchPage = () => notFound("not_found", "No such sitemap page");

async function* indexXml(path: string, pages: number, latest: Date | null): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">\n`;
  const lastmod = latest ? `<lastmod>${latest.toISOString()}</lastmod>` : "";
  for (let n = 1; n <= pages; n++) {
    yield `<sitemap><loc>${xmlEscape(`${env.APP_URL}${path}?page=${n}`)}</loc>${lastmod}</sitemap>\n`;
  }
  yield "</sitemapindex>\n";
}

async function* pagesXml(offset: number, take: number): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">\n`;
  for await (const rows of entriesOf(pagesSource, offset, take)) {
    // The English page is the entry; the German one is its alternate.
    yield rows
      .map((r) => {
        const en = xmlEscape(shareUrl("en", r.token));
        const de = xmlEscape(shareUrl("de", r.token));
        return (
          `<url><loc>${en}</loc><lastmod>${r.lastmod.toISOString()}</lastmod>` +
          `<xhtml:link rel="alternate" hreflang="en" href="${en}"/><xhtml:link rel="alternate" hreflang="de" href="${de}"/></url>\n`
        );
      })
      .join("");
  }
  yield "</urlset>\n";
}

async function* shopsXml(offset: number, take: number): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n`;
  for await (const rows of entriesOf(shopsSource, offset, take)) {
    yield rows.map((r) => `<url><loc>${xmlEscape(shopUrl(r.handle))}</loc><lastmod>${r.lastmod.toISOString()}</lastmod></url>\n`).join("");
  }
  yield "</urlset>\n";
}

async function* shopsJson(offset: number, take: number, next: string | null): AsyncGenerator<string> {
  yield '{"shops":[';
  let first = true;
  for await (const rows of entriesOf(shopsSource, offset, take)) {
    const items = rows.map((r) => JSON.stringify({ handle: r.handle, name: r.name, url: shopUrl(r.handle), lastmod: r.lastmod.toISOString() }));
    yield (first ? "" : ",") + items.join(",");
    first = false;
  }
  yield next ? `],"next":${JSON.stringify(next)}}` : "]}";
}

/** `/sitemap-pages.xml[?page=N]`. */
export async function pagesSitemap(page: string | null): Promise<AsyncGenerator<string>> {
  const plan = await planSitemap(pagesSource, page);
  if (!plan) throw noSuchPage();
  return plan.kind === "index" ? indexXml(pagesSource.path, plan.pages, plan.latest) : pagesXml(plan.offset, plan.take);
}

/** `/sitemap-shops.xml[?page=N]`. */
export async function shopsSitemap(page: string | null): Promise<AsyncGenerator<string>> {
  const plan = await planSitemap(shopsSource, page);
  if (!plan) throw noSuchPage();
  return plan.kind === "index" ? indexXml(shopsSource.path, plan.pages, plan.latest) : shopsXml(plan.offset, plan.take);
}

/**
 * `/sitemap-shops.json[?page=N]`: `{shops: [{handle, name, url, lastmod}], next?}`, the same
 * files as the XML (page 1 when no page is given); `next` is the next file's address.
 */
export async function shopsSitemapJson(page: string | null): Promise<AsyncGenerator<string>> {
  const plan = await planSitemap(shopsSource, page ?? "1");
  if (!plan || plan.kind !== "file") throw noSuchPage();
  const next = plan.page < plan.pages ? `${env.APP_URL}/sitemap-shops.json?page=${plan.page + 1}` : null;
  return shopsJson(plan.offset, plan.take, next);
}
