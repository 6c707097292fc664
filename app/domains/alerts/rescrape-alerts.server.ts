// Alerts on products of no installed shop (pages scraped from other shops):
// no webhook tells us their price or stock, so a scheduled job re-reads the
// page and compares it with what the last read saw. The cost is bounded
// (docs/alerts.md, "Scraped products"):
// - only products that a shopper with confirmed alert consent saved and has
//   not marked purchased are read; nobody else would be told;
// - at most RESCRAPE_PRODUCTS_PER_SHOPPER products enrolled per shopper, and
//   a tick's reads shared round-robin by shopper, so one shopper saving many
//   pages neither takes the budget nor delays everyone else's;
// - at most RESCRAPE_PER_TICK products per tick, each at most once per
//   RESCRAPE_INTERVAL_MS: claiming a product moves its due time one
//   interval ahead in one conditional update, so two processes never read
//   it both, and a process that dies mid-read does not shorten the interval;
// - per host one read at a time and at most RESCRAPE_HOST_DAILY_CAP a UTC
//   day, taken with one conditional update of the host's row;
// - a failed read pushes the next one further away (the interval × 2, 4,
//   8, …) and RESCRAPE_MAX_FAILURES in a row give up until a newer save;
// - the read is the scraper's, through the guarded fetcher with its size,
//   time and address limits; the image is not copied again.
// It runs in the background job under the deployment's lease, like the
// outbox; the claims keep it safe when two holders overlap.
import pLimit from "p-limit";
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { exec } from "~/db/sql.server";
import { env } from "~/env.server";
import { createPoller, type Poller } from "~/lib/poller.server";
import { errorFields, log } from "~/lib/log.server";
import { instanceId } from "~/domains/system/job-lease.server";
import { recordMarketFacts } from "~/domains/products/product-facts.server";
import { readProductPage } from "~/domains/products/scraper.server";
import { scrapedProductChanged, type ScrapedProductChange } from "./alerts.server";
import { utcDay } from "./consent.server";
import { reviveGivenUp } from "./rescrape-alerts.sql.server";

const DAY_MS = 86_400_000;
const LOW_WINDOW_MS = 30 * DAY_MS;
/** Longer than one read can take (fetch 8 s, page reading and its queue): a host held longer was left by a dead process. */
const HOST_HOLD_MS = 2 * 60_000;
/** Hosts read at once in one tick (each host one read at a time). */
const HOSTS_AT_ONCE = 4;
/** Saved products looked at for enrolment per tick at most. */
const ENROL_PER_TICK = 200;
/** Due products looked at per product a tick reads: enough to find other shoppers' products behind one shopper's. */
const CANDIDATES_PER_READ = 10;

/** A save whose shopper would be told: not purchased, its list's owner confirmed alert consent. */
const ALERTABLE_SAVE = { purchased: false, wishlist: { owner: { alertConsent: { confirmedAt: { not: null } } } } };

/** Products of no installed shop, with a page, saved by someone who would be told. */
const READABLE_PRODUCT = { isManual: false, canonicalUrl: { not: null }, sourceShopId: null, items: { some: ALERTABLE_SAVE } };

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/** Where the last enrolment scan stopped: the next tick goes on from there, so products skipped for a full shopper never block later ones. */
let enrolCursor = 0;

/** The shoppers who would be told about a product: owners of its alertable saves, earliest save first. */
const shoppersOf = (items: { wishlist: { ownerId: string } }[]) => [...new Set(items.map((i) => i.wishlist.ownerId))];

/** How many enrolled products (not given up) a shopper would be told about. */
const enrolledFor = (userId: string) =>
  db.productRescrape.count({ where: { gaveUpAt: null, product: { items: { some: { ...ALERTABLE_SAVE, wishlist: { ownerId: userId } } } } } });

/**
 * Gives new readable products their schedule row, due now (the first read
 * only records what the page says), while one of the shoppers who would be
 * told has fewer than RESCRAPE_PRODUCTS_PER_SHOPPER enrolled products: one
 * shopper saving many pages cannot take the deployment's reads. A product
 * left out is enrolled once a shopper of it has room (another shopper saves
 * it, or one of theirs is purchased or given up).
 */
