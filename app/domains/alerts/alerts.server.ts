// Alerts on saved products: a price drop, back in stock, low stock of a
// variant a shopper saved (or of the product, when the save names no
// variant). The shop's platform tells us what changed (products/update,
// inventory_levels/update), or for a product of no installed shop the
// scheduled re-read of its page (rescrape-alerts.server.ts,
// scrapedProductChanged); this module compares it with what it said
// before, tells its listeners (onWishlistedProductChange: e.g. a Flow
// trigger), and queues one e-mail per shopper who confirmed their consent,
// in the transaction that records the alert: at most one per shopper,
// variant and price level (or stock episode and day), at most ALERTS_PER_DAY
// per shopper and day, sent by the outbox after the commit. The shoppers are
// read in batches (fanOutBatch: the first while the webhook waits, the rest
// as an outbox job, alertFanoutJob), and each shop's e-mails get send slots
// at ALERT_EMAILS_PER_SHOP_PER_MINUTE (outbox.server.ts reserveSendSlots).
import { db, type Prisma } from "~/db.server";
import { env } from "~/env.server";
import { transaction } from "~/db/sql.server";
import { log } from "~/lib/log.server";
import { publish, subscribe, type WishlistedProductChange } from "~/domains/events/events.server";
import { enqueueManyStep, enqueueStep, reserveSendSlots } from "~/domains/outbox/outbox.server";
import { PermanentFailure, type OutboxJob } from "~/domains/outbox/worker.server";
import { getPlan, type AlertKind } from "~/domains/plans/plans";
import { installedShopsOf, wishRefSigner, withWishRef } from "~/domains/lists/wish-ref.server";
import { countAlertDays, recordAlerts, unrecordAlert } from "./alerts.sql.server";
import { alertTopic, unsubscribeUrl, utcDay } from "./consent.server";
import { clickKeyOf, clickUrl } from "./clicks.server";
import { isLang, type Lang } from "~/lib/lang";
import { LOW_STOCK_THRESHOLD_MAX, SENDER_NAME_MAX } from "./limits";
import { isMailAddress } from "./consent.server";
import { isReminderDays } from "./limits";
import { absolute, alertMailPayload, fromOf, withVariant, type AlertMailModel } from "./mail.server";
import { badRequest } from "~/lib/api/errors";

const DAY_MS = 86_400_000;
/** EU price indication rule: an announced reduction shows the lowest price of the 30 days before it. */
const LOW_WINDOW_MS = 30 * DAY_MS;

// ---------------------------------------------------------------- events

export type { WishlistedProductChange };

/**
 * Subscribes to alert-worthy changes of saved products (whatever the shop's
 * e-mail settings): a Shopify Flow trigger module, for instance. The change is
 * the "product.changed" domain event (domains/events/events.server.ts), heard
 * after the change is stored; a listener that throws is logged and changes
 * nothing. Returns the unsubscribe function.
 */
export function onWishlistedProductChange(listener: (change: WishlistedProductChange) => void | Promise<void>): () => void {
  return subscribe("product.changed", listener);
}

// ---------------------------------------------------------------- settings

export interface AlertSettingsView {
  priceDrop: boolean;
  backInStock: boolean;
  lowStock: boolean;
  lowStockThreshold: number;
  senderName: string | null;
  replyTo: string | null;
  /** Days between reminder digests (0 = off, the default: a merchant who has not chosen sends none). */
  reminderDays: number;
  /** The kinds the partner's plan allows (Free: back in stock only). */
  allowed: readonly AlertKind[];
  /** Whether the plan brings reminder digests (Starter and up). */
  remindersAllowed: boolean;
}

const DEFAULTS = { priceDrop: true, backInStock: true, lowStock: true, lowStockThreshold: 3, senderName: null, replyTo: null, reminderDays: 0 };

