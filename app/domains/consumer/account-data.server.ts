// "Download my data" on My lists (docs/identity.md "Account basics"): what
// the service keeps about the shopper's account, as one JSON document: the
// account, its lists and their items, lists shared with it, the alert
// consent, and the shops connected with it (consents to be recognised by a
// shop, and store customer accounts joined with it).
import { db } from "~/db.server";
import { env } from "~/env.server";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export async function accountDataOf(userId: string) {
  const [user, lists, memberships, alerts, consents, storeAccounts] = await Promise.all([
    db.user.findUnique({
      where: { id: userId },
      select: { id: true, email: true, displayName: true, isAnonymous: true, createdAt: true, lastSignInAt: true },
    }),
    db.wishlist.findMany({
      where: { ownerId: userId },
      orderBy: { id: "asc" },
      select: {
        name: true,
        description: true,
        sharePublic: true,
        shareToken: true,
        occasionSlug: true,
        createdAt: true,
        updatedAt: true,
        items: {
          orderBy: { id: "asc" },
          select: {
            ownTitle: true,
            ownDescription: true,
            ownPriceMinor: true,
            ownCurrency: true,
            priority: true,
            purchased: true,
            addedAt: true,
            market: true,
            sourceDomain: true,
            product: { select: { canonicalUrl: true, localizations: { select: { market: true, title: true, priceMinor: true, currency: true } } } },
          },
        },
      },
    }),
    db.wishlistMember.findMany({ where: { userId }, select: { role: true, createdAt: true, wishlist: { select: { name: true } } } }),
    db.alertConsent.findUnique({ where: { userId } }),
    db.shopperConsent.findMany({ where: { userId }, orderBy: { createdAt: "asc" }, select: { host: true, createdAt: true } }),
    db.shopCustomer.findMany({ where: { userId }, orderBy: { createdAt: "asc" }, select: { customerId: true, createdAt: true, shop: { select: { domain: true, name: true } } } }),
  ]);
  return {
    exported_at: new Date().toISOString(),
    account: user
      ? {
          id: user.id,
          email: user.email,
          display_name: user.displayName,
          is_guest: user.isAnonymous,
          created_at: iso(user.createdAt),
          last_sign_in_at: iso(user.lastSignInAt),
        }
      : null,
    lists: lists.map((l) => ({
      name: l.name,
      description: l.description,
      public: l.sharePublic,
      share_url: l.sharePublic ? `${env.APP_URL}/en/list/${encodeURIComponent(l.shareToken)}` : null,
      occasion: l.occasionSlug || null,
      created_at: iso(l.createdAt),
      updated_at: iso(l.updatedAt),
      items: l.items.map((i) => {
        const local = i.product.localizations.find((x) => x.market === i.market) ?? i.product.localizations[0];
        return {
          title: i.ownTitle ?? local?.title ?? null,
          note: i.ownDescription,
          url: i.product.canonicalUrl,
          price_minor: i.ownPriceMinor ?? local?.priceMinor ?? null,
          currency: i.ownCurrency ?? local?.currency ?? null,
          priority: i.priority,
          purchased: i.purchased,
          saved_from: i.sourceDomain,
          added_at: iso(i.addedAt),
        };
      }),
    })),
    shared_with_me: memberships.map((m) => ({ list: m.wishlist.name, role: m.role, since: iso(m.createdAt) })),
    alerts: alerts
      ? {
          email: alerts.email,
          language: alerts.lang,
          asked_at: iso(alerts.createdAt),
          confirmed_at: iso(alerts.confirmedAt),
          reminders_since: iso(alerts.remindersAt),
        }
      : null,
    connected_shops: {
      recognised_by: consents.map((c) => ({ shop: c.host, since: iso(c.createdAt) })),
      store_accounts: storeAccounts.map((s) => ({ shop: s.shop.domain, shop_name: s.shop.name, customer_id: s.customerId, since: iso(s.createdAt) })),
    },
  };
}
