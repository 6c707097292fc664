// The demo shop behind the admin preview (docs/shopify.md "Preview the admin
// locally"): a platform shop of its own partner, with a month of made-up
// activity (saves, shares, list views, wishlist revenue, alerts sent) so that
// every admin page has something to show. Its domain ends in `.invalid`, a
// name no Shopify shop (and no DNS name) can ever have, so no Shopify session,
// webhook or CLI command can address it, and the preview can address nothing
// else. Seeded once, in one transaction keyed on that unique domain.
import { randomBytes } from "node:crypto";
import { db, type Db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { newBasketId } from "~/domains/baskets/baskets.server";
import { generateKeyValue } from "~/domains/keys/keys.server";
import { currentPeriod } from "~/domains/metering/usage";
import { DEMO_PRODUCTS } from "./demo-products";

export const PREVIEW_SHOP_DOMAIN = "demo-shop.preview.invalid";
/** The storefront host the demo shop's key allows (a documentation name, RFC 2606). */
export const PREVIEW_STOREFRONT_HOST = "demo-shop.example";
export const PREVIEW_PARTNER = { name: "Demo shop", email: "demo-admin@example.com" } as const;
const CURRENCY = "EUR";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** More products than the demo page's two, so the revenue breakdown has a ranking. */
const CATALOGUE = [
  ...DEMO_PRODUCTS.map((p) => ({ slug: p.slug, title: p.title, price: p.price })),
  { slug: "linen-apron", title: "Linen apron", price: 3400 },
  { slug: "oak-serving-board", title: "Oak serving board", price: 5900 },
  { slug: "beeswax-candles", title: "Beeswax candles, set of 4", price: 1450 },
];

const SOURCES = ["share_page", "drawer", "alert_price_drop", "saved", "alert_back_in_stock", "wishlist_page"] as const;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (now: Date, n: number) => new Date(now.getTime() - n * 86_400_000);

async function seed(tx: Tx, now: Date) {
  const partner = await tx.partner.create({ data: { ...PREVIEW_PARTNER, plan: "free" } });
  // A fresh install's state: Free, five days into the 14-day trial.
  const installedAt = daysAgo(now, 5);
  const shop = await tx.platformShop.create({
    data: {
      partnerId: partner.id,
      domain: PREVIEW_SHOP_DOMAIN,
      name: PREVIEW_PARTNER.name,
      primaryDomain: PREVIEW_STOREFRONT_HOST,
      currency: CURRENCY,
      installedAt,
      trialEndsAt: new Date(installedAt.getTime() + 14 * 86_400_000),
      subscriptionStatus: "trialing",
    },
  });
  await tx.apiKey.create({
    data: { partnerId: partner.id, key: generateKeyValue("live"), environment: "live", allowedDomains: [PREVIEW_STOREFRONT_HOST] },
  });
  await tx.basketConfig.create({
    data: { publicId: newBasketId(), partnerId: partner.id, shopId: shop.id, layout: "drawer", checkout: { mode: "cart" } },
  });

  const products = [];
  for (const [index, p] of CATALOGUE.entries()) {
    const product = await tx.product.create({
      data: {
        canonicalUrl: `https://${PREVIEW_STOREFRONT_HOST}/products/${p.slug}`,
        sourceShopId: shop.id,
        sourcePartnerId: partner.id,
        sourceDomain: PREVIEW_STOREFRONT_HOST,
        rawProductId: String(7_000_000_000 + index),
        available: true,
        localizations: { create: { market: "", title: p.title, priceMinor: p.price, currency: CURRENCY } },
      },
    });
    products.push({ ...p, id: product.id, rawProductId: product.rawProductId! });
  }

  // Six shoppers with a list each; some of their items earn the orders below.
  const items = [];
  for (let s = 0; s < 6; s++) {
    const user = await tx.user.create({ data: { id: `preview-shopper-${randomBytes(8).toString("hex")}`, isAnonymous: true } });
    const list = await tx.wishlist.create({
      data: { shareToken: randomBytes(18).toString("base64url"), ownerId: user.id, name: "My wishlist", defaultKey: "default", createdThroughPartnerId: partner.id },
    });
    for (const product of products.filter((_, i) => (i + s) % 2 === 0)) {
      const item = await tx.listItem.create({
        data: { wishlistId: list.id, productId: product.id, sourcePartnerId: partner.id, sourceShopId: shop.id, addedAt: daysAgo(now, 20 - s) },
      });
      items.push({ item, product, userId: user.id });
    }
  }

  // Wishlist revenue: an order every few days over the last four weeks.
  for (let n = 0; n < 9; n++) {
    const { item, product } = items[(n * 3) % items.length]!;
    const orderedAt = daysAgo(now, 27 - n * 3);
    const quantity = 1 + (n % 2);
    const revenueMinor = product.price * quantity;
    const source = SOURCES[n % SOURCES.length]!;
    await tx.attributedOrder.create({
      data: {
        shopId: shop.id,
        orderId: String(5_100_000_000 + n),
        currency: CURRENCY,
        revenueMinor,
        orderedAt,
        day: isoDay(orderedAt),
        lines: {
          create: {
            shopId: shop.id,
            lineId: String(14_000_000_000 + n),
            source,
            listItemId: item.id,
            shopifyProductId: product.rawProductId,
            productKey: `p:${product.rawProductId}`,
            title: product.title,
            quantity,
            revenueMinor,
            currency: CURRENCY,
            day: isoDay(orderedAt),
          },
        },
      },
    });
  }

  // Alerts sent, two of them clicked.
  for (let n = 0; n < 5; n++) {
    const { item, product, userId } = items[n % items.length]!;
    const kind = n % 2 === 0 ? "price_drop" : "back_in_stock";
    await tx.alertSent.create({
      data: {
        dedupKey: `preview:${shop.id}:${n}`,
        shopId: shop.id,
        userId,
        listItemId: item.id,
        kind,
        priceMinor: kind === "price_drop" ? Math.round(product.price * 0.8) : null,
        currency: CURRENCY,
        title: product.title,
        createdAt: daysAgo(now, 25 - n * 4),
        clickedAt: n < 2 ? daysAgo(now, 24 - n * 4) : null,
      },
    });
  }
  await tx.alertSettings.create({ data: { shopId: shop.id, senderName: "Demo shop", reminderDays: 14 } });

  // This month's actions, day by day, and the meter they add up to.
  const { period } = currentPeriod(now);
  const today = now.getUTCDate();
  const totals = { saves: 0, shares: 0, listViews: 0 };
  for (let d = 1; d <= today; d++) {
    const day = `${period}-${String(d).padStart(2, "0")}`;
    // About half of Free's 200 actions by the month's end: no usage banner.
    const counts = { saves: 1 + ((d * 7) % 3), shares: d % 4 === 0 ? 1 : 0, listViews: (d * 5) % 3 };
    await tx.usageDay.create({ data: { partnerId: partner.id, day, ...counts } });
    totals.saves += counts.saves;
    totals.shares += counts.shares;
    totals.listViews += counts.listViews;
  }
  await tx.usageCounter.create({
    data: { partnerId: partner.id, period, ...totals, total: totals.saves + totals.shares + totals.listViews },
  });
  // Storefront events of the last two weeks (the home page's chart).
  for (let d = 0; d < 14; d++) {
    const day = isoDay(daysAgo(now, d));
    await tx.analyticsDay.create({ data: { partnerId: partner.id, day, event: "dialog_open", count: 3 + ((d * 5) % 7) } });
    await tx.analyticsDay.create({ data: { partnerId: partner.id, day, event: "item_saved", count: d % 4 } });
  }
}

async function ensure(now: Date) {
  const existing = await db.platformShop.findUnique({ where: { domain: PREVIEW_SHOP_DOMAIN } });
  if (existing) return existing;
  try {
    await db.$transaction((tx: Tx) => seed(tx, now), { timeout: 30_000 });
  } catch (err) {
    // Another process seeded it first.
    if (!isUniqueViolation(err)) throw err;
  }
  return db.platformShop.findUniqueOrThrow({ where: { domain: PREVIEW_SHOP_DOMAIN } });
}

let inFlight: Promise<{ id: number }> | null = null;

/** The preview's demo shop, created with its data when missing (concurrent first requests of a process share one). */
export function previewShop(now = new Date()): Promise<{ id: number }> {
  inFlight ??= ensure(now).finally(() => {
    inFlight = null;
  });
  return inFlight;
}
