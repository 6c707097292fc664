// What the shop's platform tells us about the shop itself (docs/shopify.md "Shopify
// webhooks"): app/uninstalled and shop/update.
import { db } from "~/db.server";
import { normalizeAllowList, normalizeDomain } from "~/domains/keys/keys.server";
import { allowedDomainsOf } from "~/domains/keys/key-rules";
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import type { PlatformWebhook } from "./webhook-deliveries.server";
import { currencyCode, record, text } from "./payload";

export const findPlatformShop = (domain: string) => db.platformShop.findUnique({ where: { domain } });

/** The hosts a shop's storefront answers on: its myshopify domain and, when known, its primary domain. */
export function shopHosts(shop: { domain: string; primaryDomain: string | null }): string[] {
  return shop.primaryDomain && shop.primaryDomain !== shop.domain ? [shop.primaryDomain, shop.domain] : [shop.domain];
}

/**
 * `app/uninstalled`: the shop turns inactive (its partner's keys stop
 * initialising the widget while no shop of the partner is active, see
 * widget/init.server.ts) and its Shopify sessions go. Shoppers' lists stay.
 */
export async function shopUninstalled(hook: PlatformWebhook): Promise<void> {
  await db.$transaction([
    db.platformShop.updateMany({ where: { domain: hook.shop, active: true }, data: { active: false, uninstalledAt: new Date() } }),
    db.session.deleteMany({ where: { shop: hook.shop } }),
  ]);
  // Rare enough to forget every cached key rather than look the partner up.
  invalidateKeyConfig();
}

/** A host name the allow-list accepts, or null. */
function hostOrNull(value: string | null): string | null {
  if (!value) return null;
  try {
    const host = normalizeDomain(value);
    return host.startsWith("*.") ? null : host;
  } catch {
    return null;
  }
}

/**
 * `shop/update`: name, e-mail, currency and primary domain. The partner's keys
 * that serve this shop (their allow-list holds its myshopify domain or its old
 * primary domain) follow a new primary domain: the old one is replaced, the
 * myshopify domain stays.
 */
export async function shopUpdated(hook: PlatformWebhook): Promise<void> {
  const shop = await findPlatformShop(hook.shop);
  if (!shop) return; // not installed through us (or already redacted): nothing to follow
  const payload = record(hook.payload);
  const primary = hostOrNull(text(payload.domain, 253)) ?? shop.primaryDomain;
  await db.$transaction(async (tx) => {
    await tx.platformShop.update({
      where: { id: shop.id },
      data: {
        name: text(payload.name, 255) ?? shop.name,
        email: text(payload.email, 320) ?? shop.email,
        currency: currencyCode(payload.currency) ?? shop.currency,
        primaryDomain: primary,
      },
    });
    if (!primary || primary === shop.primaryDomain) return;
    const keys = await tx.apiKey.findMany({ where: { partnerId: shop.partnerId } });
    for (const key of keys) {
      const domains = allowedDomainsOf(key);
      const servesShop = domains.includes(shop.domain) || (shop.primaryDomain !== null && domains.includes(shop.primaryDomain));
      if (!servesShop) continue;
      const kept = domains.filter((d) => d !== shop.primaryDomain || d === shop.domain);
      const next = normalizeAllowList([...new Set([...kept, primary, shop.domain])]);
      await tx.apiKey.update({ where: { id: key.id }, data: { allowedDomains: next } });
    }
  });
  invalidateKeyConfig(shop.partnerId);
}
