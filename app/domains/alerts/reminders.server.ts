// Reminder digests: an e-mail listing a shopper's saved items of one shop (as
// the customer account sees them: itemsOfShop) not yet bought, for shoppers
// who confirmed the alert consent and also chose reminders, every
// `reminderDays` the shop set (7, 14 or 30; off by default), never more than
// once a week per shopper and shop. A scheduled pass in the background worker
// (under the deployment's job lease) queues the digests that are due; each
// digest follows exactly one earlier one (or the opt-in), and its record's
// unique key names that, so two passes at once (two instances, a pass still
// running when the next starts) queue it once. The outbox sends after the
// commit.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { transaction } from "~/db/sql.server";
import { errorFields, log } from "~/lib/log.server";
import { createPoller, type Poller } from "~/lib/poller.server";
import { enqueueStep } from "~/domains/outbox/outbox.server";
import { getPlan } from "~/domains/plans/plans";
import { wishRefSigner, withWishRef } from "~/domains/lists/wish-ref.server";
import { itemsOfShop, type ShopScope } from "~/domains/lists/shop-items";
import { holdReminders, recordReminder } from "./alerts.sql.server";
import type { AlertSettingsView } from "./alerts.server";
import { alertTopic, remindersUnsubscribeUrl } from "./consent.server";
import { isLang, type Lang } from "~/lib/lang";
import { absolute, alertMailPayload, fromOf, withVariant, type ReminderMailModel } from "./mail.server";

const DAY_MS = 86_400_000;
/** Whatever the setting, a shopper hears from one shop at most this often. */
const MIN_GAP_DAYS = 7;
/** Items a digest shows; the rest are "and N more" with a link to the shopper's lists. */
export const REMINDER_ITEMS_SHOWN = 12;
/** Bounds of one pass: shops looked at, digests per shop and in all (the next pass goes on where this one stopped). */
const SHOPS_PER_PASS = 200;
const DIGESTS_PER_SHOP = 50;
const DIGESTS_PER_PASS = 500;

interface ShopReminders {
  shopId: number;
  /** Which items are the shop's: saved through its widget or partner, or from its domains (as the customer account sees them). */
  scope: ShopScope;
  days: number;
  senderName: string | null;
  replyTo: string | null;
}

/**
 * The next shops with reminders on after `after` (a pass walks the shops round by round), those whose plan
 * brings them; `last` is the last shop looked at (skipped ones included), `more` whether the round goes on.
 */
async function shopsWithReminders(after: number): Promise<{ shops: ShopReminders[]; last: number; more: boolean }> {
  const rows = await db.alertSettings.findMany({
    where: { reminderDays: { gt: 0 }, shopId: { gt: after }, shop: { uninstalledAt: null } },
    orderBy: { shopId: "asc" },
    take: SHOPS_PER_PASS,
    select: {
      shopId: true,
      reminderDays: true,
      senderName: true,
      replyTo: true,
      shop: { select: { id: true, partnerId: true, domain: true, primaryDomain: true } },
    },
  });
  const partners = await db.partner.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.shop.partnerId))] } }, select: { id: true, plan: true } });
  const planOf = new Map(partners.map((p) => [p.id, p.plan]));
  const shops = rows
    .filter((r) => getPlan(planOf.get(r.shop.partnerId) ?? "free")?.reminders === true)
    .map((r) => ({ shopId: r.shopId, scope: r.shop, days: r.reminderDays, senderName: r.senderName, replyTo: r.replyTo }));
  return { shops, last: rows.at(-1)?.shopId ?? after, more: rows.length === SHOPS_PER_PASS };
}

/** Shoppers whose digest from the shop is due: confirmed consent with reminders since before the cutoff, nothing sent since, an unbought item of the shop. */
function dueShoppers(shop: ShopReminders, cutoff: Date, take: number) {
  return db.alertConsent.findMany({
    where: {
      confirmedAt: { not: null },
      remindersAt: { not: null, lte: cutoff },
      reminders: { none: { shopId: shop.shopId, createdAt: { gt: cutoff } } },
      user: { ownedLists: { some: { items: { some: { purchased: false, ...itemsOfShop(shop.scope) } } } } },
    },
    orderBy: { userId: "asc" },
    take,
    select: {
      userId: true,
      email: true,
      lang: true,
      remindersAt: true,
      // The last digest as this read saw it: the key of the next one (queueDigest).
      reminders: { where: { shopId: shop.shopId }, orderBy: { createdAt: "desc" }, take: 1, select: { createdAt: true } },
    },
  });
}

/** The shop after which the next pass starts (0: from the first). */
let cursor = 0;
let running: Promise<number> | null = null;

/** One pass: queues the digests that are due, within the pass's bounds; returns how many. Overlapping calls share the pass. */
export function sendDueReminders(now = new Date()): Promise<number> {
  return (running ??= (async () => {
    let queued = 0;
    const round = await shopsWithReminders(cursor);
    for (const shop of round.shops) {
      const room = Math.min(DIGESTS_PER_SHOP, DIGESTS_PER_PASS - queued);
      // The pass's bound reached: this shop is looked at first next time.
      if (room <= 0) return queued;
      const cutoff = new Date(now.getTime() - Math.max(shop.days, MIN_GAP_DAYS) * DAY_MS);
      const shoppers = await dueShoppers(shop, cutoff, room);
      for (const shopper of shoppers) {
        try {
          if (await queueDigest(shop, shopper as DueShopper, now)) queued++;
        } catch (err) {
          log.error("reminder failed", { shopId: shop.shopId, ...errorFields(err) });
        }
      }
      // Cut short by the pass's bound: looked at again first; cut by its own bound: it waits for the next round.
      if (shoppers.length === room && room < DIGESTS_PER_SHOP) return queued;
      cursor = shop.shopId;
    }
    // Every shop of this window was looked at (those whose plan has no reminders too): on to the next, or from the first again.
    cursor = round.more ? round.last : 0;
    return queued;
  })().finally(() => (running = null)));
}

