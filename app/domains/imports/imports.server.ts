// Retailer-list import (SPEC 7.6): a public wishlist page of a retailer
// (Amazon's list form, or any page with a JSON-LD ItemList/Product entries),
// fetched through the guarded fetcher, is copied into a list the user owns; a
// re-sync fetches it again and adds what is new.
//
// Bounds, the same for an import and a re-sync: the page is read in the
// scrape workers under their time budget (SCRAPE_TIMEOUT_MS), never on the
// request thread; at most IMPORT_MAX_ITEMS items are taken from it; their
// outbound fetches (image copies) are at most IMPORT_MAX_FETCHES, at most
// IMPORT_FETCH_CONCURRENCY at once, so one page cannot turn the service into
// a burst of requests at a site.
//
// Items go through the save pipeline of `/hosted/save` (saveProduct, hosted
// channel): an import is the user's own save, not a widget save. It counts as
// a partner's action only when the catalogue already holds the product as
// that partner's (as any hosted save does); an item refused because that
// partner's Free plan is paused (402) is skipped, not fatal.
import pLimit from "p-limit";
import { db, type ListImport, type Wishlist } from "~/db.server";
import { env } from "~/env.server";
import { ApiError, badRequest, forbidden, notFound } from "~/lib/api/errors";
import { log, errorFields } from "~/lib/log.server";
import { FetchError, guardedFetch } from "~/lib/net/guarded-fetch.server";
import { WorkerPoolError } from "~/lib/worker-pool.server";
import { canonicalUrl } from "~/domains/products/canonical-url";
import { pageWorkers } from "~/domains/products/page-workers.server";
import { saveProduct, type FetchGate } from "~/domains/lists/save.server";
import type { Saver } from "~/domains/metering/actions.server";
import { saveRequestBody } from "~/domains/products/schemas";
import { parseOrThrow } from "~/lib/api/schemas";
import { parseListUrl, type ListItemFacts, type ListPage, type ListPageInput, type ListProvider } from "./list-page";

const PAGE_MAX_BYTES = 3 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 15_000;

type ImportRow = Pick<ListImport, "id" | "userId" | "wishlistId" | "sourceUrl" | "provider" | "externalListId" | "status" | "itemCount" | "lastSyncedAt" | "error" | "createdAt"> & { wishlist: Pick<Wishlist, "shareToken"> };

export function importJson(row: ImportRow) {
  return {
    id: row.id,
    wishlist_id: row.wishlist.shareToken,
    wishlist_db_id: row.wishlistId,
    source_url: row.sourceUrl,
    provider: row.provider as ListProvider,
    external_list_id: row.externalListId,
    status: row.status,
    item_count: row.itemCount,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}

const withList = { wishlist: { select: { shareToken: true } } } as const;

/** Any failure that is not an ApiError becomes 500 `internal` (the import group's code for the unexpected). */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    log.error("list import failed", errorFields(err));
    throw new ApiError(500, "internal", "The import could not be processed");
  }
}

/** The target list: by share token or numeric id; must be the caller's own. */
async function targetList(userId: string, target: { wishlistToken?: string; targetListId?: number }) {
  const where = target.wishlistToken ? { shareToken: target.wishlistToken } : target.targetListId !== undefined ? { id: target.targetListId } : null;
  if (!where) throw badRequest("no_target_wishlist", "Name the target list: wishlistToken (its share token) or targetListId (its db_id)");
  const list = await db.wishlist.findUnique({ where, select: { id: true, ownerId: true } });
  if (!list) throw badRequest("no_target_wishlist", "The target list does not exist");
  if (list.ownerId !== userId) throw forbidden("wishlist_not_owned", "Lists can only be imported into a list you own");
  return list.id;
}

type PageResult = { ok: true; list: ListPage } | { ok: false; reason: "not_a_list" | "unreachable" | "busy"; message: string };

/** Reads the page in the scrape workers, under their time budget. */
async function readList(input: ListPageInput): Promise<PageResult> {
  let list: ListPage | null;
  try {
    list = (await pageWorkers().run({ kind: "list", input })) as ListPage | null;
  } catch (err) {
    if (!(err instanceof WorkerPoolError)) throw err;
    log.warn("list page not read", { url: input.pageUrl, reason: err.code, error: err.message });
    if (err.code === "busy") return { ok: false, reason: "busy", message: "too many pages are being read; try again shortly" };
    // A page too costly to read is not a list this service reads, like a page without one.
    const message = err.code === "timeout" ? `the page could not be read within the time budget (${env.SCRAPE_TIMEOUT_MS} ms)` : "the page could not be read";
    return { ok: false, reason: "not_a_list", message };
  }
  if (!list) return { ok: false, reason: "not_a_list", message: "The page holds no list this service can read" };
  return { ok: true, list };
}