export async function enrol(now: Date): Promise<void> {
  const fresh = await db.product.findMany({
    where: { ...READABLE_PRODUCT, rescrape: null, id: { gt: enrolCursor } },
    select: {
      id: true,
      canonicalUrl: true,
      items: { where: ALERTABLE_SAVE, orderBy: { id: "asc" }, select: { market: true, wishlist: { select: { ownerId: true } } } },
    },
    orderBy: { id: "asc" },
    take: ENROL_PER_TICK,
  });
  enrolCursor = fresh.length < ENROL_PER_TICK ? 0 : fresh.at(-1)!.id;
  const room = new Map<string, number>();
  const hasRoom = async (userId: string) => {
    const left = room.get(userId) ?? env.RESCRAPE_PRODUCTS_PER_SHOPPER - (await enrolledFor(userId));
    room.set(userId, left);
    return left > 0;
  };
  for (const p of fresh) {
    const host = p.canonicalUrl ? hostOf(p.canonicalUrl) : null;
    if (!host) continue;
    let sponsor: string | null = null;
    for (const userId of shoppersOf(p.items)) {
      if (await hasRoom(userId)) {
        sponsor = userId;
        break;
      }
    }
    if (!sponsor) continue;
    // The market of the first save that would be told: its price and currency are followed.
    const market = p.items[0]?.market ?? "";
    try {
      await db.productRescrape.create({ data: { productId: p.id, host, market, dueAt: now } });
      // Every shopper of the product now has it enrolled.
      for (const userId of shoppersOf(p.items)) if (room.has(userId)) room.set(userId, room.get(userId)! - 1);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // another process enrolled it
    }
  }
}

interface Claimed {
  productId: number;
  host: string;
  market: string;
  failures: number;
  lastPriceMinor: number | null;
  lastCurrency: string | null;
  lastAvailable: boolean | null;
  dueAt: Date;
}

/**
 * Claims up to `limit` due products for this process: one conditional update
 * each, which also moves the product's due time a whole interval ahead. Of
 * two processes claiming at once, each product goes to one.
 */
export async function claimDue(now: Date, limit: number, holder = instanceId): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const due = await db.productRescrape.findMany({
    where: { dueAt: { lte: now }, gaveUpAt: null, product: READABLE_PRODUCT },
    orderBy: [{ dueAt: "asc" }, { productId: "asc" }],
    take: limit * CANDIDATES_PER_READ,
    include: { product: { select: { items: { where: ALERTABLE_SAVE, orderBy: { id: "asc" }, take: 1, select: { wishlist: { select: { ownerId: true } } } } } } },
  });
  const claimed: Claimed[] = [];
  for (const { product: _product, ...row } of roundRobin(due, (r) => r.product.items[0]?.wishlist.ownerId ?? "")) {
    if (claimed.length >= limit) break;
    const { count } = await db.productRescrape.updateMany({
      where: { productId: row.productId, dueAt: { lte: now }, gaveUpAt: null },
      data: { dueAt: new Date(now.getTime() + env.RESCRAPE_INTERVAL_MS), claimedBy: holder, claimedUntil: new Date(now.getTime() + HOST_HOLD_MS) },
    });
    if (count === 1) claimed.push(row);
  }
  return claimed;
}

/**
 * The rows in turns by shopper (the product's earliest alertable saver): each
 * shopper's most overdue product, then each one's next, and so on; shoppers
 * in the order of their most overdue product. A shopper with many due
 * products gets one read per turn, like everyone else.
 */
export function roundRobin<T>(rows: T[], shopperOf: (row: T) => string): T[] {
  const queues = new Map<string, T[]>();
  for (const row of rows) {
    const key = shopperOf(row);
    const queue = queues.get(key);
    if (queue) queue.push(row);
    else queues.set(key, [row]);
  }
  const out: T[] = [];
  for (let turn = 0; out.length < rows.length; turn++) {
    for (const queue of queues.values()) if (turn < queue.length) out.push(queue[turn]!);
  }
  return out;
}

/** Puts a claimed product back, due at `dueAt` (its host was busy or over its daily cap). */
async function unclaim(p: Claimed, dueAt: Date, holder: string): Promise<void> {
  await db.productRescrape.updateMany({ where: { productId: p.productId, claimedBy: holder }, data: { dueAt, claimedBy: null, claimedUntil: null } });
}

type HostSlot = "taken" | "busy" | "capped";

/**
 * Takes the host for one read: free, or marked by another holder, and under today's cap, counted in the
 * same update. Reads run only in the holder of the background lease, so a host marked by another holder
 * was left by one that died or lost the lease mid-read: waiting out its hold stalled the host's reads.
 */