export async function alertSettingsOf(shopId: number, plan: string): Promise<AlertSettingsView> {
  const row = await db.alertSettings.findUnique({ where: { shopId } });
  const s = row ?? DEFAULTS;
  return {
    priceDrop: s.priceDrop,
    backInStock: s.backInStock,
    lowStock: s.lowStock,
    lowStockThreshold: s.lowStockThreshold,
    senderName: s.senderName,
    replyTo: s.replyTo,
    reminderDays: s.reminderDays,
    allowed: getPlan(plan)?.alerts ?? [],
    remindersAllowed: getPlan(plan)?.reminders === true,
  };
}

/** The admin's settings form. Kinds the plan does not allow are stored as asked and stay off until an upgrade. */
export async function updateAlertSettings(
  shopId: number,
  input: {
    priceDrop: boolean;
    backInStock: boolean;
    lowStock: boolean;
    lowStockThreshold: number;
    senderName?: string | null;
    replyTo?: string | null;
    /** 0 (off), 7, 14 or 30; left as it is when not given. */
    reminderDays?: number;
  },
): Promise<void> {
  const lowStockThreshold = Math.min(Math.max(1, Math.trunc(input.lowStockThreshold)), LOW_STOCK_THRESHOLD_MAX);
  const senderName = input.senderName?.trim() || null;
  // A name goes into the From header: no line breaks, quotes or angle brackets that could end it.
  if (senderName && (senderName.length > SENDER_NAME_MAX || /[\r\n"<>\\]/.test(senderName) || [...senderName].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))) {
    throw badRequest("invalid_sender_name", `The sender name must be at most ${SENDER_NAME_MAX} characters, without quotes or angle brackets.`);
  }
  const replyTo = input.replyTo?.trim() || null;
  if (replyTo && !isMailAddress(replyTo)) throw badRequest("invalid_reply_to", "The reply-to address is not a valid e-mail address.");
  if (input.reminderDays !== undefined && !isReminderDays(input.reminderDays)) {
    throw badRequest("invalid_reminder_interval", "The reminder interval must be off, weekly, every 2 weeks or monthly.");
  }
  const data = {
    priceDrop: input.priceDrop,
    backInStock: input.backInStock,
    lowStock: input.lowStock,
    lowStockThreshold,
    senderName,
    replyTo,
    ...(input.reminderDays !== undefined ? { reminderDays: input.reminderDays } : {}),
  };
  await db.alertSettings.upsert({ where: { shopId }, create: { shopId, ...data }, update: data });
}

const kindOn = (s: AlertSettingsView, kind: AlertKind) =>
  s.allowed.includes(kind) && (kind === "price_drop" ? s.priceDrop : kind === "back_in_stock" ? s.backInStock : s.lowStock);

/** The merchant's "sent alerts" list: the newest 50 (no addresses). */
export async function sentAlertsOf(shopId: number) {
  const rows = await db.alertSent.findMany({ where: { shopId }, orderBy: { id: "desc" }, take: 50 });
  return rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, priceMinor: r.priceMinor, currency: r.currency, sentAt: r.createdAt.toISOString() }));
}

// ---------------------------------------------------------------- detection

/** One variant as the shop's platform describes it now. */
export interface VariantFacts {
  variantId: string;
  inventoryItemId: string | null;
  priceMinor: number | null;
  /** undefined: the payload did not say (the inventory webhook will); null: stock not tracked. */
  quantity: number | null | undefined;
  available: boolean;
}

interface ShopRef {
  id: number;
  partnerId: number;
}

/** The lowest price of the 30 days before `at`: the points in the window and the price standing at its start. */
async function lowest30Days(productId: number, variantId: string, currency: string, at: Date): Promise<number | null> {
  const start = new Date(at.getTime() - LOW_WINDOW_MS);
  const [inWindow, standing] = await Promise.all([
    db.variantPricePoint.aggregate({ where: { productId, variantId, currency, recordedAt: { gte: start, lt: at } }, _min: { priceMinor: true } }),
    db.variantPricePoint.findFirst({ where: { productId, variantId, currency, recordedAt: { lt: start } }, orderBy: { recordedAt: "desc" } }),
  ]);
  const candidates = [inWindow._min.priceMinor, standing?.priceMinor].filter((p): p is number => typeof p === "number");
  return candidates.length ? Math.min(...candidates) : null;
}