/** Fetches and reads the list page. */
async function fetchList(url: string, provider: ListProvider): Promise<PageResult> {
  let page;
  try {
    page = await guardedFetch(url, {
      maxBytes: PAGE_MAX_BYTES,
      timeoutMs: PAGE_TIMEOUT_MS,
      acceptContentType: /^(text\/html|application\/xhtml\+xml)$/,
      headers: { accept: "text/html,application/xhtml+xml" },
    });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    // The page is not there or not a page: the URL is not a list (4xx, blocked, not HTML); else the site failed.
    const notAList =
      err.code === "invalid_url" || err.code === "blocked_address" || err.code === "bad_content_type" ||
      (err.code === "http_error" && (err.status ?? 0) < 500);
    return { ok: false, reason: notAList ? "not_a_list" : "unreachable", message: err.message };
  }
  return readList({ html: page.body.toString("utf8"), pageUrl: page.url, provider, maxItems: env.IMPORT_MAX_ITEMS });
}

/**
 * The import's budget of outbound fetches: at most `max`, `concurrency` at a
 * time; past `max` the gate refuses (the item keeps the page's image address).
 */
function fetchBudget(max: number, concurrency: number) {
  const inFlight = pLimit(concurrency);
  let granted = 0;
  let refused = 0;
  const gate: FetchGate = (fetch) => {
    if (granted >= max) {
      refused++;
      return Promise.resolve(undefined);
    }
    granted++;
    return inFlight(fetch);
  };
  return { gate, refused: () => refused };
}

/**
 * Adds the page's items the list does not hold yet (by canonical URL), a few
 * at a time; the counts of the call's response: added, skipped, and what the
 * bounds left out.
 */
async function addItems(saver: Saver, wishlistId: number, list: ListPage, sourceLabel: string) {
  const { items } = list;
  const canonical = items.map((item) => ({ item, key: canonicalUrl(item.url) })).filter((e): e is { item: ListItemFacts; key: string } => !!e.key);
  const present = await db.listItem.findMany({
    where: { wishlistId, product: { canonicalUrl: { in: canonical.map((e) => e.key) } } },
    select: { product: { select: { canonicalUrl: true } } },
  });
  const have = new Set(present.map((p) => p.product.canonicalUrl));
  let added = 0;
  let skipped = items.length - canonical.length;
  // Items of one product (URLs that differ in tracking parameters only) are saved once.
  const todo = canonical.filter(({ key }) => (have.has(key) ? (skipped++, false) : (have.add(key), true)));
  const budget = fetchBudget(env.IMPORT_MAX_FETCHES, env.IMPORT_FETCH_CONCURRENCY);
  const lanes = pLimit(env.IMPORT_FETCH_CONCURRENCY);
  let failure: { err: unknown } | null = null;
  const saveOne = async (item: ListItemFacts) => {
    if (failure) return;
    try {
      // The page's facts pass the save request's own schema (an item it refuses is skipped below).
      const request = parseOrThrow(saveRequestBody, {
        wishlistId,
        product: {
          url: item.url,
          // A title keeps the save from scraping each product page.
          title: item.title ?? new URL(item.url).hostname,
          imageUrl: item.imageUrl ?? undefined,
          price: item.priceMinor ?? undefined,
          currency: item.currency ?? undefined,
          sourceLabel,
        },
      });
      await saveProduct(saver, request, { kind: "hosted", widgetOrigin: null, partnerId: null, shopId: null, domain: null }, budget.gate);
      added++;
    } catch (err) {
      // A paused Free-plan partner refuses its product's save; the rest of the list still comes over.
      if (err instanceof ApiError && err.status < 500) skipped++;
      else failure ??= { err };
    }
  };
  await Promise.all(todo.map(({ item }) => lanes(() => saveOne(item))));
  if (failure) throw (failure as { err: unknown }).err;
  return {
    added,
    skipped,
    items_found: list.found,
    items_limit: env.IMPORT_MAX_ITEMS,
    items_over_limit: list.found - items.length,
    images_not_copied: budget.refused(),
  };
}