async function takeHost(host: string, now: Date, holder: string): Promise<HostSlot> {
  const today = utcDay(now);
  try {
    await db.rescrapeHost.upsert({ where: { host }, create: { host, day: today, count: 0 }, update: {} });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  await db.rescrapeHost.updateMany({ where: { host, day: { not: today } }, data: { day: today, count: 0 } });
  const { count } = await db.rescrapeHost.updateMany({
    where: { host, day: today, count: { lt: env.RESCRAPE_HOST_DAILY_CAP }, OR: [{ busyUntil: null }, { busyUntil: { lt: now } }, { busyBy: { not: holder } }] },
    data: { count: { increment: 1 }, busyBy: holder, busyUntil: new Date(now.getTime() + HOST_HOLD_MS) },
  });
  if (count === 1) return "taken";
  const row = await db.rescrapeHost.findUnique({ where: { host } });
  return row && row.day === today && row.count >= env.RESCRAPE_HOST_DAILY_CAP ? "capped" : "busy";
}

async function releaseHost(host: string, holder: string): Promise<void> {
  await db.rescrapeHost.updateMany({ where: { host, busyBy: holder }, data: { busyBy: null, busyUntil: null } });
}

/** The lowest price of the market in the 30 days before `at` (the points in the window and the price standing at its start). */
async function lowest30Days(productId: number, market: string, currency: string, at: Date): Promise<number | null> {
  const start = new Date(at.getTime() - LOW_WINDOW_MS);
  const [inWindow, standing] = await Promise.all([
    db.pricePoint.aggregate({ where: { productId, market, currency, recordedAt: { gte: start, lt: at } }, _min: { priceMinor: true } }),
    db.pricePoint.findFirst({ where: { productId, market, currency, recordedAt: { lt: start } }, orderBy: [{ recordedAt: "desc" }, { id: "desc" }] }),
  ]);
  const candidates = [inWindow._min.priceMinor, standing?.priceMinor].filter((p): p is number => typeof p === "number");
  return candidates.length ? Math.min(...candidates) : null;
}

/** After the n-th failure in a row: the interval × 2^n, or given up at RESCRAPE_MAX_FAILURES. */
async function failed(p: Claimed, holder: string, reason: string): Promise<void> {
  const failures = p.failures + 1;
  const now = new Date();
  const givenUp = failures >= env.RESCRAPE_MAX_FAILURES;
  await db.productRescrape.updateMany({
    where: { productId: p.productId, claimedBy: holder },
    data: {
      failures,
      claimedBy: null,
      claimedUntil: null,
      lastReadAt: now,
      ...(givenUp ? { gaveUpAt: now } : { dueAt: new Date(now.getTime() + env.RESCRAPE_INTERVAL_MS * 2 ** failures) }),
    },
  });
  log.info(givenUp ? "rescrape given up" : "rescrape failed", { productId: p.productId, host: p.host, failures, reason });
}

/** Reads one claimed product's page, records what it says and queues the alerts its change calls for. */
async function readOne(p: Claimed, holder: string): Promise<void> {
  const product = await db.product.findUnique({
    where: { id: p.productId },
    select: { canonicalUrl: true, localizations: { where: { market: p.market }, select: { priceMinor: true, currency: true } } },
  });
  if (!product?.canonicalUrl) return;
  const { result, available } = await readProductPage(product.canonicalUrl, { market: p.market || undefined });
  if (!result.success && result.error === "external_error") {
    // Our own page readers were busy: not the page's fault. Read again in one interval (as claimed), no failure counted.
    await db.productRescrape.updateMany({ where: { productId: p.productId, claimedBy: holder }, data: { claimedBy: null, claimedUntil: null } });
    return;
  }
  if (!result.success) return failed(p, holder, result.error);
  const page = result.product;
  const at = new Date();
  const changes: ScrapedProductChange[] = [];
  // Before this read: what the last read saw, else the catalogue's price for the market (the page's own, read at the save).
  const stored = product.localizations[0];
  const previous =
    p.lastPriceMinor !== null && p.lastCurrency
      ? { priceMinor: p.lastPriceMinor, currency: p.lastCurrency }
      : stored?.priceMinor != null && stored.currency
        ? { priceMinor: stored.priceMinor, currency: stored.currency }
        : null;
  const price = page.price_minor !== null && page.currency ? { priceMinor: page.price_minor, currency: page.currency } : null;
  if (price && previous && previous.currency === price.currency && price.priceMinor < previous.priceMinor) {
    const low = await lowest30Days(p.productId, p.market, price.currency, at);
    changes.push({
      kind: "price_drop",
      productId: p.productId,
      priceMinor: price.priceMinor,
      previousPriceMinor: previous.priceMinor,
      lowest30DaysMinor: low === null ? previous.priceMinor : Math.min(low, previous.priceMinor),
      currency: price.currency,
      at,
    });
  }
  if (available === true && p.lastAvailable === false) {
    changes.push({ kind: "back_in_stock", productId: p.productId, priceMinor: price?.priceMinor ?? null, previousPriceMinor: null, lowest30DaysMinor: null, currency: price?.currency ?? null, at });
  }
  // The catalogue (and its price history) hears what the page says; the image is left as it is (no second fetch).
  await recordMarketFacts(p.productId, p.market, {
    title: page.title,
    description: page.description,
    priceMinor: page.price_minor,
    currency: page.currency,
    compareAtPriceMinor: page.compare_at_price_minor,
  });
  await db.product.update({ where: { id: p.productId }, data: { lastScrapedAt: at } });
  await db.productRescrape.updateMany({
    where: { productId: p.productId, claimedBy: holder },
    data: {
      failures: 0,
      claimedBy: null,
      claimedUntil: null,
      lastReadAt: at,
      ...(price ? { lastPriceMinor: price.priceMinor, lastCurrency: price.currency } : {}),
      ...(available !== null ? { lastAvailable: available } : {}),
    },
  });
  await scrapedProductChanged(p.productId, p.host, changes);
}

/** Reads one host's claimed products one after another, each under the host's slot. */
async function readHost(host: string, products: Claimed[], holder: string): Promise<void> {
  for (const [i, p] of products.entries()) {
    if (stopping) {
      // Shutting down (or the lease moved): the rest stay due for the next holder.
      for (const rest of products.slice(i)) await unclaim(rest, rest.dueAt, holder);
      return;
    }
    const now = new Date();
    const slot = await takeHost(host, now, holder);
    if (slot !== "taken") {
      // Over today's cap: tomorrow (UTC). Busy (another process reads the host): the next tick.
      const tomorrow = new Date(Date.parse(`${utcDay(now)}T00:00:00Z`) + DAY_MS);
      for (const rest of products.slice(i)) await unclaim(rest, slot === "capped" ? tomorrow : rest.dueAt, holder);
      return;
    }
    try {
      await readOne(p, holder);
    } catch (err) {
      log.error("rescrape failed unexpectedly", { productId: p.productId, host, ...errorFields(err) });
      await failed(p, holder, "internal_error").catch(() => undefined);
    } finally {
      await releaseHost(host, holder);
    }
  }
}

/** One tick: enrol new products, bring back given-up ones saved again, claim and read the due ones. */
export async function rescrapeTick(holder = instanceId): Promise<number> {
  if (env.RESCRAPE_PER_TICK === 0) return 0;
  const now = new Date();
  await enrol(now);
  await exec(reviveGivenUp(now));
  const claimed = await claimDue(now, env.RESCRAPE_PER_TICK, holder);
  if (claimed.length === 0) return 0;
  const byHost = new Map<string, Claimed[]>();
  for (const p of claimed) byHost.set(p.host, [...(byHost.get(p.host) ?? []), p]);
  const limit = pLimit(HOSTS_AT_ONCE);
  await Promise.all([...byHost].map(([host, products]) => limit(() => readHost(host, products, holder))));
  log.info("rescrape tick", { products: claimed.length, hosts: byHost.size });
  return claimed.length;
}

let poller: Poller | null = null;
/** Set while stopping: a tick under way reads no further product, so a shutdown waits for one read per host at most. */
let stopping = false;

/** Starts the ticks (in the process holding the background lease). */
export function startRescrapeAlerts(): void {
  if (env.RESCRAPE_PER_TICK === 0) return;
  stopping = false;
  poller ??= createPoller("rescrape", env.RESCRAPE_TICK_MS, async () => {
    await rescrapeTick();
  });
  poller.start();
}

/** Stops the ticks after the one under way. */
export async function stopRescrapeAlerts(): Promise<void> {
  stopping = true;
  await poller?.stop();
}