/**
 * Records the variants' prices and stock for the shop's catalogue entries
 * and queues the alerts their changes call for (products/update).
 * The first word about a variant only records it: a change needs a before.
 */
export async function platformVariantsChanged(shop: ShopRef, productIds: number[], currency: string | null, variants: VariantFacts[]): Promise<void> {
  if (variants.length === 0 || productIds.length === 0) return;
  const partner = await db.partner.findUnique({ where: { id: shop.partnerId }, select: { plan: true } });
  const settings = await alertSettingsOf(shop.id, partner?.plan ?? "free");
  const firstVariant = variants[0]!.variantId;
  const changes: WishlistedProductChange[] = [];
  const at = new Date();
  for (const productId of productIds) {
    for (const v of variants) {
      const base = { shopId: shop.id, partnerId: shop.partnerId, productId, variantId: v.variantId, saves: 0, at };
      if (v.priceMinor !== null && currency) {
        const last = await db.variantPricePoint.findFirst({ where: { productId, variantId: v.variantId }, orderBy: [{ recordedAt: "desc" }, { id: "desc" }] });
        if (!last || last.priceMinor !== v.priceMinor || last.currency !== currency) {
          const low = last && last.currency === currency && v.priceMinor < last.priceMinor ? await lowest30Days(productId, v.variantId, currency, at) : null;
          await db.variantPricePoint.create({ data: { productId, variantId: v.variantId, priceMinor: v.priceMinor, currency, recordedAt: at } });
          if (last && last.currency === currency && v.priceMinor < last.priceMinor) {
            changes.push({ ...base, kind: "price_drop", priceMinor: v.priceMinor, previousPriceMinor: last.priceMinor, lowest30DaysMinor: low ?? last.priceMinor, currency, quantity: null });
          }
        }
      }
      const stock = await applyVariantState(productId, v.variantId, { inventoryItemId: v.inventoryItemId, quantity: v.quantity, available: v.available }, settings.lowStockThreshold);
      for (const kind of stock.kinds) changes.push({ ...base, kind, priceMinor: v.priceMinor, previousPriceMinor: null, lowest30DaysMinor: null, currency, quantity: stock.quantity });
    }
  }
  await dispatch(changes, settings, firstVariant);
}

/**
 * inventory_levels/update: one inventory item's stock at one location. The
 * variant's stock is the sum over its locations; only variants of the shop's
 * own catalogue entries are touched.
 */
export async function inventoryLevelChanged(shop: ShopRef, inventoryItemId: string, locationId: string, available: number, reportedAt: Date | null = null): Promise<void> {
  const states = await db.variantState.findMany({ where: { inventoryItemId } });
  const own = await db.product.findMany({ where: { id: { in: states.map((s) => s.productId) }, sourceShopId: shop.id }, select: { id: true } });
  const ownIds = new Set(own.map((p) => p.id));
  const mine = states.filter((s) => ownIds.has(s.productId));
  if (mine.length === 0) return; // not a variant of a saved entry of this shop (or not seen yet)
  // A level reported before the one stored (deliveries out of order, a retry's original payload) changes nothing.
  const stored = await db.inventoryLevel.findUnique({ where: { inventoryItemId_locationId: { inventoryItemId, locationId } }, select: { reportedAt: true } });
  if (reportedAt && stored?.reportedAt && stored.reportedAt > reportedAt) return;
  await db.inventoryLevel.upsert({
    where: { inventoryItemId_locationId: { inventoryItemId, locationId } },
    create: { inventoryItemId, locationId, available, reportedAt },
    update: { available, ...(reportedAt ? { reportedAt } : {}) },
  });
  const total = (await db.inventoryLevel.aggregate({ where: { inventoryItemId }, _sum: { available: true } }))._sum.available ?? 0;
  const partner = await db.partner.findUnique({ where: { id: shop.partnerId }, select: { plan: true } });
  const settings = await alertSettingsOf(shop.id, partner?.plan ?? "free");
  const changes: WishlistedProductChange[] = [];
  const at = new Date();
  for (const state of mine) {
    const stock = await applyVariantState(state.productId, state.variantId, { inventoryItemId, quantity: total, available: total > 0 }, settings.lowStockThreshold);
    for (const kind of stock.kinds) {
      changes.push({ kind, shopId: shop.id, partnerId: shop.partnerId, productId: state.productId, variantId: state.variantId, priceMinor: null, previousPriceMinor: null, lowest30DaysMinor: null, currency: null, quantity: stock.quantity, saves: 0, at });
    }
  }
  await dispatch(changes, settings, null);
}