const sourceLabelOf = (provider: ListProvider, url: string) => (provider === "amazon" ? "Amazon" : new URL(url).hostname.replace(/^www\./, ""));

/** `address`: the importer's client address unit (metering bounds saves per address). */
export async function createImport(userId: string, input: { listUrl: string; wishlistToken?: string; targetListId?: number }, address: string) {
  const source = parseListUrl(input.listUrl);
  if (source === "missing_amazon_list_id") throw badRequest(source, "This Amazon URL names no list: use the list's share link (…/hz/wishlist/ls/<ID>)");
  if (source === "invalid_list_url") throw badRequest(source, "listUrl must be an http(s) URL of a public list page");
  const wishlistId = await targetList(userId, input);
  const sourceUrl = source.url.toString();
  const page = await fetchList(sourceUrl, source.provider);
  if (!page.ok && page.reason === "not_a_list") throw badRequest("invalid_list_url", `Not a supported list page: ${page.message}`);
  if (!page.ok && page.reason === "busy") throw new ApiError(500, "create_failed", `The list page could not be read now: ${page.message}`);
  if (!page.ok) throw new ApiError(500, "create_failed", `The list page could not be fetched: ${page.message}`);

  let row;
  try {
    row = await db.listImport.create({
      data: { userId, wishlistId, sourceUrl, provider: source.provider, externalListId: source.externalListId, status: "pending" },
      include: withList,
    });
  } catch (err) {
    log.error("list import create failed", errorFields(err));
    throw new ApiError(500, "create_failed", "The import could not be stored");
  }
  try {
    const result = await addItems({ userId, address }, wishlistId, page.list, sourceLabelOf(source.provider, sourceUrl));
    const updated = await db.listImport.update({
      where: { id: row.id },
      data: { status: "synced", itemCount: page.list.found, lastSyncedAt: new Date(), error: null },
      include: withList,
    });
    return { import: importJson(updated), ...result };
  } catch (err) {
    log.error("list import items failed", errorFields(err));
    await db.listImport.update({ where: { id: row.id }, data: { status: "failed", error: "Items could not be added" } }).catch(() => {});
    throw new ApiError(500, "create_failed", "The list's items could not be added");
  }
}

/** The caller's import or 404 `not_found` (another user's reads as unknown). */
async function ownImport(userId: string, id: number) {
  const row = await db.listImport.findUnique({ where: { id }, include: withList });
  if (!row || row.userId !== userId) throw notFound("not_found", "No such import");
  return row;
}

export function parseImportId(raw: string | number | undefined): number {
  const id = typeof raw === "number" ? raw : raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound("not_found", "No such import");
  return id;
}

export async function listImports(userId: string) {
  const rows = await db.listImport.findMany({ where: { userId }, orderBy: { id: "desc" }, include: withList });
  return { imports: rows.map(importJson) };
}

export async function getImport(userId: string, id: number) {
  return { import: importJson(await ownImport(userId, id)) };
}

export async function deleteImport(userId: string, id: number) {
  await ownImport(userId, id);
  await db.listImport.deleteMany({ where: { id, userId } });
  return { ok: true as const, id };
}

/** Fetches the page again and adds items the list does not hold; 500 `sync_failed` (recorded on the import) when that fails. */
export async function syncImport(userId: string, id: number, address: string) {
  const row = await ownImport(userId, id);
  const provider = row.provider as ListProvider;
  const fail = async (message: string) => {
    await db.listImport.update({ where: { id }, data: { status: "failed", error: message.slice(0, 500) } }).catch(() => {});
    return new ApiError(500, "sync_failed", `The list could not be synced: ${message}`);
  };
  let page: PageResult;
  try {
    page = await fetchList(row.sourceUrl, provider);
  } catch (err) {
    log.error("list import sync fetch failed", errorFields(err));
    throw await fail("fetch failed");
  }
  if (!page.ok) throw await fail(page.message);
  try {
    const result = await addItems({ userId, address }, row.wishlistId, page.list, sourceLabelOf(provider, row.sourceUrl));
    const updated = await db.listImport.update({
      where: { id },
      data: { status: "synced", itemCount: page.list.found, lastSyncedAt: new Date(), error: null },
      include: withList,
    });
    return { import: importJson(updated), ...result };
  } catch (err) {
    log.error("list import sync failed", errorFields(err));
    throw await fail("items could not be added");
  }
}