type DueShopper = Awaited<ReturnType<typeof dueShoppers>>[number] & { remindersAt: Date };

/** The digest of one shopper and shop, queued with its record in one transaction; false when another pass queued it first. */
async function queueDigest(shop: ShopReminders, shopper: DueShopper, now: Date): Promise<boolean> {
  // The digest follows the last one, or the opt-in, as the read that found it due saw them: the key every
  // pass that found it due computes alike. (Read again here, a pass that lost the race would see the
  // winner's digest as the last one and make a new key.)
  const dedupKey = `reminder:${shopper.userId}:${shop.shopId}:${(shopper.reminders[0]?.createdAt ?? shopper.remindersAt).getTime()}`;
  const where = { purchased: false, wishlist: { ownerId: shopper.userId }, ...itemsOfShop(shop.scope) };
  const [count, items] = await Promise.all([
    db.listItem.count({ where }),
    db.listItem.findMany({
      where,
      orderBy: { id: "desc" },
      take: REMINDER_ITEMS_SHOWN,
      include: { product: { select: { canonicalUrl: true, localizations: true } } },
    }),
  ]);
  if (items.length === 0) return false;
  const lang: Lang = isLang(shopper.lang) ? shopper.lang : "en";
  const sign = await wishRefSigner("reminder");
  const mail = alertMailPayload(
    shopper.email,
    {
      template: "reminder",
      lang,
      items: items.map((item) => {
        const exact = item.product.localizations.find((l) => l.market === (item.market ?? ""));
        const loc = exact ?? item.product.localizations.find((l) => l.market === "") ?? item.product.localizations[0];
        const productUrl = item.product.canonicalUrl ? withVariant(item.product.canonicalUrl, item.variantId) : null;
        return {
          title: item.ownTitle ?? loc?.title ?? "",
          imageUrl: absolute(item.ownImageUrl ?? loc?.imageUrl ?? loc?.originalImageUrl ?? null),
          // The price of the market the shopper saved for, as the alerts show it.
          price: exact?.currency ? { minor: exact.priceMinor, currency: exact.currency } : { minor: item.ownPriceMinor, currency: item.ownCurrency },
          buyUrl: productUrl ? withWishRef(productUrl, sign(item.id)) : null,
        };
      }),
      more: count - items.length,
      listsUrl: `${env.APP_URL}/${lang}/lists`,
      unsubscribeUrl: await remindersUnsubscribeUrl(shopper.userId, shopper.email, lang),
    },
    shop,
  );
  return transaction(
    (function* () {
      if ((yield* holdReminders(shop.shopId)) === 0) return false;
      if ((yield* recordReminder({ dedupKey, shopId: shop.shopId, userId: shopper.userId, items: count }, now)) === 0) return false;
      yield* enqueueStep({ kind: "email", topic: alertTopic(shopper.userId), dedupKey, payload: mail });
      return true;
    })(),
  );
}

/**
 * A reminder digest as this shop's shoppers would get it (the admin's preview): the shop's three newest
 * catalogue products (else a placeholder) at their prices, its sender settings. Nothing is sent; the link is inert.
 */
export async function reminderPreview(shopId: number, settings: AlertSettingsView, lang: Lang) {
  const products = await db.product.findMany({
    where: { sourceShopId: shopId },
    orderBy: { id: "desc" },
    take: 3,
    select: { canonicalUrl: true, localizations: { take: 1, select: { title: true, imageUrl: true, originalImageUrl: true, priceMinor: true, currency: true } } },
  });
  const items: ReminderMailModel["items"] = products.length
    ? products.map((p) => {
        const loc = p.localizations[0];
        return {
          // Empty: the template names a placeholder in the e-mail's language.
          title: loc?.title || "",
          imageUrl: absolute(loc?.imageUrl ?? loc?.originalImageUrl ?? null),
          price: { minor: loc?.priceMinor ?? null, currency: loc?.currency ?? null },
          buyUrl: p.canonicalUrl,
        };
      })
    : [{ title: "", imageUrl: null, price: { minor: 2400, currency: "EUR" }, buyUrl: null }];
  const model: ReminderMailModel = {
    template: "reminder",
    lang,
    items,
    more: 0,
    listsUrl: `${env.APP_URL}/${lang}/lists`,
    unsubscribeUrl: `${env.APP_URL}/alerts/unsubscribe`,
  };
  return { model, from: fromOf(settings.senderName) ?? env.MAIL_FROM, replyTo: settings.replyTo, allowed: settings.remindersAllowed };
}

// ---------------------------------------------------------------- the schedule

let poller: Poller | null = null;

/** Runs a pass every REMINDER_INTERVAL_MS (in the process holding the background lease). */
export function startReminders(): void {
  poller ??= createPoller("reminders", env.REMINDER_INTERVAL_MS, async () => {
    const queued = await sendDueReminders();
    if (queued > 0) log.info("reminders queued", { queued });
  });
  poller.start();
}

/** Stops the passes and waits for one under way. */
export async function stopReminders(): Promise<void> {
  await poller?.stop();
}