/** A change the scheduled re-read of a scraped page saw (rescrape-alerts.server.ts). */
export interface ScrapedProductChange {
  kind: "price_drop" | "back_in_stock";
  productId: number;
  priceMinor: number | null;
  previousPriceMinor: number | null;
  lowest30DaysMinor: number | null;
  currency: string | null;
  at: Date;
}

/** What a save that came through no partner may hear about a scraped product: price drop and back in stock (low stock: pages state no quantity). */
export const UNPARTNERED_ALERT_KINDS: readonly AlertKind[] = ["price_drop", "back_in_stock"];

/**
 * A product of no installed shop changed (price drop, back in stock), as its
 * re-read page says. No merchant settings apply: price drop and back in
 * stock are on, the sender is MAIL_FROM. Each save is gated by the plan of
 * the partner whose widget it came through (Free: back in stock only); a
 * save through no partner hears both. The Buy-now link leads to the page itself,
 * with a `wish_ref` only when its host is an installed shop's (as share pages do).
 */
export async function scrapedProductChanged(productId: number, host: string, changes: ScrapedProductChange[]): Promise<void> {
  if (changes.length === 0) return;
  // Each batch reads the saving partners' plans and whether the host is an installed shop's (senderOf).
  const settings: AlertSettingsView = { ...DEFAULTS, lowStock: false, allowed: UNPARTNERED_ALERT_KINDS, remindersAllowed: false };
  const full = changes.map((c) => ({ ...c, shopId: null, partnerId: null, variantId: null, quantity: null, saves: 0 }));
  await dispatch(full, settings, null, host);
}

/** Stores a variant's stock and says which stock alerts its change calls for. */
async function applyVariantState(
  productId: number,
  variantId: string,
  next: { inventoryItemId: string | null; quantity: number | null | undefined; available: boolean },
  threshold: number,
): Promise<{ kinds: AlertKind[]; quantity: number | null }> {
  const before = await db.variantState.findUnique({ where: { productId_variantId: { productId, variantId } } });
  const quantity = next.quantity === undefined ? (before?.quantity ?? null) : next.quantity;
  const inventoryItemId = next.inventoryItemId ?? before?.inventoryItemId ?? null;
  await db.variantState.upsert({
    where: { productId_variantId: { productId, variantId } },
    create: { productId, variantId, inventoryItemId, quantity, available: next.available },
    update: { inventoryItemId, quantity, available: next.available },
  });
  const kinds: AlertKind[] = [];
  if (!before) return { kinds, quantity };
  if (!before.available && next.available) kinds.push("back_in_stock");
  else if (next.available && quantity !== null && quantity > 0 && quantity <= threshold && (before.quantity === null || before.quantity > threshold)) {
    kinds.push("low_stock");
  }
  return { kinds, quantity };
}

// ---------------------------------------------------------------- dispatch

// Savers read and e-mails queued per transaction (ALERT_FANOUT_BATCH, 500). The first batch of a
// change is queued while the webhook waits; each batch that comes back full queues the next as an
// outbox job in its own transaction, so a fan-out of 50,000 is a chain of bounded steps that a
// crash resumes where it stopped.
export const ALERT_FANOUT_KIND = "alert_fanout";

/** One change's fan-out: what changed, and the last list item done (pages go by item id). */
interface Fanout {
  change: WishlistedProductChange;
  /** The variant the product page shows first: saves that name no variant hear about it. */
  firstVariant: string | null;
  /** A scraped product's page host (no shop: each save is gated by its partner's plan). */
  host: string | null;
  after: number;
}

