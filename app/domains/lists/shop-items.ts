// Which saved items are "of a shop": saved through its widget or app proxy
// (the shop), else through its partner, else from one of its domains.
// Shared by the customer account API and the customer metafield mirror.
import type { Prisma } from "~/db.server";

export interface ShopScope {
  id: number;
  partnerId: number;
  domain: string;
  primaryDomain: string | null;
}

export function itemsOfShop(shop: ShopScope): Prisma.ListItemWhereInput {
  const domains = [shop.domain, ...(shop.primaryDomain ? [shop.primaryDomain] : [])];
  return {
    OR: [
      { sourceShopId: shop.id },
      { sourceShopId: null, sourcePartnerId: shop.partnerId },
      { sourceShopId: null, sourcePartnerId: null, sourceDomain: { in: domains } },
    ],
  };
}

/**
 * The lists a store may publish for its customer (docs/identity.md): the default list or one made
 * through its partner, holding items of this shop and none of any other shop.
 */
export function listsStoreMayPublish(shop: ShopScope): Prisma.WishlistWhereInput {
  return {
    OR: [{ defaultKey: "default" }, { createdThroughPartnerId: shop.partnerId }],
    items: { some: itemsOfShop(shop), none: { NOT: itemsOfShop(shop) } },
  };
}

/** `https://shop.example/products/<handle>` (any locale prefix) → the product handle, else null. */
export function productHandle(url: string | null): string | null {
  if (!url) return null;
  try {
    const match = /\/products\/([^/?#]+)\/?$/.exec(new URL(url).pathname);
    return match ? decodeURIComponent(match[1]).toLowerCase() : null;
  } catch {
    return null;
  }
}
