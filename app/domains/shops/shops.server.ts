// Stores installed through the storefront platform (Shopify). Each belongs to
// a partner and starts a trial on install (SPEC section 3 and 8.4).
import { db, type PlatformShop } from "~/db.server";
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import { isUniqueViolation } from "~/db/errors";
import { ApiError, badRequest } from "~/lib/api/errors";
import { assertPartnerExists } from "~/domains/partners/partners.server";
import { freeHandle, handleBase, HANDLE_PATTERN, isReservedHandle } from "./handles.server";

/** SPEC 8.4: trial on a newly installed storefront-platform shop. */
export const SHOP_TRIAL_DAYS = 14;

export type SubscriptionStatus = "trialing" | "active" | "cancelled";
export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ["trialing", "active", "cancelled"];

type PlatformShopRow = Pick<PlatformShop, "id" | "partnerId" | "domain" | "name" | "active" | "installedAt" | "uninstalledAt" | "trialEndsAt" | "subscriptionStatus" | "plan" | "handle" | "published" | "updatedAt">;

// The platform's permanent store address, e.g. `acme-store.myshopify.com`.
const SHOP_DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.myshopify\.com$/;

/** Lowercased `<store>.myshopify.com` host, or 400 `invalid_shop_domain`. */
export function normalizeShopDomain(domain: string): string {
  const value = domain.trim().toLowerCase();
  if (!SHOP_DOMAIN.test(value)) {
    throw badRequest("invalid_shop_domain", `${JSON.stringify(domain)} is not a store domain like example.myshopify.com`);
  }
  return value;
}

export function trialEndsAt(installedAt: Date): Date {
  return new Date(installedAt.getTime() + SHOP_TRIAL_DAYS * 86_400_000);
}

export function shopJson(shop: PlatformShopRow) {
  return {
    id: shop.id,
    partner_id: shop.partnerId,
    domain: shop.domain,
    name: shop.name,
    active: shop.active,
    installed_at: shop.installedAt.toISOString(),
    uninstalled_at: shop.uninstalledAt?.toISOString() ?? null,
    trial_ends_at: shop.trialEndsAt.toISOString(),
    subscription_status: shop.subscriptionStatus,
    plan: shop.plan,
    handle: shop.handle,
    published: shop.published,
    updated_at: shop.updatedAt.toISOString(),
  };
}

export async function createPlatformShop(
  partnerId: number,
  input: { domain: string; installedAt?: Date; subscriptionStatus?: string; name?: string; handle?: string; published?: boolean },
) {
  const domain = normalizeShopDomain(input.domain);
  const subscriptionStatus = input.subscriptionStatus ?? "trialing";
  if (!(SUBSCRIPTION_STATUSES as string[]).includes(subscriptionStatus)) {
    throw badRequest("invalid_subscription_status", `subscription status must be one of ${SUBSCRIPTION_STATUSES.join(", ")}`);
  }
  if (input.handle !== undefined && (!HANDLE_PATTERN.test(input.handle) || isReservedHandle(input.handle))) {
    throw badRequest("invalid_handle", "handle must be 1-60 lower-case letters, digits and inner hyphens, and not a reserved word");
  }
  await assertPartnerExists(partnerId);
  // Back-dating installedAt (CLI) moves the trial end with it.
  const installedAt = input.installedAt ?? new Date();
  for (let attempt = 1; ; attempt++) {
    // A given handle is taken as is (409 when another shop holds it); a derived one gets a free suffix.
    const handle = input.handle ?? (await freeHandle(handleBase({ name: input.name, domain })));
    try {
      const shop = await db.platformShop.create({
        data: { partnerId, domain, name: input.name ?? null, installedAt, trialEndsAt: trialEndsAt(installedAt), subscriptionStatus, handle, published: input.published ?? false },
      });
      invalidateKeyConfig(partnerId);
      return shop;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (await db.platformShop.findUnique({ where: { domain }, select: { id: true } })) {
        throw new ApiError(409, "shop_exists", `A shop with domain ${domain} already exists`);
      }
      if (input.handle !== undefined) throw new ApiError(409, "handle_taken", `The handle ${input.handle} is taken`);
      if (attempt >= 5) throw err; // derived handles raced five times
    }
  }
}