/** The send lane, and so the rate, of a change's e-mails: its shop, or a scraped page's host. */
const laneOf = (f: Pick<Fanout, "change" | "host">) => (f.change.shopId !== null ? `shop:${f.change.shopId}` : `site:${f.host ?? "-"}`);
/** A shop's fan-out jobs share one outbox topic: the outbox runs them one at a time. */
const fanoutTopic = (lane: string) => `alert-fanout:${lane}`;

/** A price drop's level is its price; a stock alert's, the UTC day. */
const levelOf = (change: WishlistedProductChange) => (change.kind === "price_drop" ? `${change.priceMinor}${change.currency}` : utcDay(change.at));

/** The saves that name the changed variant, and those that name none when it is the variant the product page shows first. */
const variantWhere = (change: WishlistedProductChange, firstVariant: string | null) =>
  change.variantId ? { OR: [{ variantId: change.variantId }, ...(change.variantId === firstVariant ? [{ variantId: null }] : [])] } : {};

/** The shoppers to tell about each change: the listeners hear it, then the first batch of e-mails is queued (the rest by the job). */
async function dispatch(changes: WishlistedProductChange[], settings: AlertSettingsView, firstVariant: string | null, host: string | null = null): Promise<void> {
  for (const change of changes) {
    const saves = await db.listItem.count({ where: { productId: change.productId, purchased: false, ...variantWhere(change, firstVariant) } });
    if (saves === 0) continue;
    await publish("product.changed", { ...change, saves });
    if (!kindOn(settings, change.kind)) continue;
    await fanOutBatch({ change, firstVariant, host, after: 0 });
  }
}

/** What one batch reads about the shop (or site) once, whatever the number of shoppers: no Admin API call, no read per shopper. */
async function senderOf(f: Fanout, sourcePartnerIds: Array<number | null>) {
  const { change } = f;
  if (change.shopId !== null) {
    const shop = await db.platformShop.findUnique({ where: { id: change.shopId }, select: { active: true, partnerId: true } });
    // An uninstalled shop (or one redacted meanwhile) sends nothing more.
    if (!shop?.active) return null;
    const partner = await db.partner.findUnique({ where: { id: shop.partnerId }, select: { plan: true } });
    const settings = await alertSettingsOf(change.shopId, partner?.plan ?? "free");
    return kindOn(settings, change.kind) ? { settings, signRefs: true, itemAllows: () => true } : null;
  }
  // A scraped page: no merchant settings; each save is gated by the plan of the partner it came through.
  const ids = [...new Set(sourcePartnerIds.filter((id): id is number => id !== null))];
  const partners = ids.length ? await db.partner.findMany({ where: { id: { in: ids } }, select: { id: true, plan: true } }) : [];
  const allowedOf = new Map(partners.map((p) => [p.id, getPlan(p.plan)?.alerts ?? []]));
  const itemAllows = (sourcePartnerId: number | null) =>
    sourcePartnerId === null ? UNPARTNERED_ALERT_KINDS.includes(change.kind) : (allowedOf.get(sourcePartnerId) ?? []).includes(change.kind);
  const settings: AlertSettingsView = { ...DEFAULTS, lowStock: false, allowed: UNPARTNERED_ALERT_KINDS, remindersAllowed: false };
  return { settings, signRefs: (await installedShopsOf([f.host ?? ""])).size > 0, itemAllows };
}

/**
 * One batch of a fan-out: the next ALERT_FANOUT_BATCH savers with confirmed consent
 * after `f.after`, their e-mails built from what the batch read once, and in
 * one transaction each shopper's alert record (the dedup key: a shopper told
 * before at this level is skipped, on any instance) and day count, the
 * e-mails in the shop's send slots, and the next batch's job when this one
 * was full. Shoppers go in id order, so two batches at once take their day
 * counts in the same order (no deadlock on PostgreSQL).
 */
