// What an install sets up: a partner on Free, the platform shop
// (trialing, 14 days), a live public key allowed on the shop's domains, a
// basket configuration, and the shop metafields the theme app extension reads.
// It runs from Shopify's afterAuth hook, which fires again after a reinstall
// or an expired offline token and may fire twice at once, so it is
// idempotent: everything keys off the shop's unique domain inside one
// transaction, and a run that loses the race to create the shop retries and
// finds the winner's records.
import { env } from "~/env.server";
import { getAnonKey } from "~/domains/secrets/secrets.server";
import { db, type Db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { errorFields, log } from "~/lib/log.server";
import { generateKeyValue, normalizeAllowList, normalizeDomain } from "~/domains/keys/keys.server";
import { allowedDomainsOf } from "~/domains/keys/key-rules";
import { noteKeyStatus } from "~/domains/keys/key-status.server";
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import { newBasketId } from "~/domains/baskets/baskets.server";
import { getPlan } from "~/domains/plans/plans";
import { adminQuery, AdminApiError, type AdminGraphql } from "./admin-graphql.server";
import { SHOP_METAFIELD_KEYS, SHOP_METAFIELD_NAMESPACE } from "./metafields";
import { normalizeShopDomain, trialEndsAt } from "./shops.server";
import { freeHandle, handleBase } from "./handles.server";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export const SHOP_QUERY = `#graphql
query WishlistShop {
  shop {
    id name email myshopifyDomain primaryDomain { url host } currencyCode ianaTimezone
    badge: metafield(namespace: "${SHOP_METAFIELD_NAMESPACE}", key: "${SHOP_METAFIELD_KEYS.badge}") { value }
  }
}`;

export interface ShopInfo {
  id: string;
  name: string;
  email: string | null;
  myshopifyDomain: string;
  primaryDomain: { url: string; host: string } | null;
  currencyCode: string;
  ianaTimezone: string;
  badge: { value: string } | null;
}

export const METAFIELDS_SET = `#graphql
mutation WishlistMetafields($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { key value }
    userErrors { field message code }
  }
}`;

/** Writes the given app-owned shop metafields (all single values, at most 25 per call). */
export async function writeShopMetafields(
  graphql: AdminGraphql,
  ownerId: string,
  values: Partial<Record<keyof typeof SHOP_METAFIELD_KEYS, string | boolean>>,
): Promise<void> {
  const metafields = Object.entries(values).map(([name, value]) => ({
    ownerId,
    namespace: SHOP_METAFIELD_NAMESPACE,
    key: SHOP_METAFIELD_KEYS[name as keyof typeof SHOP_METAFIELD_KEYS],
    type: typeof value === "boolean" ? "boolean" : "single_line_text_field",
    value: String(value),
  }));
  const data = await adminQuery<{ metafieldsSet: { userErrors: { field: string[]; message: string }[] } }>(
    graphql,
    METAFIELDS_SET,
    { metafields },
  );
  const errors = data.metafieldsSet.userErrors;
  if (errors.length) {
    log.warn("metafieldsSet refused", { errors: JSON.stringify(errors) });
    throw new AdminApiError(`metafieldsSet refused: ${errors.map((e) => e.message).join("; ")}`);
  }
}

export async function fetchShopInfo(graphql: AdminGraphql): Promise<ShopInfo> {
  return (await adminQuery<{ shop: ShopInfo }>(graphql, SHOP_QUERY)).shop;
}

/** The hosts the shop's key must allow: the myshopify domain and the primary domain. */
function shopHosts(domain: string, info: ShopInfo): string[] {
  const hosts = [domain];
  const primary = info.primaryDomain?.host;
  if (primary) {
    try {
      hosts.push(normalizeDomain(primary));
    } catch {
      log.warn("primary domain not usable in an allow-list", { shop: domain, primary });
    }
  }
  return [...new Set(hosts)];
}

async function ensureRecords(domain: string, info: ShopInfo, now: Date) {
  return db.$transaction(async (tx: Tx) => {
    const existing = await tx.platformShop.findUnique({ where: { domain } });
    let shop;
    if (!existing) {
      const partner = await tx.partner.create({
        data: { name: info.name || domain, email: (info.email || `owner@${domain}`).toLowerCase(), plan: "free" },
      });
      // Unique on domain: the loser of a concurrent install fails here, rolls back its partner and retries.
      // The storefront page gets a handle now and stays unpublished until the merchant publishes it
      // (a handle taken concurrently fails the unique index, and the run retries).
      const handle = await freeHandle(handleBase({ name: info.name, domain }), tx);
      shop = await tx.platformShop.create({
        data: { partnerId: partner.id, domain, name: info.name, handle, installedAt: now, trialEndsAt: trialEndsAt(now), subscriptionStatus: "trialing" },
      });
    } else {
      // A reinstall keeps the partner, the original trial end (no second trial) and the subscription
      // state; this update also locks the row, so concurrent runs take turns below.
      shop = await tx.platformShop.update({
        where: { id: existing.id },
        data: {
          active: true,
          uninstalledAt: null,
          name: info.name,
          ...(existing.handle ? {} : { handle: await freeHandle(handleBase({ name: info.name, domain }), tx) }),
        },
      });
    }

    const hosts = shopHosts(domain, info);
    const key =
      (await tx.apiKey.findFirst({ where: { partnerId: shop.partnerId, environment: "live", status: "active" }, orderBy: { id: "asc" } })) ??
      (await tx.apiKey.findFirst({ where: { partnerId: shop.partnerId, environment: "live", status: "revoked" }, orderBy: { id: "desc" } }));
    let apiKey;
    if (!key) {
      apiKey = await tx.apiKey.create({
        data: { partnerId: shop.partnerId, key: generateKeyValue("live"), environment: "live", allowedDomains: hosts },
      });
    } else {
      // Merchant-added entries stay; the shop's own hosts are always on the list.
      const allowedDomains = normalizeAllowList([...hosts, ...allowedDomainsOf(key)]);
      apiKey = await tx.apiKey.update({
        where: { id: key.id },
        data: { status: "active", revokedAt: null, allowedDomains },
      });
    }

    const basket =
      (await tx.basketConfig.findFirst({ where: { shopId: shop.id }, orderBy: { id: "asc" } })) ??
      (await tx.basketConfig.create({
        data: { publicId: newBasketId(), partnerId: shop.partnerId, shopId: shop.id, layout: "drawer", checkout: { mode: "cart" } },
      }));
    const partner = await tx.partner.findUniqueOrThrow({ where: { id: shop.partnerId } });
    return { partner, shop, apiKey, basket, reactivated: Boolean(existing && !existing.active), created: !existing };
  });
}

const RETRYABLE = new Set(["P2002", "P2034"]);

export interface ProvisionInput {
  shopDomain: string;
  graphql: AdminGraphql;
  now?: Date;
}

/** Idempotent install and reinstall of one shop (see the file comment). */
export async function provisionShop({ shopDomain, graphql, now = new Date() }: ProvisionInput) {
  const domain = normalizeShopDomain(shopDomain);
  const info = await fetchShopInfo(graphql);
  let records;
  for (let attempt = 1; ; attempt++) {
    try {
      records = await ensureRecords(domain, info, now);
      break;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 3 || !(isUniqueViolation(err) || (code && RETRYABLE.has(code)))) throw err;
    }
  }
  noteKeyStatus(records.apiKey.id, records.apiKey);
  invalidateKeyConfig(records.partner.id);
  // The badge stays off only where the plan allows it (SPEC 8.1).
  const canHide = getPlan(records.partner.plan)?.canHideBadge ?? false;
  const badge = !(canHide && info.badge?.value === "false");
  await writeShopMetafields(graphql, info.id, {
    publicKey: records.apiKey.key,
    basketId: records.basket.publicId,
    badge,
    appUrl: env.APP_URL,
    // The extension's scripts come from Shopify's CDN, where nothing substitutes the key into them.
    anonKey: await getAnonKey(),
  });
  log.info("shop provisioned", {
    shop: domain,
    partnerId: records.partner.id,
    created: records.created,
    reactivated: records.reactivated,
  });
  return records;
}

/** What the theme extension's scripts read from the shop's metafields (null: not in the answer). */
export interface ScriptMetafields {
  id: string;
  appUrl: { value: string } | null;
  anonKey: { value: string } | null;
}

/**
 * Writes the metafields the extension's scripts need (the app's address, the anonymous-client key)
 * when they are missing or stale: shops installed before the scripts moved to Shopify's CDN, or
 * an APP_URL that changed. A failure is logged and retried on the next admin load.
 */
export async function refreshScriptMetafields(graphql: AdminGraphql, shop: ScriptMetafields | null): Promise<void> {
  if (!shop) return;
  const anonKey = await getAnonKey();
  if (shop.appUrl?.value === env.APP_URL && shop.anonKey?.value === anonKey) return;
  try {
    await writeShopMetafields(graphql, shop.id, { appUrl: env.APP_URL, anonKey });
    log.info("script metafields refreshed", { shop: shop.id });
  } catch (err) {
    log.warn("could not refresh the script metafields", { shop: shop.id, ...errorFields(err) });
  }
}