async function fanOutBatch(f: Fanout): Promise<{ queued: number; next: boolean }> {
  const { change } = f;
  const items = await db.listItem.findMany({
    where: {
      productId: change.productId,
      purchased: false,
      id: { gt: f.after },
      ...variantWhere(change, f.firstVariant),
      wishlist: { owner: { alertConsent: { is: { confirmedAt: { not: null } } } } },
    },
    orderBy: { id: "asc" },
    take: env.ALERT_FANOUT_BATCH,
    select: {
      id: true,
      market: true,
      ownTitle: true,
      ownImageUrl: true,
      ownPriceMinor: true,
      ownCurrency: true,
      sourcePartnerId: true,
      wishlist: { select: { owner: { select: { id: true, alertConsent: true } } } },
    },
  });
  if (items.length === 0) return { queued: 0, next: false };
  const sender = await senderOf(f, items.map((i) => i.sourcePartnerId));
  if (!sender) return { queued: 0, next: false };
  const { settings } = sender;
  const product = await db.product.findUnique({ where: { id: change.productId }, select: { canonicalUrl: true, localizations: true } });
  if (!product) return { queued: 0, next: false };
  // The reference names the alert kind: the revenue breakdown counts what each kind sold (docs/revenue.md).
  const sign = sender.signRefs ? await wishRefSigner(`alert_${change.kind}`) : null;
  const productUrl = product.canonicalUrl ? withVariant(product.canonicalUrl, change.variantId) : null;
  const level = levelOf(change);

  const told = new Set<string>();
  const alerts = [];
  for (const item of items) {
    const owner = item.wishlist.owner;
    const consent = owner.alertConsent;
    if (!consent?.confirmedAt || told.has(owner.id)) continue;
    if (!sender.itemAllows(item.sourcePartnerId)) continue;
    const exact = product.localizations.find((l) => l.market === (item.market ?? ""));
    const loc = exact ?? product.localizations.find((l) => l.market === "") ?? product.localizations[0];
    // Prices go out only in the currency of the market the shopper saved for: its catalogue entry's, else the save's own.
    const savedCurrency = exact?.currency ?? item.ownCurrency ?? null;
    const marketPrice = exact?.currency ? exact.priceMinor : item.ownPriceMinor;
    const sameCurrency = !savedCurrency || !change.currency || savedCurrency === change.currency;
    if (change.kind === "price_drop" && !sameCurrency) continue;
    told.add(owner.id);
    const lang: Lang = isLang(consent.lang) ? consent.lang : "en";
    const title = item.ownTitle ?? loc?.title ?? "";
    const dedupKey = `${change.kind}:${owner.id}:${change.productId}:${change.variantId ?? "-"}:${level}`;
    const buyUrl = productUrl && sign ? withWishRef(productUrl, sign(item.id)) : productUrl;
    // The e-mail links to our click-through, which counts the click and leads to buyUrl (clicks.server.ts).
    const clickKey = buyUrl ? await clickKeyOf(dedupKey) : null;
    const model = alertMailModel({
      lang,
      change,
      title,
      imageUrl: absolute(item.ownImageUrl ?? loc?.imageUrl ?? loc?.originalImageUrl ?? null),
      // A stock alert in another currency than the saved market's shows the market's own price.
      priceMinor: sameCurrency ? (change.priceMinor ?? marketPrice ?? null) : (marketPrice ?? null),
      currency: sameCurrency ? (change.currency ?? savedCurrency) : savedCurrency,
      buyUrl: clickKey ? clickUrl(clickKey, lang) : null,
      unsubscribe: await unsubscribeUrl(owner.id, consent.email, lang),
    });
    const mail = alertMailPayload(consent.email, model, settings);
    alerts.push({ userId: owner.id, itemId: item.id, dedupKey, title, clickKey, buyUrl, mail });
  }
  alerts.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));

  const lane = laneOf(f);
  const last = items[items.length - 1]!.id;
  const full = items.length === env.ALERT_FANOUT_BATCH;
  const day = utcDay();
  const { queued, capped } = await transaction(
    (function* () {
      // Multi-row statements: a batch is a handful of round trips, not three per shopper.
      const fresh = new Set(
        yield* recordAlerts(
          alerts.map((a) => ({ dedupKey: a.dedupKey, shopId: change.shopId, userId: a.userId, listItemId: a.itemId, kind: change.kind, priceMinor: change.priceMinor, currency: change.currency, title: a.title, clickKey: a.clickKey, buyUrl: a.buyUrl })),
          new Date(),
        ),
      );
      const recorded = alerts.filter((a) => fresh.has(a.dedupKey)); // the others were told before at this level
      const counted = new Set(yield* countAlertDays(recorded.map((a) => a.userId), day, env.ALERTS_PER_DAY));
      const due = recorded.filter((a) => counted.has(a.userId));
      // Over the daily cap: dropped, and nothing recorded, so a lower price later still counts.
      for (const a of recorded) if (!counted.has(a.userId)) yield* unrecordAlert(a.dedupKey);
      const slots = yield* reserveSendSlots(lane, due.length, env.ALERT_EMAILS_PER_SHOP_PER_MINUTE);
      yield* enqueueManyStep(due.map((a, i) => ({ kind: "email", topic: alertTopic(a.userId), dedupKey: `alert:${a.dedupKey}`, payload: a.mail, due: slots[i]! })));
      if (full) {
        const next: Fanout = { ...f, after: last };
        yield* enqueueStep({
          kind: ALERT_FANOUT_KIND,
          topic: fanoutTopic(lane),
          // One job per change and page, however many instances reach it.
          dedupKey: `alert-fanout:${change.kind}:${change.productId}:${change.variantId ?? "-"}:${level}:${change.at.getTime()}:${last}`,
          payload: { ...next, change: { ...change, at: change.at.toISOString() } } as unknown as Prisma.InputJsonValue,
        });
      }
      return { queued: due.length, capped: recorded.length - due.length };
    })(),
  );
  if (capped > 0) log.info("alerts over the daily cap", { kind: change.kind, productId: change.productId, capped });
  log.info("alert batch queued", { kind: change.kind, productId: change.productId, lane, after: f.after, queued, next: full });
  return { queued, next: full };
}

/** The outbox job that queues a fan-out's next batch (registered by background.server.ts). */
export const alertFanoutJob: OutboxJob = {
  kind: ALERT_FANOUT_KIND,
  async deliver(message) {
    const p = (message.payload ?? {}) as Partial<Omit<Fanout, "change">> & { change?: Record<string, unknown> };
    const at = new Date(String(p.change?.at));
    if (!p.change || typeof p.after !== "number" || Number.isNaN(at.getTime()) || typeof p.change.productId !== "number") {
      throw new PermanentFailure("alert fan-out payload needs change and after");
    }
    await fanOutBatch({ change: { ...(p.change as unknown as WishlistedProductChange), at }, firstVariant: p.firstVariant ?? null, host: p.host ?? null, after: p.after });
  },
};

/** The alert e-mail's model: one product, its figures, the links (the template is app/pages/emails/alert.tsx). */
function alertMailModel(m: {
  lang: Lang;
  change: WishlistedProductChange;
  title: string;
  imageUrl: string | null;
  priceMinor: number | null;
  currency: string | null;
  buyUrl: string | null;
  unsubscribe: string;
}): AlertMailModel {
  return {
    template: "alert",
    lang: m.lang,
    kind: m.change.kind,
    title: m.title,
    imageUrl: m.imageUrl,
    price: { minor: m.priceMinor, currency: m.currency },
    previous: { minor: m.change.previousPriceMinor, currency: m.currency },
    lowest30Days: { minor: m.change.lowest30DaysMinor, currency: m.currency },
    quantity: m.change.quantity,
    buyUrl: m.buyUrl,
    unsubscribeUrl: m.unsubscribe,
  };
}

/** Example figures of the preview: a price 20 % down, a 30-day low just above it, three left. */
const PREVIEW = { priceMinor: 2400, previousPriceMinor: 3000, lowest30DaysMinor: 2600, quantity: 3 };

/**
 * An alert e-mail as this shop's shoppers would get it (the admin's preview): the shop's newest product
 * in its catalogue (else a placeholder title), example prices in the shop's currency, its sender settings.
 * Nothing is sent; the unsubscribe link is inert.
 */
export async function alertPreview(shopId: number, settings: AlertSettingsView, kind: AlertKind, lang: Lang) {
  const [shop, product] = await Promise.all([
    db.platformShop.findUnique({ where: { id: shopId }, select: { currency: true } }),
    db.product.findFirst({
      where: { sourceShopId: shopId },
      orderBy: { id: "desc" },
      select: { canonicalUrl: true, localizations: { take: 1, select: { title: true, imageUrl: true, originalImageUrl: true } } },
    }),
  ]);
  const loc = product?.localizations[0];
  const currency = shop?.currency && /^[A-Z]{3}$/.test(shop.currency) ? shop.currency : "EUR";
  const at = new Date();
  const model = alertMailModel({
    lang,
    change: { kind, shopId, partnerId: 0, productId: 0, variantId: null, ...PREVIEW, currency, saves: 1, at },
    // Without a product the template names a placeholder in the e-mail's language.
    title: loc?.title ?? "",
    imageUrl: absolute(loc?.imageUrl ?? loc?.originalImageUrl ?? null),
    priceMinor: PREVIEW.priceMinor,
    currency,
    buyUrl: product?.canonicalUrl ?? null,
    unsubscribe: `${env.APP_URL}/alerts/unsubscribe`,
  });
  return { model, from: fromOf(settings.senderName) ?? env.MAIL_FROM, replyTo: settings.replyTo, allowed: settings.allowed.includes(kind) };
}

/**
 * Deletes the daily e-mail counts of days before yesterday (UTC): they serve
 * one day each. Plain days sort before the `c:` (confirmation) ones.
 */
export async function pruneAlertDays(now = new Date()): Promise<number> {
  const cutoff = utcDay(new Date(now.getTime() - DAY_MS));
  const { count } = await db.alertDay.deleteMany({ where: { OR: [{ day: { lt: cutoff } }, { day: { gte: "c:", lt: `c:${cutoff}` } }] } });
  return count;
}

// ---------------------------------------------------------------- privacy

/** customers/data_request: the shopper's alert address and consent, and the alerts this shop sent them. */
export async function alertDataOf(userId: string, shopId: number) {
  const [consent, sent, reminders] = await Promise.all([
    db.alertConsent.findUnique({ where: { userId } }),
    db.alertSent.findMany({ where: { userId, shopId }, orderBy: { id: "asc" }, take: 1000 }),
    db.reminderSent.findMany({ where: { userId, shopId }, orderBy: { id: "asc" }, take: 1000 }),
  ]);
  return {
    consent: consent
      ? {
          email: consent.email,
          lang: consent.lang,
          requested_at: consent.createdAt.toISOString(),
          confirmed_at: consent.confirmedAt?.toISOString() ?? null,
          reminders_since: consent.remindersAt?.toISOString() ?? null,
        }
      : null,
    alerts_sent: sent.map((a) => ({
      kind: a.kind,
      title: a.title,
      price_minor: a.priceMinor,
      currency: a.currency,
      sent_at: a.createdAt.toISOString(),
      clicked_at: a.clickedAt?.toISOString() ?? null,
    })),
    reminders_sent: reminders.map((r) => ({ items: r.items, sent_at: r.createdAt.toISOString() })),
  };
}

/**
 * shop/redact: the shop's alert settings and its record of alerts and reminders sent. The settings go first:
 * a reminder pass holds them in the transaction that records a digest, so none is recorded after.
 */
export async function forgetAlertsOfShop(shopId: number): Promise<void> {
  await db.alertSettings.deleteMany({ where: { shopId } });
  // A fan-out under way stops (its next batch would find the shop gone anyway).
  await db.outboxMessage.deleteMany({ where: { kind: ALERT_FANOUT_KIND, topic: fanoutTopic(laneOf({ change: { shopId } as WishlistedProductChange, host: null })) } });
  await db.alertSent.deleteMany({ where: { shopId } });
  await db.reminderSent.deleteMany({ where: { shopId } });
}
